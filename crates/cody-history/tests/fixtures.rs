//! The rows of every Cody fixture file, pinned.

mod common;

use chat_rows::{Evidence, RecordState, Store, TurnType};
use common::{fixture, read, render_all};

const ALICE_HISTORY: &str =
    "lin-ws01/home/alice/.local/share/Cody-nodejs/JetBrains-globalState/cody-local-chatHistory-v2";
const CAROL_HISTORY: &str = "WIN-DESK03/C/Users/carol/AppData/Local/Cody-nodejs/Data/JetBrains-globalState/cody-local-chatHistory-v2";
const ALICE_PREFS: &str =
    "lin-ws01/home/alice/.local/share/Cody-nodejs/JetBrains-globalState/cody-model-preferences";
const ALICE_SETTINGS: &str = "lin-ws01/home/alice/.config/VSCodium/User/settings.json";
const WEBAPP_XML: &str = "lin-ws01/home/alice/src/webapp/.idea/cody_history.xml";
const API_XML: &str = "lin-ws01/home/alice/src/api/.idea/cody_history.xml";

fn mtime_of(rel: &str) -> String {
    Evidence::new()
        .modified(&fixture(rel))
        .map(|t| t.to_string())
        .unwrap_or_default()
}

/// Rendered rows without their (checkout-dependent) time, which must be the file's mtime.
fn without_mtime(rel: &str) -> Vec<String> {
    let mtime = mtime_of(rel);
    render_all(&read(rel))
        .into_iter()
        .map(|l| {
            let (time, rest) = l.split_once('|').unwrap();
            assert_eq!(time, mtime, "{l}");
            rest.to_string()
        })
        .collect()
}

