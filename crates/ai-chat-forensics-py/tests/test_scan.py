"""The Python package gives the CLI's rows, field for field, on fixtures/evidence."""

import sys
import ast
import datetime
import json
from pathlib import Path

import pytest

import ai_chat_forensics as acf
from conftest import EVIDENCE, REPO

ROOT = "fixtures/evidence"


@pytest.fixture(autouse=True)
def _cwd(monkeypatch):
    # the CLI and the package name source files relative to the root as given
    monkeypatch.chdir(REPO)


def test_every_row_is_the_clis_field_for_field(cli):
    expected = cli(ROOT)
    rows = acf.scan(ROOT)
    got = list(rows)
    assert len(got) == len(expected)
    assert len(got) > 500  # the whole tree, every store
    for g, e in zip(got, expected):
        assert list(g.keys()) == list(e.keys()) == acf.columns()
        assert g == e
    assert got == expected


def test_report_after_the_scan(cli):
    rows = acf.scan(ROOT)
    assert rows.report is None and rows.summary is None and rows.files is None
    assert not rows.done
    got = list(rows)
    assert rows.done
    summary = rows.summary
    assert summary["rows"] == len(got)
    assert summary["parser_rows"] == sum(
        1 for r in got if r["turn_type"] == "system" and r["text"].startswith("parser:")
    )
    assert summary["parser_rows"] > 0  # parser: rows are rows
    assert summary["untimed_rows"] == sum(1 for r in got if r["timestamp_utc"] == "")
    for t in acf.turn_types():
        assert summary["rows_per_turn_type"][t] == sum(1 for r in got if r["turn_type"] == t)
    files = rows.files
    assert files == rows.report["files"]
    assert {f["store"] for f in files} >= {"vscode-chat-log", "state-vscdb", "tabby-db", "codebuddy-log"}
    # every file read gave the rows it says
    assert sum(f["rows"] for f in files) >= len(got)
    assert rows.report["merged_copies"] >= 0
    assert rows.report["repeated_parser_rows"] == 0
    assert rows.report["manifest"] and all(m["sha256"] == "" for m in rows.report["manifest"])


def test_filters_are_the_clis(cli):
    assert list(acf.scan(ROOT, agents="codebuddy")) == cli(ROOT, "--agent", "codebuddy")
    assert list(acf.scan(ROOT, agents=["cody", "tabby"])) == cli(ROOT, "--agent", "cody", "--agent", "tabby")
    since, until = "2026-10-01", "2026-10-03"
    expected = cli(ROOT, "--since", since, "--until", until)
    assert expected
    assert list(acf.scan(ROOT, since=since, until=until)) == expected
    # a date, a datetime (naive is UTC) and epoch milliseconds are the same bounds
    assert list(acf.scan(ROOT, since=datetime.date(2026, 10, 1), until=datetime.date(2026, 10, 3))) == expected
    start = datetime.datetime(2026, 10, 1)
    assert list(acf.scan(ROOT, since=start, until="2026-10-03")) == expected
    ms = int(start.replace(tzinfo=datetime.timezone.utc).timestamp() * 1000)
    assert list(acf.scan(ROOT, since=ms, until=until)) == expected
    assert list(acf.scan(ROOT, keep_copies=True)) == cli(ROOT, "--keep-copies")
    assert list(acf.scan(ROOT, host_zone="+02:00")) == cli(ROOT, "--host-zone", "+02:00")


def test_a_host_folder_keeps_its_host(cli):
    host_root = "fixtures/evidence/lin-ws01"
    got = list(acf.scan(host_root))
    assert got == cli(host_root)
    assert got and {r["host"] for r in got} == {"lin-ws01"}
    named = list(acf.scan(host_root, host="case-117-ws01"))
    assert named == cli(host_root, "--host", "case-117-ws01")
    assert {r["host"] for r in named} == {"case-117-ws01"}


def test_hashes_in_the_manifest():
    rows = acf.scan(ROOT, agents="codebuddy", hash_files=True)
    list(rows)
    manifest = rows.report["manifest"]
    assert manifest and all(len(m["sha256"]) == 64 for m in manifest)
    # read with O_NOATIME (Linux; the fixtures belong to whoever runs the tests)
    if sys.platform.startswith("linux"):
        assert all(m["access_time_kept"] is True for m in manifest)
        assert rows.report["files_access_time_not_kept"] == 0
        assert rows.report["folders_access_time_not_kept"] == 0


