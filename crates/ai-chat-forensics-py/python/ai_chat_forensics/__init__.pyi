"""Type stubs of ai_chat_forensics (the native module is ai_chat_forensics._native)."""

import datetime
import os
from typing import BinaryIO, Iterator, List, Literal, Mapping, Optional, Sequence, TypedDict, Union

__version__: str

StrPath = Union[str, "os.PathLike[str]"]
TimeArg = Union[datetime.datetime, datetime.date, int, str]

class Row(TypedDict):
    """One row: the CLI's JSONL fields, in this order, with the same values."""

    timestamp_utc: str  # "2026-10-03T10:00:00.000000Z"; "" without a time; no "Z" when the zone is unknown
    timestamp_zone: Literal["utc", "unknown", ""]
    host: str
    user: str
    agent: str
    session_id: str
    project_path: str
    git_branch: str
    turn_type: Literal["user", "assistant", "system", "tool_use", "tool_result", "thinking"]
    model: str
    tool_name: str
    tool_use_id: str
    text: str
    source_file: str
    source_line: Optional[int]
    source_locator: str
    record_state: Literal["live", "deleted", "recovered", "secondary"]
    secondary: bool

class FileRead(TypedDict):
    path: str
    store: str
    kind: str
    rows: int
    parser_rows: int
    panicked: bool

class Problem(TypedDict):
    path: str
    problem: str

class ManifestEntry(TypedDict):
    path: str
    link_target: Optional[str]
    size: int
    mtime_utc: str
    sha256: str  # "" unless hash_files=True
    access_time_kept: bool  # opened with O_NOATIME (Linux, owner or root)

class Summary(TypedDict):
    rows: int
    parser_rows: int
    untimed_rows: int
    rows_per_turn_type: dict[str, int]
    files_per_store: dict[str, int]

class Report(TypedDict):
    files: List[FileRead]
    problems: List[Problem]
    overlapping_roots: List[str]
    archives_not_opened: List[str]
    filtered_by_time: int
    untimed_filtered: int
    filtered_by_agent: int
    merged_copies: int
    held_bytes_spilled: int
    panics: int
    repeated_parser_rows: int
    manifest: List[ManifestEntry]
    files_access_time_not_kept: int
    folders_access_time_not_kept: int
    summary: Summary

class ScanError(Exception):
    """A root that does not exist or cannot be listed, worker threads that could not
    start, or a read that failed as a whole. Damage inside a file is never an error:
    it is a ``parser:`` row."""

class Rows(Iterator[Row]):
    """The rows of a scan, as they are read (the scan runs on a background thread).

    ``report``, ``files`` and ``summary`` are None until the iterator is exhausted or
    closed. Closing it (``close()``, ``with``, or dropping it) stops the scan."""

    def __iter__(self) -> "Rows": ...
    def __next__(self) -> Row: ...
    def close(self) -> None: ...
    def __enter__(self) -> "Rows": ...
    def __exit__(self, exc_type: object, exc: object, tb: object) -> bool: ...
    @property
    def done(self) -> bool: ...
    @property
    def report(self) -> Optional[Report]: ...
    @property
    def files(self) -> Optional[List[FileRead]]: ...
    @property
    def summary(self) -> Optional[Summary]: ...

def scan(
    root: Union[StrPath, Sequence[StrPath]],
    *,
    agents: Union[str, Sequence[str], None] = None,
    since: Optional[TimeArg] = None,
    until: Optional[TimeArg] = None,
    keep_copies: bool = False,
    host: Optional[str] = None,
    host_zone: Optional[str] = None,
    threads: int = 0,
    hash_files: bool = False,
    open_archives: Literal["collections", "all", "none"] = "collections",
    archive_password: Union[str, bytes, Sequence[Union[str, bytes]], None] = None,
    max_file_size: Optional[int] = None,
) -> Rows:
    """Scan evidence roots; yield one dict per row in the CLI's order.

    A root is a home, a folder of homes or a collection tree, on disk or archived: a
    ``*.zip``, ``*.7z``, ``*.rar``, ``*.tar``, ``*.tar.gz``, ``*.tgz``, ``*.tar.bz2``, ``*.tar.xz`` or
    ``*.tar.zst`` file is read as the folder of its
    members (nothing extracted; its members' rows name ``<archive path>/<member name>``).

    agents: keep only these agents' rows (``known_agents()``; an unknown one is a
    ValueError). since/until: a datetime (naive is UTC), a date, epoch milliseconds, or
    text as the CLI takes it; a bare date in ``until`` is the end of that day; rows
    without a time are left out when either is given. keep_copies: keep secondary
    copies of primary rows. host: the host of every file under the roots (a job that
    hands one host's folder to each task); without it the layout names it.
    host_zone: ``+02:00``, to convert zone-less local times. threads: 0 for one per
    core. hash_files: SHA-256 of every file read in ``report["manifest"]``.
    open_archives: which archives met under a root are read as folders:
    ``"collections"`` (named by UAC or Velociraptor, or at the top of an opened
    archive), ``"all"`` (every one, a user's own zips too) or ``"none"`` (only archives
    given as roots); any other value is a ValueError. Those not opened are listed in
    ``report["archives_not_opened"]``. archive_password: the password of encrypted
    zip members, 7z blocks and RAR members or headers (ZipCrypto or AES), or a list of passwords tried in turn
    on each; without the right one each such member a store would read is a
    ``parser:`` row; none is in any row or report. max_file_size: the size cap of one
    evidence file, archive member or decompressed archive in bytes (default 4 GiB);
    a larger one is a ``parser:`` row.
    """

def read_file(
    source: Union[StrPath, BinaryIO, bytes, bytearray],
    *,
    name: Optional[StrPath] = None,
    companions: Optional[Mapping[StrPath, Union[BinaryIO, bytes, bytearray]]] = None,
    store: Optional[str] = None,
    root: Optional[StrPath] = None,
    host: Optional[str] = None,
    host_zone: Optional[str] = None,
    hash_files: bool = False,
) -> Rows:
    """Read one file with every store that claims it by its path, or with ``store``
    (``store_names()``). ``root``: the evidence root it lies under (default: its
    folder), for the host and user the layout names and for companion files.

    ``source`` is a path, or a file object opened in binary mode (a zip member, an
    ``io.BytesIO``) or bytes, read whole into memory. Then ``name`` is the path the
    file stood at in the evidence (default: the object's own ``name``), which tells
    its store and is the rows' ``source_file``, and ``companions`` maps the paths of
    the files a store reads beside it (``"<name>-wal"``) to their objects or bytes.
    Nothing else is looked for on disk. An open file's modification time is taken
    from ``os.fstat``; other objects have none (rows placed at a file's modification
    time then have no time)."""

def columns() -> List[str]: ...
def known_agents() -> List[str]: ...
def store_names() -> List[str]: ...
def turn_types() -> List[str]: ...
