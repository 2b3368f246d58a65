"""Comments and docstrings in src/ say why the code is as it is, never when it became so.

A comment that cites a work session ("stop 16"), an issue ("before issue 18") or another
branch ("i39's") tells a reader about the project's history, which lives in git and in
docs/benchmarks.md; the reason itself belongs in the comment. The scan reads each module with
`tokenize`, so only comments and statement-level strings (docstrings) count, never code or
the text the program prints.
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src" / "paperatlas"

HISTORY = re.compile(r"\b(?:stop|issue)\s+\d+|\bi\d{2,}'s\b", re.IGNORECASE)

# Tokens after which a string token starts a statement (a docstring or a bare string).
_STATEMENT_START = {tokenize.NEWLINE, tokenize.NL, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING}


def prose(source: str) -> list[tuple[int, str]]:
    """(line, text) of every comment and statement-level string of a module's source."""
    found = []
    previous = tokenize.ENCODING
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    for i, tok in enumerate(tokens):
        if tok.type == tokenize.COMMENT:
            found.append((tok.start[0], tok.string))
        elif tok.type == tokenize.STRING and previous in _STATEMENT_START:
            after = tokens[i + 1].type if i + 1 < len(tokens) else tokenize.ENDMARKER
            if after in (tokenize.NEWLINE, tokenize.ENDMARKER, tokenize.COMMENT):
                found.append((tok.start[0], tok.string))
        if tok.type not in (tokenize.COMMENT, tokenize.NL):
            previous = tok.type
    return found


def history_notes(source: str) -> list[tuple[int, str]]:
    """(line, the words matched) of each comment or docstring that cites the project's history."""
    return [
        (line + text.count("\n", 0, m.start()), m.group(0))
        for line, text in prose(source)
        for m in HISTORY.finditer(text)
    ]


def test_scan_reads_comments_and_docstrings_but_not_code():
    source = (
        '"""Module text, before issue 18."""\n'
        "X = 1  # chosen at stop 16\n"
        "\n"
        "def f():\n"
        '    """Nothing here."""\n'
        "    # i39's reader\n"
        '    return "issue 3 is a string the program uses"\n'
    )
    assert history_notes(source) == [(1, "issue 18"), (2, "stop 16"), (6, "i39's")]


def test_no_comment_cites_the_projects_history():
    found = [
        f"{path.relative_to(SRC.parent.parent)}:{line}: {words!r}"
        for path in sorted(SRC.rglob("*.py"))
        for line, words in history_notes(path.read_text(encoding="utf-8"))
    ]
    assert not found, "history in comments (say the reason instead):\n" + "\n".join(found)
