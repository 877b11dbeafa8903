"""Shared helpers: the repository, the fixtures, and the CLI to compare with."""

import json
import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
EVIDENCE = REPO / "fixtures" / "evidence"


def cli_binary() -> Path:
    """The CLI: $AI_CHAT_FORENSICS_BIN, or the workspace's debug build (built if absent)."""
    given = os.environ.get("AI_CHAT_FORENSICS_BIN")
    if given:
        return Path(given)
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    # built from the same sources as the module under test (a no-op after `cargo test`)
    subprocess.run(["cargo", "build", "-q", "--bin", "ai-chat-forensics"], cwd=REPO, check=True)
    return target / "debug" / "ai-chat-forensics"


@pytest.fixture(scope="session")
def cli():
    binary = cli_binary()

    def run(*args: str, cwd: Path = REPO) -> list:
        out = subprocess.run(
            [str(binary), *args, "--no-progress"], cwd=cwd, check=True, capture_output=True
        ).stdout
        return [json.loads(line) for line in out.decode("utf-8").splitlines()]

    return run