#[test]
fn jetbrains_history_of_two_accounts() {
    let expected = vec![
        "2026-10-03T10:00:00.000000Z|utc|https://sg.example-corp.com/-alice/Fri, 03 Oct 2026 10:00:00 GMT||system||||session start: account=https://sg.example-corp.com/-alice endpoint=https://sg.example-corp.com/ username=alice|1|byte 79|live",
        "2026-10-03T10:00:00.000000Z|utc|https://sg.example-corp.com/-alice/Fri, 03 Oct 2026 10:00:00 GMT||user|anthropic::2024-10-22::claude-sonnet-4-latest|||summarise the release notes|1|byte 133|live",
        "2026-10-03T10:00:00.000000Z|utc|https://sg.example-corp.com/-alice/Fri, 03 Oct 2026 10:00:00 GMT||system|anthropic::2024-10-22::claude-sonnet-4-latest|||model: anthropic::2024-10-22::claude-sonnet-4-latest|1|byte 133|live",
        // an error-only reply is the assistant's turn, its text the error
        "2026-10-03T10:00:00.000000Z|utc|https://sg.example-corp.com/-alice/Fri, 03 Oct 2026 10:00:00 GMT||assistant|anthropic::2024-10-22::claude-sonnet-4-latest|||error: RateLimitError: You've used all your chat messages for today.|1|byte 133|live",
        "2026-10-04T09:30:00.000000Z|utc|Sat, 04 Oct 2026 09:30:00 GMT||system||||session start: account=https://sg.example-corp.com/-alice endpoint=https://sg.example-corp.com/ username=alice title=\"Run the tests\"|1|byte 517|live",
        "2026-10-04T09:30:00.000000Z|utc|Sat, 04 Oct 2026 09:30:00 GMT||user|anthropic::2024-10-22::claude-sonnet-4-thinking-latest|||run the tests|1|byte 599|live",
        "2026-10-04T09:30:00.000000Z|utc|Sat, 04 Oct 2026 09:30:00 GMT||system|anthropic::2024-10-22::claude-sonnet-4-thinking-latest|||model: anthropic::2024-10-22::claude-sonnet-4-thinking-latest|1|byte 599|live",
        "2026-10-04T09:30:00.000000Z|utc|Sat, 04 Oct 2026 09:30:00 GMT||assistant|anthropic::2024-10-22::claude-sonnet-4-thinking-latest|||Running tests.|1|byte 599|live",
        "2026-10-04T09:30:00.000000Z|utc|Sat, 04 Oct 2026 09:30:00 GMT||tool_use|anthropic::2024-10-22::claude-sonnet-4-thinking-latest|run_terminal_command|toolu_01|{\"command\":\"pytest -q\"}|1|byte 599|live",
        "2026-10-04T09:30:00.000000Z|utc|Sat, 04 Oct 2026 09:30:00 GMT||tool_result|anthropic::2024-10-22::claude-sonnet-4-latest|run_terminal_command|toolu_01|3 passed in 0.42s|1|byte 1004|live",
        "2026-10-04T09:30:00.000000Z|utc|Sat, 04 Oct 2026 09:30:00 GMT||system|anthropic::2024-10-22::claude-sonnet-4-latest|||model: anthropic::2024-10-22::claude-sonnet-4-thinking-latest -> anthropic::2024-10-22::claude-sonnet-4-latest|1|byte 1004|live",
        "2026-10-04T09:30:00.000000Z|utc|Sat, 04 Oct 2026 09:30:00 GMT||assistant|anthropic::2024-10-22::claude-sonnet-4-latest|||All 3 tests pass.|1|byte 1004|live",
        "2024-01-31T01:06:18.524621|unknown|2024-01-31T01:06:18.524621||system||||session start: account=https://sourcegraph.com/-alice-w-dev endpoint=https://sourcegraph.com/ username=alice-w-dev|1|byte 1582|live",
        "2024-01-31T01:06:18.524621|unknown|2024-01-31T01:06:18.524621||user|anthropic/claude-3-sonnet-20240229|||hi|1|byte 1633|live",
        "2024-01-31T01:06:18.524621|unknown|2024-01-31T01:06:18.524621||system|anthropic/claude-3-sonnet-20240229|||model: anthropic/claude-3-sonnet-20240229|1|byte 1633|live",
        "2024-01-31T01:06:18.524621|unknown|2024-01-31T01:06:18.524621||assistant|anthropic/claude-3-sonnet-20240229|||hello|1|byte 1633|live",
        "||6f1c2f0e-5b7a-4c2e-9d11-3a4b5c6d7e8f||system||||session start: account=https://sourcegraph.com/-alice-w-dev endpoint=https://sourcegraph.com/ username=alice-w-dev|1|byte 1927|live",
        "||6f1c2f0e-5b7a-4c2e-9d11-3a4b5c6d7e8f||user|anthropic::2024-10-22::claude-3-5-haiku-latest|||list the gradle tasks|1|byte 1988|live",
        "||6f1c2f0e-5b7a-4c2e-9d11-3a4b5c6d7e8f||system|anthropic::2024-10-22::claude-3-5-haiku-latest|||model: anthropic::2024-10-22::claude-3-5-haiku-latest|1|byte 1988|live",
        "||6f1c2f0e-5b7a-4c2e-9d11-3a4b5c6d7e8f||assistant|anthropic::2024-10-22::claude-3-5-haiku-latest|||Run ./gradlew tasks --all.|1|byte 1988|live",
        "||6f1c2f0e-5b7a-4c2e-9d11-3a4b5c6d7e8f||user||||and only the test ones?|1|byte 2224|live",
        "2026-10-03T10:00:00.000000Z|utc|https://sourcegraph.com/-alice-w-dev/Fri, 03 Oct 2026 10:00:00 GMT|/home/alice/proj|system||||session start: account=https://sourcegraph.com/-alice-w-dev endpoint=https://sourcegraph.com/ username=alice-w-dev title=\"Fix flaky test\"|1|byte 2434|live",
        "2026-10-03T10:00:00.000000Z|utc|https://sourcegraph.com/-alice-w-dev/Fri, 03 Oct 2026 10:00:00 GMT|/home/alice/proj|user|anthropic::2024-10-22::claude-sonnet-4-latest|||why is test_login flaky?|1|byte 2517|live",
        "2026-10-03T10:00:00.000000Z|utc|https://sourcegraph.com/-alice-w-dev/Fri, 03 Oct 2026 10:00:00 GMT|/home/alice/proj|system|anthropic::2024-10-22::claude-sonnet-4-latest|||model: anthropic::2024-10-22::claude-sonnet-4-latest|1|byte 2517|live",
        "2026-10-03T10:00:00.000000Z|utc|https://sourcegraph.com/-alice-w-dev/Fri, 03 Oct 2026 10:00:00 GMT|/home/alice/proj|assistant|anthropic::2024-10-22::claude-sonnet-4-latest|||It depends on wall-clock time.|1|byte 2517|live",
    ];
    assert_eq!(render_all(&read(ALICE_HISTORY)), expected);
}

