"""Forensic (DFIR) parsers for the local stores of AI coding assistants.

``scan(root, ...)`` walks evidence roots (a home, a folder of homes, a KAPE or
Velociraptor collection of hosts) and yields one dict per row, as the rows are read;
``read_file(path, ...)`` reads one file. Each dict has the columns of the CLI's JSONL
output, in order (``columns()``), with the same values. The evidence is never changed.
"""

from ._native import (  # noqa: F401
    Rows,
    ScanError,
    __version__,
    columns,
    known_agents,
    read_file,
    scan,
    store_names,
    turn_types,
)

__all__ = [
    "Rows",
    "ScanError",
    "__version__",
    "columns",
    "known_agents",
    "read_file",
    "scan",
    "store_names",
    "turn_types",
]
