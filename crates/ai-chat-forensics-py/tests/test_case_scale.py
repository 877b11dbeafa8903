"""The case-scale path: --output-dir per host, then examples/case_to_parquet.py."""

import subprocess
import sys
from collections import Counter

import duckdb

from conftest import REPO, cli_binary


def test_per_host_jsonl_to_partitioned_parquet(tmp_path, cli):
    rows = cli("fixtures/evidence")
    out = tmp_path / "rows"
    subprocess.run(
        [str(cli_binary()), "fixtures/evidence", "--output-dir", str(out), "--no-progress"],
        cwd=REPO, check=True, capture_output=True,
    )
    hosts = {r["host"] for r in rows}
    assert hosts == {"lin-ws01", "mac-lt02", "WIN-DESK03", "tabby-srv"}
    assert sorted(p.name for p in out.glob("*.jsonl")) == sorted(f"{h}.jsonl" for h in hosts)

    parquet = tmp_path / "parquet"
    done = subprocess.run(
        [sys.executable, str(REPO / "examples" / "case_to_parquet.py"), str(out), str(parquet)],
        check=True, capture_output=True, text=True,
    )
    expected = Counter((r["host"], r["agent"]) for r in rows)
    printed = Counter()
    for line in done.stdout.splitlines():
        host, agent, n = line.split("\t")
        printed[(host, agent)] = int(n)
    assert printed == expected

    # partitioned by host and agent, hive style, every row back with its columns
    parts = {p.relative_to(parquet).parts[:2] for p in parquet.rglob("*.parquet")}
    assert parts == {(f"host={h}", f"agent={a}") for h, a in expected}
    con = duckdb.connect()
    table = f"read_parquet('{parquet}/**/*.parquet', hive_partitioning = true)"
    assert con.execute(f"SELECT count(*) FROM {table}").fetchone()[0] == len(rows)
    assert con.execute(f"SELECT count(*) FROM {table} WHERE host IS NULL OR host = ''").fetchone()[0] == 0
    got = Counter(dict(((h, a), n) for h, a, n in con.execute(
        f"SELECT host, agent, count(*) FROM {table} GROUP BY ALL").fetchall()))
    assert got == expected
    # text survives byte for byte; the typed time is there where the zone is known
    texts = Counter(r["text"] for r in rows)
    assert Counter(t for (t,) in con.execute(f"SELECT text FROM {table}").fetchall()) == texts
    timed = sum(1 for r in rows if r["timestamp_zone"] == "utc")
    assert con.execute(f"SELECT count(time_utc) FROM {table}").fetchone()[0] == timed
