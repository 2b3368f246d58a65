"""Commands that reach the library only through `Atlas` methods made for them: embed
--force, models, map --html, reference ls, dislike / collections, compare's tables, stats
per area and decision. Output and exit codes through the real entry point."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

FIX = Path(__file__).parent / "fixtures"


def _ids(cli, list_name: str, n: int) -> list[str]:
    code, out, _ = cli("ls", "--list", list_name, "--limit", str(n))
    assert code == 0
    return re.findall(r"^│ (\S+)", out, flags=re.M)[:n]


def test_embed_force_recomputes_and_models_marks_the_default(cli):
    assert cli("add", FIX / "atlas" / "papers.jsonl", "--list", "fix", "--no-enrich")[0] == 0
    code, out, _ = cli("embed", "--model", "lsa")
    n = int(re.search(r"of (\d+) papers", out).group(1))
    assert code == 0 and f"lsa: embedded {n}, unchanged 0 of {n} papers" in out
    assert f"lsa: embedded 0, unchanged {n} of {n}" in cli("embed", "--model", "lsa")[1]
    assert f"lsa: embedded {n}, unchanged 0 of {n}" in cli("embed", "--model", "lsa", "--force")[1]
    code, _, err = cli("embed", "--model", "nope")
    assert code == 2 and "unknown model 'nope'" in err and "static" in err
    code, out, _ = cli("models", use_db=False)
    assert code == 0 and re.search(r"static \(default, search\)", out) and "lsa" in out


@pytest.mark.slow  # builds an atlas with its map (UMAP) in the test
def test_map_html_and_reference_ls(cli, tmp_path):
    cli("add", FIX / "atlas" / "papers.jsonl", "--list", "fix", "--no-enrich")
    cli("embed", "--model", "lsa")
    page = tmp_path / "map.html"
    code, out, _ = cli("map", "--model", "lsa", "--topics", "3", "--html", page)
    assert code == 0 and "built" in out and f"wrote {page}" in out
    assert page.read_text(encoding="utf-8").lstrip().lower().startswith("<!doctype html")
    code, out, _ = cli("map", "--model", "lsa", "--topics", "3")
    assert code == 0 and "unchanged, reused" in out
    code, out, _ = cli("reference", "ls")
    assert code == 0 and re.search(r"^\* iclr2026: .*papers, \d+ broad / \d+ fine topics", out, flags=re.M)


def test_dislike_unlike_and_collections(cli):
    cli("add", FIX / "atlas" / "papers.jsonl", "--list", "fix", "--no-enrich")
    first, second, third = _ids(cli, "fix", 3)
    assert cli("collections")[2].startswith("no collections yet")
    cli("like", first, second, "--into", "mine")
    code, _, err = cli("dislike", third, "--into", "mine")
    assert code == 0 and f"disliked 1 paper in 'mine': {third}" in err
    code, out, _ = cli("collections")
    assert code == 0 and re.search(r"mine\s*│\s*2\s*│\s*1", out)
    code, _, err = cli("unlike", third, "--from", "mine")
    assert f"removed 1 mark from 'mine': {third}" in err
    assert re.search(r"mine\s*│\s*2\s*│\s*0", cli("collections")[1])


def test_compare_tables_and_stats_by_area(cli):
    for year in ("2025", "2026"):
        cli("add", FIX / "collections" / f"list_{year}.jsonl", "--list", f"y{year}", "--no-enrich")
    cli("embed", "--model", "lsa")
    code, out, _ = cli("compare", "y2025", "y2026", "--top", "3")
    assert code == 0
    for title in ("share by area: y2025", "share by topic", "biggest risers and fallers", "new in y2026"):
        assert title in out
    assert re.search(r"[+-]\d+\.\d", out)  # the change column
    code, out, _ = cli("stats", "--list", "y2025")
    assert code == 0 and "y2025: by area" in out and "y2025: by decision" in out


def test_a_file_name_with_a_line_break_stays_on_its_error_line(cli, tmp_path):
    named = tmp_path / "two\nlines.txt"  # found by the fuzz test: the error split in two
    code, _, err = cli("add", named)
    assert code == 2
    assert err.strip().splitlines() == [
        f"error: {tmp_path}/two\\nlines.txt: no such file (nothing from this file was stored)"
    ]
