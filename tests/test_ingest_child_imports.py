"""The process that reads a file for `add` (ingest/prepare.py) starts on what reading needs:
what only the writing side uses is imported where it is used."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from paperatlas.ingest import unchanged


@pytest.mark.slow  # a fresh interpreter, to see what an import loads
def test_the_reading_child_does_not_load_package_metadata():
    code = (
        "import sys\n"
        "from paperatlas.ingest.prepare import child\n"
        "print(sorted(m for m in ('importlib.metadata', 'email', 'zipfile') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout == "[]\n"


def test_a_fingerprint_still_names_the_code_that_read_the_file(tmp_path: Path):
    from importlib import metadata

    path = tmp_path / "list.jsonl"
    path.write_text('{"title": "A", "abstract": "B"}\n', encoding="utf-8")
    seen = unchanged.fingerprint(path, "h3")
    assert seen is not None
    assert seen.reading == f"{metadata.version('paperatlas')}|h3"