#[test]
fn a_torn_history_is_recovered_chat_by_chat() {
    let expected = vec![
        "2026-10-02T07:15:00.000000Z|utc|Thu, 02 Oct 2026 07:15:00 GMT|c:\\Users\\carol\\repos\\tool|system||||session start: account=https://sourcegraph.com/-carol endpoint=https://sourcegraph.com/ username=carol|1|byte 75|live",
        "2026-10-02T07:15:00.000000Z|utc|Thu, 02 Oct 2026 07:15:00 GMT|c:\\Users\\carol\\repos\\tool|user|anthropic::2024-10-22::claude-sonnet-4-latest|||what does build.ps1 do?|1|byte 129|live",
        "2026-10-02T07:15:00.000000Z|utc|Thu, 02 Oct 2026 07:15:00 GMT|c:\\Users\\carol\\repos\\tool|system|anthropic::2024-10-22::claude-sonnet-4-latest|||model: anthropic::2024-10-22::claude-sonnet-4-latest|1|byte 129|live",
        "2026-10-02T07:15:00.000000Z|utc|Thu, 02 Oct 2026 07:15:00 GMT|c:\\Users\\carol\\repos\\tool|assistant|anthropic::2024-10-22::claude-sonnet-4-latest|||It restores NuGet packages and builds the solution.|1|byte 129|live",
        "2026-10-02T08:40:00.000000Z|utc|Thu, 02 Oct 2026 08:40:00 GMT||system||||session start: account=https://sourcegraph.com/-carol endpoint=https://sourcegraph.com/ username=carol|1|byte 648|live",
        "2026-10-02T08:40:00.000000Z|utc|Thu, 02 Oct 2026 08:40:00 GMT||user|anthropic::2024-10-22::claude-sonnet-4-latest|||add a -Release switch|1|byte 702|live",
        "2026-10-02T08:40:00.000000Z|utc|Thu, 02 Oct 2026 08:40:00 GMT||system|anthropic::2024-10-22::claude-sonnet-4-latest|||model: anthropic::2024-10-22::claude-sonnet-4-latest|1|byte 702|live",
        "2026-10-02T08:40:00.000000Z|utc|Thu, 02 Oct 2026 08:40:00 GMT||assistant|anthropic::2024-10-22::claude-sonnet-4-latest|||Add param([switch]$Release) at the top.|1|byte 702|live",
        "2026-10-02T08:40:00.000000Z|utc|Thu, 02 Oct 2026 08:40:00 GMT||system||||parser: unparseable record 2 (interaction 1 at byte 950: input ends at byte 1203 inside an interaction): {\"id\":\"Thu, 02 Oct 2026 08:40:00 GMT\",\"interactions\":[{\"assistantMessage\":{\"intent\":\"chat\",\"model\":\"anthropic::2024-10-22::claude-sonnet-4-latest\",\"speaker\":\"assistant\",\"text\":\"Add param([switch]$Release) at the top.\"},\"humanMessage\":{\"intent\":\"chat\",\"speaker\":\"human\",\"text\":\"add a -Release switch\"}},{\"assistantMessage\":{\"intent\":\"chat\",\"model\":\"anthropic::2024-10-22::claude-sonnet-4-latest\",\"spea… [555 bytes in all]|1|byte 950|live",
    ];
    assert_eq!(render_all(&read(CAROL_HISTORY)), expected);
}