def test_read_file_gives_the_scans_rows_of_that_file(cli):
    path = next(EVIDENCE.glob("lin-ws01/home/alice/.codebuddy/projects/*/*.jsonl"))
    rel = path.relative_to(REPO).as_posix()
    expected = [r for r in cli(ROOT, "--keep-copies") if r["source_file"] == rel]
    assert expected
    rows = acf.read_file(rel, root=ROOT)
    got = list(rows)
    # the reader of a session also gives the rows of its side files (meta, persisted
    # outputs), each with its own source_file; the scan gives those under that file
    own = [r for r in got if r["source_file"] == rel]
    side = [r for r in got if r["source_file"] != rel]
    assert len(side) == 3 and all(r["source_file"].startswith(rel[: -len(".jsonl")]) for r in side)
    key = lambda r: json.dumps(r, sort_keys=True)  # noqa: E731
    assert sorted(own, key=key) == sorted(expected, key=key)
    assert [f["store"] for f in rows.files] == ["codebuddy-log"]
    assert rows.summary["rows"] == len(got)
    # without root, the host and user cannot be read off the layout
    alone = list(acf.read_file(path, store="codebuddy-log"))
    assert len(alone) == len(got) and {r["host"] for r in alone} == {""}


def test_read_file_reads_a_compressed_store_file(tmp_path):
    import gzip
    import io

    history = EVIDENCE / "lin-ws01/home/alice/.claude/history.jsonl"
    copy = tmp_path / "plain" / ".claude" / "history.jsonl"
    copy.parent.mkdir(parents=True)
    copy.write_bytes(history.read_bytes())
    plain = list(acf.read_file(copy))
    assert len(plain) == 8
    packed = tmp_path / ".claude" / "history.jsonl.gz"
    packed.parent.mkdir()
    packed.write_bytes(gzip.compress(history.read_bytes()))
    member = (packed / "history.jsonl").as_posix()
    # by path, and as a file object named as it stood: the plain file's rows, named as
    # the compressed file's member
    for rows in (acf.read_file(packed), acf.read_file(io.BytesIO(packed.read_bytes()), name=packed)):
        got = list(rows)
        assert [r["source_file"] for r in got] == [member] * 8
        assert [dict(r, source_file="") for r in got] == [dict(r, source_file="") for r in plain]
        assert [f["path"] for f in rows.files] == [member]
    # cut short: the lines before the cut, then one row at the compressed file
    cut = tmp_path / "cut" / ".claude" / "history.jsonl.gz"
    cut.parent.mkdir(parents=True)
    cut.write_bytes(packed.read_bytes()[:300])
    got = list(acf.read_file(cut))
    assert got[-1]["source_file"] == cut.as_posix()
    assert got[-1]["text"].startswith("parser: compressed store file read in part (decompressed as gzip only to byte ")
    assert 1 <= len(got) - 1 < 8
    # nothing decodes: no rows to give
    bad = tmp_path / "bad" / ".claude" / "history.jsonl.gz"
    bad.parent.mkdir(parents=True)
    bad.write_bytes(b"not gzip at all")
    with pytest.raises(acf.ScanError, match=r"compressed store file not read \(not decompressed as gzip: "):
        list(acf.read_file(bad))
    # a decompression bomb: 70 MiB of zeros in a few hundred bytes of bzip2 is refused
    import bz2

    bomb = tmp_path / "bomb" / ".claude" / "history.jsonl.bz2"
    bomb.parent.mkdir(parents=True)
    bomb.write_bytes(bz2.compress(bytes(70 << 20)))
    own = bomb.stat().st_size
    with pytest.raises(
        acf.ScanError,
        match=r"compressed store file not read \(not read: it decompresses to more than 1000 times its own size \(%d bytes; past 67108864 bytes\), a decompression bomb's shape" % own,
    ):
        list(acf.read_file(bomb))


