//! Retention rows: transcripts the next start of Claude Code deletes.
//!
//! At start Claude Code unlinks every session transcript under `projects/<key>/` whose
//! file modification time is older than `cleanupPeriodDays` (30 by default), without a
//! prompt or a trash. A responder who collects a home needs to know which transcripts
//! are that close to gone (and that a copy which did not keep mtimes changes the
//! answer), so each such file gets one row at its mtime. Whether a file is past the
//! period depends on when the evidence was collected, which the file cannot tell: the
//! row is made only when the caller gives the collection time
//! ([`chat_rows::FileContext::collected_at`]); without it there is no row, so two scans
//! of the same collection give the same rows.
//!
//! The period is the effective `cleanupPeriodDays`: the host's managed settings when
//! they set it (`managed-settings.json`, then its `managed-settings.d/*.json` drop-ins
//! in name order, the last that sets it winning; managed settings override every other
//! scope), else the home's own `settings.json`, else 30. Project settings are not
//! consulted: which project Claude Code starts in next is not in the evidence. When the
//! period cannot be determined (a deciding file unreadable, not a JSON object, or a
//! `cleanupPeriodDays` that is not a whole number of days from 0 up) no row is made, as
//! the sweep itself pauses then.

use chat_rows::{Row, Timestamp};
use serde_json::Value;

use super::AGENT;

/// The period Claude Code uses when the settings name none.
pub const DEFAULT_CLEANUP_PERIOD_DAYS: u64 = 30;

const MICROS_PER_DAY: i64 = 86_400 * 1_000_000;

/// The effective `cleanupPeriodDays` from the bytes of the home's `settings.json`
/// (`None` when there is no such file): the default of 30 when the file or the key is
/// absent, `None` when the period cannot be determined.
pub fn period_days(settings: Option<&[u8]>) -> Option<u64> {
    let Some(bytes) = settings else {
        return Some(DEFAULT_CLEANUP_PERIOD_DAYS);
    };
    match chat_rows::json::from_slice::<Value>(bytes).ok()? {
        Value::Object(o) => match o.get("cleanupPeriodDays") {
            None => Some(DEFAULT_CLEANUP_PERIOD_DAYS),
            Some(v) => v.as_u64(),
        },
        _ => None,
    }
}

/// The period the host's managed settings set, from the bytes of its files in
/// precedence order (`managed-settings.json`, then the drop-ins by name): `None` when
/// none sets `cleanupPeriodDays` (the home's own settings decide), `Some(None)` when the
/// deciding file's value cannot be read as a period or a file is not a JSON object
/// (undetermined: no row), `Some(Some(n))` when the last file that sets it says `n`.
pub fn managed_period_days<'a>(files: impl IntoIterator<Item = &'a [u8]>) -> Option<Option<u64>> {
    let mut decided = None;
    for bytes in files {
        match chat_rows::json::from_slice::<Value>(bytes) {
            Ok(Value::Object(o)) => {
                if let Some(v) = o.get("cleanupPeriodDays") {
                    decided = Some(v.as_u64());
                }
            }
            // a managed file that cannot be read may set the period: undetermined
            _ => decided = Some(None),
        }
    }
    decided
}

/// Whether a file last modified at `mtime` is older than `days` days at `collected_at`
/// (strictly: a file exactly at the limit is kept). False when the limit is out of range.
pub fn is_past(mtime: Timestamp, collected_at: Timestamp, days: u64) -> bool {
    i64::try_from(days)
        .ok()
        .and_then(|d| d.checked_mul(MICROS_PER_DAY))
        .and_then(|span| collected_at.unix_micros().checked_sub(span))
        .is_some_and(|limit| mtime.unix_micros() < limit)
}

/// `retention: <file> is past cleanupPeriodDays=<n> by mtime and is deleted at the next
/// start`, at the file's mtime, locator `file mtime`.
pub fn retention_row(display: &str, days: u64, mtime: Timestamp, session_id: &str) -> Row {
    Row::system(
        AGENT,
        format!(
            "retention: {display} is past cleanupPeriodDays={days} by mtime and is deleted at the next start"
        ),
    )
    .at(Some(mtime))
    .session(session_id)
    .file(display)
    .locator("file mtime")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: i64) -> Timestamp {
        Timestamp::from_epoch_seconds(s).unwrap()
    }

    #[test]
    fn period_from_settings() {
        assert_eq!(period_days(None), Some(30));
        assert_eq!(period_days(Some(b"{}")), Some(30));
        assert_eq!(period_days(Some(br#"{"cleanupPeriodDays":7}"#)), Some(7));
        assert_eq!(period_days(Some(br#"{"cleanupPeriodDays":0}"#)), Some(0));
        assert_eq!(
            period_days(Some(br#"{"cleanupPeriodDays":99999}"#)),
            Some(99999)
        );
        assert_eq!(period_days(Some(br#"{"cleanupPeriodDays":-1}"#)), None);
        assert_eq!(period_days(Some(br#"{"cleanupPeriodDays":7.5}"#)), None);
        assert_eq!(period_days(Some(br#"{"cleanupPeriodDays":"7"}"#)), None);
        assert_eq!(period_days(Some(b"[]")), None);
        assert_eq!(period_days(Some(b"{not json")), None);
    }

    #[test]
    fn managed_settings_decide_when_they_set_the_period() {
        let m = |files: &[&[u8]]| managed_period_days(files.iter().copied());
        assert_eq!(m(&[]), None);
        assert_eq!(m(&[b"{}"]), None);
        assert_eq!(m(&[br#"{"cleanupPeriodDays":14}"#]), Some(Some(14)));
        // a drop-in after the base overrides it; one that does not set it does not
        assert_eq!(
            m(&[
                br#"{"cleanupPeriodDays":14}"#,
                br#"{"cleanupPeriodDays":7}"#,
                b"{}"
            ]),
            Some(Some(7))
        );
        assert_eq!(m(&[br#"{"cleanupPeriodDays":"7"}"#]), Some(None));
        assert_eq!(m(&[br#"{"cleanupPeriodDays":14}"#, b"{torn"]), Some(None));
    }

    #[test]
    fn past_is_strictly_older() {
        let day = 86_400;
        // 2024-10-04 and days before it
        let d = |n: i64| at((20_000 - n) * day);
        let now = d(0);
        assert!(is_past(at((20_000 - 30) * day - 1), now, 30));
        assert!(!is_past(d(30), now, 30));
        assert!(!is_past(d(1), now, 30));
        assert!(is_past(d(1), now, 0));
        assert!(!is_past(d(0), now, 0));
        assert!(!is_past(d(10_000), now, u64::MAX));
        assert!(!is_past(d(10_000), now, 99_999));
        assert!(is_past(d(10_000), now, 9_999));
    }
}