#[test]
fn model_preferences_selected_before_defaults() {
    let expected = vec![
        "utc|||system|anthropic::2024-10-22::claude-3-5-haiku-latest|||model setting: selected.chat=anthropic::2024-10-22::claude-3-5-haiku-latest endpoint=https://sourcegraph.com/ (from JetBrains-globalState/cody-model-preferences, file mtime)|1|endpoint https://sourcegraph.com/ selected.chat|live",
        "utc|||system|fireworks::v1::deepseek-coder-v2-lite-base|||model setting: defaults.autocomplete=fireworks::v1::deepseek-coder-v2-lite-base endpoint=https://sourcegraph.com/ (from JetBrains-globalState/cody-model-preferences, file mtime)|1|endpoint https://sourcegraph.com/ defaults.autocomplete|live",
        "utc|||system|anthropic::2024-10-22::claude-sonnet-4-latest|||model setting: defaults.chat=anthropic::2024-10-22::claude-sonnet-4-latest endpoint=https://sourcegraph.com/ (from JetBrains-globalState/cody-model-preferences, file mtime)|1|endpoint https://sourcegraph.com/ defaults.chat|live",
        "utc|||system|anthropic::2024-10-22::claude-sonnet-4-latest|||model setting: defaults.edit=anthropic::2024-10-22::claude-sonnet-4-latest endpoint=https://sourcegraph.com/ (from JetBrains-globalState/cody-model-preferences, file mtime)|1|endpoint https://sourcegraph.com/ defaults.edit|live",
    ];
    assert_eq!(without_mtime(ALICE_PREFS), expected);
}

#[test]
fn permission_settings_from_jsonc() {
    // in the file's order (lines 5, 6, 7, 13), not the keys' sorted order
    let expected = vec![
        "utc|||system||||permission setting: cody.chat.agenticContext=false (from User/settings.json, file mtime)|5|key cody.chat.agenticContext|live",
        "utc|||system||||permission setting: cody.agentic.context.experimentalShell=true (from User/settings.json, file mtime)|6|key cody.agentic.context.experimentalShell|live",
        "utc|||system||||permission setting: cody.agentic.context.experimentalOptions.shell.allow=[\"git\",\"ls\"] (from User/settings.json, file mtime)|7|key cody.agentic.context.experimentalOptions.shell.allow|live",
        "utc|||system||||permission setting: cody.agentic.context.experimentalOptions.shell.block=[\"sudo\"] (from User/settings.json, file mtime)|7|key cody.agentic.context.experimentalOptions.shell.block|live",
        "utc|||system||||permission setting: cody.mcpServers.github.disabledTools=[\"delete_repository\"] (from User/settings.json, file mtime)|13|key cody.mcpServers.github.disabledTools|live",
        "utc|||system||||permission setting: cody.mcpServers.web.disabled=true (from User/settings.json, file mtime)|13|key cody.mcpServers.web.disabled|live",
    ];
    assert_eq!(without_mtime(ALICE_SETTINGS), expected);
}