def test_read_file_takes_file_objects_and_bytes(tmp_path):
    # Cody's history in VSCodium's global state, much of it only in the -wal (a store
    # that reads nothing else beside the database: others look at more files, which a
    # caller gives as companions too)
    db = "fixtures/evidence/lin-ws01/home/alice/.config/VSCodium/User/globalStorage/state.vscdb"
    by_path = list(acf.read_file(db, root=ROOT))
    assert len(by_path) == 28
    # open files, with the -wal as a companion: the same rows (times from os.fstat)
    with open(db, "rb") as main, open(db + "-wal", "rb") as wal:
        rows = acf.read_file(main, name=db, companions={db + "-wal": wal}, root=ROOT)
        assert list(rows) == by_path
    assert [m["path"] for m in rows.report["manifest"]] == [db, db + "-wal"]
    # bytes, and io.BytesIO: no modification time, so rows placed at the file's have none
    main_bytes, wal_bytes = Path(db).read_bytes(), Path(db + "-wal").read_bytes()
    from_bytes = list(acf.read_file(main_bytes, name=db, companions={db + "-wal": wal_bytes}, root=ROOT))
    from io import BytesIO

    from_io = list(acf.read_file(BytesIO(main_bytes), name=db, companions={db + "-wal": BytesIO(wal_bytes)}, root=ROOT))
    assert from_io == from_bytes
    untimed = lambda rows: [dict(r, timestamp_utc="", timestamp_zone="") for r in rows]  # noqa: E731
    assert untimed(from_bytes) == untimed(by_path)
    # without its -wal, the rows only the WAL holds are not there
    alone = list(acf.read_file(main_bytes, name=db, root=ROOT))
    assert len(alone) == 8
    # members of a zip, as a collection holds them (a zip member has no os.fstat)
    import zipfile

    zipped = Path(tmp_path) / "collection.zip"
    with zipfile.ZipFile(zipped, "w") as z:
        z.write(db, db)
        z.write(db + "-wal", db + "-wal")
    with zipfile.ZipFile(zipped) as z, z.open(db) as main, z.open(db + "-wal") as wal:
        from_zip = list(acf.read_file(main, companions={db + "-wal": wal}, root=ROOT))
    assert from_zip == from_bytes
    with pytest.raises(TypeError, match="open it in binary mode"):
        with open(db, encoding="latin-1") as text:
            acf.read_file(text, name=db)
    with pytest.raises(ValueError, match="name="):
        acf.read_file(BytesIO(main_bytes))
    with pytest.raises(ValueError, match="go with a file object"):
        acf.read_file(db, name=db)


def test_errors_are_exceptions():
    with pytest.raises(acf.ScanError, match="cannot read evidence root"):
        acf.scan("fixtures/no-such-root")
    with pytest.raises(ValueError, match="unknown agent"):
        acf.scan(ROOT, agents="notepad")
    with pytest.raises(ValueError, match="cannot read"):
        acf.scan(ROOT, since="yesterday")
    with pytest.raises(ValueError, match="beyond"):
        acf.scan(ROOT, host_zone="+15:00")
    with pytest.raises(ValueError, match="not a file"):
        acf.read_file(ROOT)
    with pytest.raises(ValueError, match="no store claims"):
        acf.read_file("README.md")
    with pytest.raises(ValueError, match="unknown store"):
        acf.read_file("README.md", store="notepad")
    with pytest.raises(acf.ScanError):
        acf.read_file("fixtures/no-such-file.jsonl")


def test_closing_early_stops_the_scan():
    with acf.scan(ROOT, threads=1) as rows:
        first = [next(rows) for _ in range(3)]
    assert len(first) == 3 and rows.done
    with pytest.raises(StopIteration):
        next(rows)


def test_stubs_name_the_row_columns_in_order():
    stub = Path(acf.__file__).with_name("__init__.pyi")
    tree = ast.parse(stub.read_text())
    row = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Row")
    fields = [n.target.id for n in row.body if isinstance(n, ast.AnnAssign)]
    assert fields == acf.columns()
    functions = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    assert {"scan", "read_file", "columns", "known_agents", "store_names", "turn_types"} <= functions


def test_a_damaged_database_two_stores_read_is_one_row(tmp_path):
    # state-vscdb and cursor-state both read Cursor's global state.vscdb: the row that
    # says it cannot be opened is written once, and the report counts the other
    db = tmp_path / "ws9/home/u/.config/Cursor/User/globalStorage/state.vscdb"
    db.parent.mkdir(parents=True)
    db.write_bytes(b"not a database at all")
    rows = acf.scan(str(tmp_path))
    got = [(r["agent"], r["text"]) for r in rows]
    assert got == [
        ("cursor", 'parser: state.vscdb unreadable: not an SQLite database: the file starts with "not a database a"')
    ]
    assert rows.report["repeated_parser_rows"] == 1
    assert rows.summary["parser_rows"] == 1
    assert sorted(f["store"] for f in rows.files) == ["cody-history", "cursor-state", "state-vscdb", "tabby-db"]


