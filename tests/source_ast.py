"""The package's own modules as syntax trees, for the tests that check the source itself."""

from __future__ import annotations

import ast
import functools
from pathlib import Path


@functools.cache  # several checks read the same modules: each is parsed once a run
def parse(path: Path) -> ast.Module:
    """ast.parse, again if CPython 3.11's AST builder trips on another thread's parse: its depth
    counter is one per interpreter, and a server thread an earlier test left (formatting a
    traceback parses the failing line) can run between ("AST constructor recursion depth
    mismatch", seen in CI). The text is the same, so a second parse is the answer."""
    text = path.read_text(encoding="utf-8")
    for attempt in range(3):
        try:
            return ast.parse(text, filename=str(path))
        except SystemError:
            if attempt == 2:
                raise
    raise AssertionError("unreachable")
