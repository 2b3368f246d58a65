"""What the page-CPU benchmarks share: a private copy of an atlas, and a child process
(one tree's code on its path) whose last line of output is its JSON result."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path


def backup_copy(db: Path, into: Path) -> Path:
    """A copy of `db` made with SQLite's backup (the source opened read-only, never changed)."""
    copy = into / "atlas.db"
    source, target = sqlite3.connect(f"file:{db}?mode=ro", uri=True), sqlite3.connect(copy)
    source.backup(target)
    source.close()
    target.close()
    return copy


def child_json(code: str, *args: str, src: Path) -> dict:
    """Run `code` in a fresh interpreter with `args`; the JSON of its last line. A failure
    stops the benchmark, naming the tree."""
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"{src}: the pages could not be rendered:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])
