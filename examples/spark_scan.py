#!/usr/bin/env python3
"""A case at scale with Spark: one task per host folder, each scanned with the Python package.

    spark-submit examples/spark_scan.py /cases/117/collection /cases/117/parquet

The driver lists the host folders of a collection (each child folder of the root, as
a KAPE or Velociraptor collection lays hosts out), Spark distributes them over the
executors, and each task scans its host with `ai_chat_forensics.scan(host_folder,
host=<folder name>)`: the package streams the rows, so a task holds one row at a time,
not its host. The rows are written as Parquet partitioned by host and agent, the same
layout as examples/case_to_parquet.py (`host=<host>/agent=<agent>/`).

Every executor needs the `ai-chat-forensics` wheel installed and the collection on a
path it can read (a shared mount). Prints the rows per host.
"""

import sys
from pathlib import Path

from pyspark.sql import SparkSession
from pyspark.sql.types import BooleanType, LongType, StringType, StructField, StructType

# the row model's columns (Row::columns()), in order
SCHEMA = StructType(
    [StructField(c, StringType(), False) for c in (
        "timestamp_utc", "timestamp_zone", "host", "user", "agent", "session_id",
        "project_path", "git_branch", "turn_type", "model", "tool_name", "tool_use_id",
        "text", "source_file")]
    + [StructField("source_line", LongType(), True),
       StructField("source_locator", StringType(), False),
       StructField("record_state", StringType(), False),
       StructField("secondary", BooleanType(), False)]
)
COLUMNS = [f.name for f in SCHEMA.fields]


def scan_host(folder: str):
    """One host folder's rows, as tuples in column order (runs on an executor)."""
    import ai_chat_forensics as acf

    host = Path(folder).name
    for row in acf.scan(folder, host=host, threads=1):
        yield tuple(row[c] for c in COLUMNS)


def host_folders(root: Path) -> list:
    return sorted(str(p) for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))


def run(spark: SparkSession, root: Path, out: Path) -> dict:
    hosts = host_folders(root)
    # the executors import scan_host from this file
    spark.sparkContext.addPyFile(__file__)
    rdd = spark.sparkContext.parallelize(hosts, numSlices=max(1, len(hosts))).flatMap(scan_host)
    df = spark.createDataFrame(rdd, SCHEMA)
    df.write.mode("overwrite").partitionBy("host", "agent").parquet(str(out))
    back = spark.read.parquet(str(out))
    return {r["host"]: r["count"] for r in back.groupBy("host").count().collect()}


def main() -> None:
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    spark = SparkSession.builder.appName("ai-chat-forensics").getOrCreate()
    counts = run(spark, Path(sys.argv[1]), Path(sys.argv[2]))
    for host in sorted(counts):
        print(f"{host}\t{counts[host]}")
    spark.stop()


if __name__ == "__main__":
    main()