def test_a_zipped_collection_gives_the_trees_rows(tmp_path, cli):
    # zipped by Python (DOS times only, so rows placed at a file's modification time
    # have none from the zip); every other field is the tree's, paths aside
    z = tmp_path / "collection.zip"
    import zipfile

    with zipfile.ZipFile(z, "w", zipfile.ZIP_DEFLATED) as out:
        for f in sorted(EVIDENCE.rglob("*")):
            if f.is_file():
                out.write(f, f.relative_to(EVIDENCE).as_posix())
    rows = list(acf.scan(z))
    assert rows == cli(str(z))
    tree = list(acf.scan(ROOT))
    assert len(rows) == len(tree) == 862

    def same(r, prefix, timed=True):
        r = {k: (v.replace(prefix, "ROOT") if isinstance(v, str) else v) for k, v in r.items()}
        if not timed:
            r["timestamp_utc"] = r["timestamp_zone"] = ""
        return json.dumps(r, sort_keys=True)

    # the same rows, times aside; every time the zip gives is the tree's; and the rows
    # the tree places at a file's modification time have none
    assert sorted(same(r, str(z), False) for r in rows) == sorted(same(r, ROOT, False) for r in tree)
    timed = {same(r, ROOT) for r in tree}
    assert all(same(r, str(z)) in timed for r in rows if r["timestamp_utc"])
    untimed = sum(1 for r in rows if not r["timestamp_utc"]) - sum(1 for r in tree if not r["timestamp_utc"])
    assert untimed == 110



def test_a_kape_virtual_disk_gives_the_rows_of_its_host(tmp_path, cli):
    # fixtures/disks holds the WIN-DESK03 host in a VHDX and a VHD, every file dated
    # 2026-11-30 12:00:00 UTC: the rows are the CLI's, and those of the host's tree
    # dated so, paths aside
    import os
    import shutil

    tree = tmp_path / "WIN-DESK03"
    shutil.copytree(EVIDENCE / "WIN-DESK03", tree)
    for f in tree.rglob("*"):
        if f.is_file():
            os.utime(f, (1796040000, 1796040000))
    want = [json.dumps(r, sort_keys=True).replace(json.dumps(str(tree))[1:-1], "IMAGE") for r in acf.scan(tree)]
    assert len(want) == 134
    for name in ["WIN-DESK03.vhdx", "WIN-DESK03.vhd"]:
        image = REPO / "fixtures" / "disks" / name
        rows = list(acf.scan(image))
        assert rows == cli(str(image))
        got = [json.dumps(r, sort_keys=True).replace(json.dumps(str(image))[1:-1], "IMAGE") for r in rows]
        assert got == want, name
    # a disk image of the host's system disk (its C: drive as an NTFS partition, an EFI
    # partition beside it), in one EWF segment file or seven, or raw
    want = [w.replace("IMAGE/C/", "IMAGE/") for w in want]
    for name in ["WIN-DESK03.E01", "ewf/WIN-DESK03.E01", "WIN-DESK03.dd"]:
        image = REPO / "fixtures" / "disks" / name
        rows = list(acf.scan(image))
        assert rows == cli(str(image))
        assert rows[0]["text"] == "parser: partition 1 of the virtual disk not read: it holds no NTFS volume"
        got = [json.dumps(r, sort_keys=True).replace(json.dumps(str(image))[1:-1], "IMAGE") for r in rows[1:]]
        assert got == want, name


def zipcrypto_zip(members, password):
    """A zip whose members are stored and encrypted with ZipCrypto (PKWARE's
    traditional encryption, as `zip -P` writes it); Python's zipfile reads such zips
    but does not write them."""
    import struct
    import zlib

    def crc_byte(crc, b):
        return zlib.crc32(bytes([b]), crc ^ 0xFFFFFFFF) ^ 0xFFFFFFFF

    def encrypt(data):
        k = [0x12345678, 0x23456789, 0x34567890]

        def update(c):
            k[0] = crc_byte(k[0], c)
            k[1] = ((k[1] + (k[0] & 0xFF)) * 134775813 + 1) & 0xFFFFFFFF
            k[2] = crc_byte(k[2], k[1] >> 24)

        for c in password:
            update(c)
        out = bytearray()
        for p in data:
            t = (k[2] | 2) & 0xFFFF
            out.append(p ^ (((t * (t ^ 1)) >> 8) & 0xFF))
            update(p)
        return bytes(out)

    body, central = bytearray(), bytearray()
    for name, data in members:
        crc = zlib.crc32(data)
        enc = encrypt(bytes(11) + bytes([crc >> 24]) + data)
        n = name.encode()
        fields = struct.pack("<HHHHHIIIHH", 20, 1, 0, 0, 0x21, crc, len(enc), len(data), len(n), 0)
        central += b"PK\x01\x02" + struct.pack("<H", 20) + fields + struct.pack("<HHHII", 0, 0, 0, 0, len(body)) + n
        body += b"PK\x03\x04" + fields + n + enc
    count = len(members)
    end = b"PK\x05\x06" + struct.pack("<HHHHIIH", 0, 0, count, count, len(central), len(body), 0)
    return bytes(body + central + end)