#[test]
fn legacy_xml_rows_are_secondary() {
    let expected = vec![
        "2024-01-31T01:06:18.524621|unknown|2024-01-31T01:06:18.524621|/home/alice/src/webapp|system||||chat: 0f8b7034-9fa8-488a-a13e-09c52677008a | account=VXNlcjozNDI1NjE= | messages=3 (legacy JetBrains history)|10|byte 247|secondary",
        "2024-01-31T01:06:18.524621|unknown|2024-01-31T01:06:18.524621|/home/alice/src/webapp|user|anthropic/claude-3-sonnet-20240229|||hi|21|byte 674|secondary",
        "2024-01-31T01:06:18.524621|unknown|2024-01-31T01:06:18.524621|/home/alice/src/webapp|system|anthropic/claude-3-sonnet-20240229|||model: anthropic/claude-3-sonnet-20240229|25|byte 825|secondary",
        "2024-01-31T01:06:18.524621|unknown|2024-01-31T01:06:18.524621|/home/alice/src/webapp|assistant|anthropic/claude-3-sonnet-20240229|||hello|25|byte 825|secondary",
        "2024-01-31T01:06:18.524621|unknown|2024-01-31T01:06:18.524621|/home/alice/src/webapp|user|anthropic/claude-3-sonnet-20240229|||unpaired question|29|byte 983|live",
        "2024-01-30T17:45:02.100000|unknown|2024-01-30T17:45:02.1|/home/alice/src/webapp|system||||chat: 7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f | account=VXNlcjozNDI1NjE= | messages=2 (legacy JetBrains history)|37|byte 1284|secondary",
        "2024-01-30T17:45:02.100000|unknown|2024-01-30T17:45:02.1|/home/alice/src/webapp|user|openai/gpt-4|||how do I configure the proxy for gradle?|41|byte 1439|secondary",
        "2024-01-30T17:45:02.100000|unknown|2024-01-30T17:45:02.1|/home/alice/src/webapp|system|openai/gpt-4|||model: openai/gpt-4|45|byte 1628|secondary",
        "2024-01-30T17:45:02.100000|unknown|2024-01-30T17:45:02.1|/home/alice/src/webapp|assistant|openai/gpt-4|||Add these lines to gradle.properties:\\nsystemProp.https.proxyHost=proxy.corp\\nsystemProp.https.proxyPort=3128|45|byte 1628|secondary",
        // the top-level list's copy of the first chat is folded (the account list wins);
        // its chat that the account list lacks is kept, with its own account
        "2023-12-04T16:20:00.250000|unknown|2023-12-04T16:20:00.25|/home/alice/src/webapp|system||||chat: e5d4c3b2-1a09-4f8e-b7d6-c5b4a3928170 | account=VXNlcjo5OTk5OTk= | messages=2 (legacy JetBrains history)|79|byte 2802|secondary",
        "2023-12-04T16:20:00.250000|unknown|2023-12-04T16:20:00.25|/home/alice/src/webapp|user|anthropic/claude-2|||which JDK does the build use?|84|byte 2982|secondary",
        "2023-12-04T16:20:00.250000|unknown|2023-12-04T16:20:00.25|/home/alice/src/webapp|system|anthropic/claude-2|||model: anthropic/claude-2|88|byte 3136|secondary",
        "2023-12-04T16:20:00.250000|unknown|2023-12-04T16:20:00.25|/home/alice/src/webapp|assistant|anthropic/claude-2|||Temurin 17, from the toolchain block.|88|byte 3136|secondary",
    ];
    let rows = read(WEBAPP_XML);
    // every row is secondary but the unpaired message the migration skipped (the
    // fifth): the XML is its only record, so it is a primary row the merge cannot take
    assert!(rows.iter().enumerate().all(|(i, r)| {
        let copy = i != 4;
        r.secondary == copy && (r.record_state == RecordState::Secondary) == copy
    }));
    assert_eq!(render_all(&rows), expected);
}

#[test]
fn a_cut_legacy_xml_keeps_the_chats_before_the_cut() {
    let expected = vec![
        "2023-11-20T09:12:44.500000|unknown|2023-11-20T09:12:44.5|/home/alice/src/api|system||||chat: a1b2c3d4-0000-4000-8000-00000000000a | account=VXNlcjozNDI1NjE= | messages=2 (legacy JetBrains history)|5|byte 120|secondary",
        "2023-11-20T09:12:44.500000|unknown|2023-11-20T09:12:44.5|/home/alice/src/api|user|anthropic/claude-2|||what does the retry middleware do?|10|byte 300|secondary",
        "2023-11-20T09:12:44.500000|unknown|2023-11-20T09:12:44.5|/home/alice/src/api|system|anthropic/claude-2|||model: anthropic/claude-2|14|byte 459|secondary",
        "2023-11-20T09:12:44.500000|unknown|2023-11-20T09:12:44.5|/home/alice/src/api|assistant|anthropic/claude-2|||It retries idempotent requests up to three times with backoff.|14|byte 459|secondary",
        "|||/home/alice/src/api|system||||parser: cody_history.xml did not parse; read 1 chat(s) (syntax error: attribute value not closed: `\"` not found before end of input at line 30 (byte 1051))|30|byte 1051|secondary",
    ];
    assert_eq!(render_all(&read(API_XML)), expected);
}

