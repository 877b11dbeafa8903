#!/usr/bin/env python3
"""A case at scale: the per-host JSONL of `ai-chat-forensics --output-dir` to Parquet.

    ai-chat-forensics /cases/117/collection --output-dir /cases/117/rows
    python3 examples/case_to_parquet.py /cases/117/rows /cases/117/parquet

DuckDB reads every `<host>.jsonl` of the folder (the Timesketch files,
`*.timesketch.jsonl`, are left alone) with the row model's columns and types, and
writes Parquet partitioned by host and agent (`host=<host>/agent=<agent>/*.parquet`,
hive style), which Spark, DuckDB, Trino, Athena or pandas read as one table. Rows whose
host is unknown go under `host=_no-host`, as their JSONL file is named. `time_utc` is
the row's time as a TIMESTAMPTZ where the zone is known (NULL without a time or with
an unknown zone; `timestamp_utc` keeps the text either way).

Needs `pip install duckdb`. Prints the rows per host and agent.
"""

import sys
from pathlib import Path

import duckdb

# the row model's columns (Row::columns()), in order, with their types
COLUMNS = {
    "timestamp_utc": "VARCHAR",
    "timestamp_zone": "VARCHAR",
    "host": "VARCHAR",
    "user": "VARCHAR",
    "agent": "VARCHAR",
    "session_id": "VARCHAR",
    "project_path": "VARCHAR",
    "git_branch": "VARCHAR",
    "turn_type": "VARCHAR",
    "model": "VARCHAR",
    "tool_name": "VARCHAR",
    "tool_use_id": "VARCHAR",
    "text": "VARCHAR",
    "source_file": "VARCHAR",
    "source_line": "UBIGINT",
    "source_locator": "VARCHAR",
    "record_state": "VARCHAR",
    "secondary": "BOOLEAN",
}


def convert(jsonl_dir: Path, out_dir: Path) -> list:
    files = sorted(p for p in jsonl_dir.glob("*.jsonl") if not p.name.endswith(".timesketch.jsonl"))
    if not files:
        raise SystemExit(f"no <host>.jsonl file in {jsonl_dir} (write them with --output-dir)")
    con = duckdb.connect()
    columns = ", ".join(f"'{k}': '{v}'" for k, v in COLUMNS.items())
    file_list = ", ".join("'" + str(p).replace("'", "''") + "'" for p in files)
    con.execute(
        f"""
        CREATE VIEW rows AS
        SELECT * REPLACE (CASE WHEN host = '' THEN '_no-host' ELSE host END AS host),
               CASE WHEN timestamp_zone = 'utc' THEN CAST(timestamp_utc AS TIMESTAMPTZ) END AS time_utc
        FROM read_json([{file_list}], format = 'newline_delimited', columns = {{{columns}}})
        """
    )
    target = str(out_dir).replace("'", "''")
    con.execute(
        f"COPY rows TO '{target}' (FORMAT parquet, PARTITION_BY (host, agent), OVERWRITE_OR_IGNORE true)"
    )
    return con.execute(
        "SELECT host, agent, count(*) FROM rows GROUP BY host, agent ORDER BY host, agent"
    ).fetchall()


def main() -> None:
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    counts = convert(Path(sys.argv[1]), Path(sys.argv[2]))
    for host, agent, n in counts:
        print(f"{host}\t{agent}\t{n}")
    print(f"{sum(n for _, _, n in counts)} rows in {len(counts)} partitions", file=sys.stderr)


if __name__ == "__main__":
    main()