def test_a_password_protected_zip_reads_with_its_password(tmp_path):
    # stored and encrypted as `zip -P` encrypts: a parser row without the password
    # (or with a wrong one), the rows with it, and the password in no row or report
    history = (EVIDENCE / "lin-ws01/home/alice/.claude/history.jsonl").read_bytes()
    z = tmp_path / "WS5.zip"
    z.write_bytes(zipcrypto_zip([("C/Users/erin/.claude/history.jsonl", history)], b"inf3cted"))
    member = str(z / "C/Users/erin/.claude/history.jsonl")
    rows = list(acf.scan(z))
    assert [r["text"] for r in rows] == [
        f"parser: {member}: cannot read (archive member not read: unsupported Zip archive: Password required to decrypt file)"
    ]
    rows = list(acf.scan(z, archive_password=b"wrong"))
    assert [r["text"] for r in rows] == [
        f"parser: {member}: cannot read (archive member not read: provided password is incorrect)"
    ]
    scan = acf.scan(z, archive_password="inf3cted", hash_files=True)
    rows = list(scan)
    assert len(rows) == 8
    assert {(r["host"], r["user"]) for r in rows} == {("WS5", "erin")}
    assert "inf3cted" not in json.dumps(rows) + repr(scan.report)
    # several, tried in turn: the right one among them reads it
    for several in (["wrong", b"inf3cted"], ("wrong", "inf3cted")):
        assert len(list(acf.scan(z, archive_password=several))) == 8
    rows = list(acf.scan(z, archive_password=["wrong", "nor this"]))
    assert [r["text"] for r in rows] == [
        f"parser: {member}: cannot read (archive member not read: provided password is incorrect)"
    ]
    for bad in (7, ["inf3cted", 7], {"inf3cted"}):
        with pytest.raises(TypeError, match=r"archive_password: a str or bytes, or a list of them \(tried in turn\)"):
            acf.scan(z, archive_password=bad)


def test_the_size_cap_is_the_callers_to_set():
    # the fixture's Claude Code transcript of 22,528 bytes under a 2 KiB cap
    host = EVIDENCE / "lin-ws01"
    transcript = host / "home/alice/.claude/projects/-home-alice-src-api/7b1e4c2a-5d3f-4a8b-9c6e-1f2a3b4c5d6e.jsonl"
    texts = [r["text"] for r in acf.scan(host, max_file_size=2048)]
    assert f"parser: {transcript}: cannot read (23744 bytes, over the 2048-byte cap of one evidence file)" in texts
    assert sum("-byte cap of one evidence file" in t for t in texts) == 16
    assert not any("cap of one evidence file" in r["text"] for r in acf.scan(host))
    with pytest.raises(ValueError, match="max_file_size: more than 0 bytes"):
        acf.scan(host, max_file_size=0)


@pytest.mark.parametrize("mode", ["w:bz2", "w:xz"])
def test_a_compressed_tar_gives_the_trees_rows(tmp_path, mode):
    # the fixture tree copied with whole-second modification times (tarfile rounds
    # them to the second), tarred and compressed by Python's tarfile: the copy's rows,
    # field for field, paths aside
    import os
    import shutil
    import tarfile

    tree = tmp_path / "tree"
    shutil.copytree(EVIDENCE, tree)
    files = sorted(f for f in tree.rglob("*") if f.is_file())
    for f in files:
        secs = int(f.stat().st_mtime)
        os.utime(f, (secs, secs))
    t = tmp_path / f"collection.tar.{mode[2:]}"
    with tarfile.open(t, mode) as out:
        for f in files:
            out.add(f, f.relative_to(tree).as_posix())
    rows = list(acf.scan(t))
    want = list(acf.scan(tree))
    assert len(rows) == len(want) == 862

    def same(r, prefix):
        return json.dumps({k: (v.replace(prefix, "ROOT") if isinstance(v, str) else v) for k, v in r.items()}, sort_keys=True)

    assert [same(r, str(t)) for r in rows] == [same(r, str(tree)) for r in want]


