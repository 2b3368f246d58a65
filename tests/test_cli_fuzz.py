"""Random command lines (hypothesis): whatever a user types, the CLI answers with output,
a one-line error or typer's usage message, exit 0, 1 or 2, never a traceback."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paperatlas import Atlas

FIX = Path(__file__).parent / "fixtures" / "sources"
# Commands that answer at once (serve blocks, map/embed/train-areas run models for long).
COMMANDS = [
    "stats",
    "ls",
    "show",
    "search",
    "similar",
    "export",
    "lists",
    "collections",
    "like",
    "dislike",
    "unlike",
    "recommend",
    "digest",
    "compare",
    "add",
    "enrich",
    "serch",
    "lst",
    "",
]
OPTIONS = [
    "--list",
    "-l",
    "--limit",
    "--k",
    "-k",
    "--offset",
    "--format",
    "-f",
    "--text",
    "--kind",
    "--area",
    "--decision",
    "--has-code",
    "--no-code",
    "--into",
    "--from",
    "--collection",
    "--query",
    "-q",
    "--top",
    "--lang",
    "--nope",
    "--",
    "-",
    "--help",
]
VALUES = [
    "GmX7qQ1abc",
    "Gm",
    "iclr_mini",
    "0",
    "-1",
    "99999999999999999999999",
    "abc",
    "",
    "md",
    "html",
    "csv",
    "bibtex",
    "zh",
    "method",
    "graph learning",
    "\u5927\u6a21\u578b",
    "[bold]x[/bold]",
    "' OR 1=1 --",
    'a"b',
    "NEAR(",
    "*",
    str(FIX / "iclr_mini.jsonl"),
    str(FIX / "binary.bin"),
    str(FIX / "nope.txt"),
]

argv = st.tuples(
    st.sampled_from(COMMANDS),
    st.lists(st.one_of(st.sampled_from(OPTIONS), st.sampled_from(VALUES), st.text(max_size=12)), max_size=5),
)


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("fuzz") / "atlas.db"
    atlas = Atlas(db)
    atlas.add(FIX / "iclr_mini.jsonl", list_name="iclr_mini")
    atlas.close()
    return db


@pytest.mark.slow  # property test: hundreds of generated inputs
@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(args=argv)
def test_any_command_line_ends_cleanly(args, template, cli):
    shutil.copy(template, cli.db)  # each example starts from the same atlas
    command, rest = args
    words = ([command] if command else []) + [w for w in rest if "\x00" not in w]
    code, out, err = cli(*words)
    assert code in (0, 1, 2), (words, code, err)
    assert "Traceback" not in err + out, (words, err)
    if code == 2 and "Usage:" not in err:  # one line per failure (add: per file)
        lines = err.strip().splitlines()
        assert lines and all(ln.startswith(("error:", "warning:")) for ln in lines), (words, err)