#[test]
fn legacy_copies_merge_away_and_unpaired_and_deleted_chats_stay() {
    let mut rows = read(ALICE_HISTORY);
    let live = rows.len();
    rows.extend(read(WEBAPP_XML));
    let (kept, dropped) = cody_history::merge(rows);
    // hi, model, hello: the migrated pair and its model row
    assert_eq!(dropped, 3);
    let legacy: Vec<(TurnType, &str)> = kept[live..]
        .iter()
        .map(|r| (r.turn_type, r.text.as_str()))
        .collect();
    assert_eq!(
        legacy,
        vec![
            (
                TurnType::System,
                "chat: 0f8b7034-9fa8-488a-a13e-09c52677008a | account=VXNlcjozNDI1NjE= | messages=3 (legacy JetBrains history)"
            ),
            (TurnType::User, "unpaired question"),
            (
                TurnType::System,
                "chat: 7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f | account=VXNlcjozNDI1NjE= | messages=2 (legacy JetBrains history)"
            ),
            (TurnType::User, "how do I configure the proxy for gradle?"),
            (TurnType::System, "model: openai/gpt-4"),
            (
                TurnType::Assistant,
                "Add these lines to gradle.properties:\nsystemProp.https.proxyHost=proxy.corp\nsystemProp.https.proxyPort=3128"
            ),
            (
                TurnType::System,
                "chat: e5d4c3b2-1a09-4f8e-b7d6-c5b4a3928170 | account=VXNlcjo5OTk5OTk= | messages=2 (legacy JetBrains history)"
            ),
            (TurnType::User, "which JDK does the build use?"),
            (TurnType::System, "model: anthropic/claude-2"),
            (TurnType::Assistant, "Temurin 17, from the toolchain block."),
        ]
    );
}

#[test]
fn from_path_constructors_read_through_evidence() {
    let ev = Evidence::new();
    let h = cody_history::ChatHistory::from_path(&fixture(ALICE_HISTORY), &ev).unwrap();
    assert_eq!((h.len(), h.damage.clone()), (5, None));
    let x = cody_history::LegacyHistory::from_path(&fixture(WEBAPP_XML), &ev).unwrap();
    // both lists: three chats, the top-level copy of the first one folded
    assert_eq!((x.chats.len(), x.folded), (3, 1));
    let p = cody_history::ModelPreferences::from_path(&fixture(ALICE_PREFS), &ev).unwrap();
    assert_eq!(p.endpoints[0].selected.len(), 1);
    assert_eq!(ev.manifest().len(), 3);
    let missing = fixture("lin-ws01/no/such/cody-local-chatHistory-v2");
    let err = cody_history::ChatHistory::from_path(&missing, &ev)
        .unwrap_err()
        .to_string();
    assert!(
        err.ends_with(
            "cody-local-chatHistory-v2 could not be read (No such file or directory (os error 2))"
        ),
        "{err}"
    );
}

#[test]
fn a_known_host_offset_turns_zone_less_ids_into_utc_on_both_sides() {
    let store = cody_history::CodyStore;
    let ctx = |rel: &str| chat_rows::FileContext {
        host: "lin-ws01".into(),
        display_path: rel.into(),
        host_offset: chat_rows::when::parse_offset("+01:00"),
        ..chat_rows::FileContext::default()
    };
    let ev = Evidence::new();
    let mut rows = store.read(&fixture(ALICE_HISTORY), &ctx(ALICE_HISTORY), &ev);
    let hi = rows.iter().find(|r| r.text == "hi").unwrap();
    assert_eq!(
        hi.timestamp.unwrap().to_string(),
        "2024-01-31T00:06:18.524621Z"
    );
    assert_eq!(hi.zone(), Some(chat_rows::Zone::Utc));
    rows.extend(store.read(&fixture(WEBAPP_XML), &ctx(WEBAPP_XML), &ev));
    let (kept, dropped) = cody_history::merge(rows);
    assert_eq!(dropped, 3);
    let unpaired = kept.iter().find(|r| r.text == "unpaired question").unwrap();
    assert_eq!(
        unpaired.timestamp.unwrap().to_string(),
        "2024-01-31T00:06:18.524621Z"
    );
    assert_eq!(unpaired.project_path, "/home/alice/src/webapp");
}