def test_a_zip_in_bzip2_or_lzma_gives_the_rows_of_a_deflated_one(tmp_path):
    # Python's zipfile writes bzip2 (method 12) and LZMA (method 14, with an end
    # marker) members: the same tree zipped three ways gives the same rows, paths aside
    import zipfile

    files = sorted(f for f in EVIDENCE.rglob("*") if f.is_file())
    scanned = []
    for name, method in [("deflated", zipfile.ZIP_DEFLATED), ("bzip2", zipfile.ZIP_BZIP2), ("lzma", zipfile.ZIP_LZMA)]:
        z = tmp_path / f"{name}.zip"
        with zipfile.ZipFile(z, "w", compression=method) as out:
            for f in files:
                out.write(f, f.relative_to(EVIDENCE).as_posix())
        with zipfile.ZipFile(z) as check:
            assert {i.compress_type for i in check.infolist()} == {method}
        rows = list(acf.scan(z))
        assert not [r["text"] for r in rows if "archive member not read" in r["text"]]
        scanned.append([json.dumps({k: (v.replace(str(z), "ROOT") if isinstance(v, str) else v) for k, v in r.items()}, sort_keys=True) for r in rows])
    assert len(scanned[0]) == 862
    assert scanned[1] == scanned[0]
    assert scanned[2] == scanned[0]


def test_copies_past_the_budget_wait_in_the_temporary_folder(tmp_path):
    # 60,000 prompts of a Claude Code history, every one a copy: past 16 MiB their rows
    # wait in the system's temporary folder until the host ends, and come back in order
    claude = tmp_path / "home/ida/.claude"
    claude.mkdir(parents=True)
    with open(claude / "history.jsonl", "w") as out:
        for i in range(60_000):
            out.write(json.dumps({"display": f"prompt {i} of a long history, with words enough to make a row", "pastedContents": {}, "timestamp": 1782050400000 + i * 1000, "project": "/w/p", "sessionId": f"11111111-2222-4333-8444-{i // 20:012d}"}) + "\n")
    rows = acf.scan(tmp_path)
    texts = [r["text"] for r in rows]
    assert len(texts) == 60_000
    assert texts[0] == "prompt 0 of a long history, with words enough to make a row"
    assert texts[-1] == "prompt 59999 of a long history, with words enough to make a row"
    assert rows.report["held_bytes_spilled"] > 16 << 20
    kept = acf.scan(tmp_path, keep_copies=True)
    assert [r["text"] for r in kept] == texts
    assert kept.report["held_bytes_spilled"] == 0


def test_archives_a_walk_meets_are_read_when_they_are_collections(tmp_path):
    # a folder of collections: the one a collector named is read (the host from its
    # client_info.json); one under another name is not, and the report names it
    import zipfile

    history = (EVIDENCE / "lin-ws01/home/alice/.claude/history.jsonl").read_bytes()
    for name, info in [("Collection-WS7-2026-12-01T10_00_00Z.zip", True), ("WS9.zip", False)]:
        with zipfile.ZipFile(tmp_path / name, "w") as out:
            if info:
                out.writestr("client_info.json", '{"Hostname": "WS7.corp"}')
            out.writestr("uploads/auto/C%3A/Users/dave/.claude/history.jsonl", history)
    rows = acf.scan(tmp_path)
    hosts = {(r["host"], r["user"]) for r in rows}
    assert hosts == {("WS7.corp", "dave")}
    assert rows.report["archives_not_opened"] == [str(tmp_path / "WS9.zip")]
    # open_archives="all" reads the renamed one too (its folder names the host, WS9);
    # "none" reads neither, and names both
    rows = acf.scan(tmp_path, open_archives="all")
    hosts = {(r["host"], r["user"]) for r in rows}
    assert hosts == {("WS7.corp", "dave"), ("WS9", "dave")}
    assert rows.report["archives_not_opened"] == []
    rows = acf.scan(tmp_path, open_archives="none")
    assert list(rows) == []
    assert rows.report["archives_not_opened"] == [
        str(tmp_path / "Collection-WS7-2026-12-01T10_00_00Z.zip"),
        str(tmp_path / "WS9.zip"),
    ]
    with pytest.raises(ValueError, match=r'open_archives: archives to open: "some" is none of collections, all, none'):
        acf.scan(tmp_path, open_archives="some")
