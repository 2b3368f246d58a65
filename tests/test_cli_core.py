"""The core commands through the real entry point (`run_app`): output, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import bibtexparser
import pytest

ROOT = Path(__file__).resolve().parent.parent
FIX = Path(__file__).parent / "fixtures" / "sources"
SAMPLE = ROOT / "examples" / "iclr2026_sample_list.txt"


def test_add_sample_then_stats_ls_show(cli):
    code, out, _ = cli("add", SAMPLE, "--list", "sample", "--no-enrich")
    assert code == 0
    assert "added 19, merged 0" in out
    code, out, _ = cli("stats")
    assert code == 0 and "sample" in out and "19" in out
    code, out, _ = cli("ls", "--limit", "5")
    assert code == 0 and out.count("\n│ h") == 5 and "first 5" in out
    code, out, _ = cli("lists")
    assert "sample" in out and "19" in out
    first_id = json.loads(cli("export", "--format", "jsonl")[1].splitlines()[0])["id"]
    code, out, _ = cli("show", first_id[:6])
    assert code == 0 and "Large Language Models (LLMs) increasingly use persistent memory" in out
    assert "sample" in out


def test_add_twice_and_merge_counts(cli):
    cli("add", FIX / "iclr_mini.jsonl", "--no-enrich")
    code, out, _ = cli("add", FIX / "copied_list.txt", FIX / "iclr_mini.jsonl", "--no-enrich")
    assert code == 0
    assert "list 'copied_list': added 1, merged 3 (1 near-duplicates)" in out
    assert "list 'iclr_mini': added 0, merged 0, unchanged 4" in out


def test_show_renders_fields_lists_and_facts(cli):
    cli("add", FIX / "iclr_mini.jsonl", "--no-enrich")
    from paperatlas.store import Store

    store = Store(cli.db)
    store.facts.set(
        "GmX7qQ1abc",
        {
            "name": "GraphMixer",
            "kind": "method",
            "numbers": [{"text": "3x", "value": 3, "unit": "x", "what": "faster"}],
            "predicted_area": {
                "label": "graphs",
                "prob": 0.91,
                "top3": [["graphs", 0.91], ["optimization", 0.05]],
            },
        },
        "h",
        "v",
    )
    store.close()
    code, out, _ = cli("show", "GmX7")
    assert code == 0
    for text in (
        "GraphMixer: Simple Temporal Graph Learning",
        "iclr_mini",
        "Accept (Poster)",
        "temporal graphs; MLP",
        "tldr",
        "MLPs suffice",
        "name",
        "GraphMixer",
        "3x faster",
        "graphs 91%",
        "optimization 5%",
    ):
        assert text in out, text


def test_ls_filters(cli):
    cli("add", FIX / "iclr_mini.jsonl", "--no-enrich")
    _, out, _ = cli("ls", "--decision", "Accept")
    assert "GmX7qQ1abc" in out and "Dif_2-xYzq" in out and "RLexp00001" not in out
    _, out, _ = cli("ls", "--area", "reinforcement learning")
    assert "RLexp00001" in out and "GmX7qQ1abc" not in out
    _, out, _ = cli("ls", "--text", "membership inference")
    assert "MemInf0001" in out and "1 paper" in out and "1 papers" not in out


@pytest.mark.parametrize(
    "args, message",
    [
        (("show", "zzzz"), "no paper with id 'zzzz'"),
        (("ls", "--list", "nope"), "no list named 'nope'"),
        (("stats", "--list", "nope"), "no list named 'nope'"),
        (("export", "--format", "docx"), "unknown format 'docx'"),
    ],
)
def test_wrong_ids_lists_formats_exit_2(cli, args, message):
    cli("add", FIX / "iclr_mini.jsonl", "--no-enrich")
    code, _, err = cli(*args)
    assert code == 2 and message in err


@pytest.mark.parametrize(
    "name, where",
    [
        ("malformed.jsonl", "malformed.jsonl:3: malformed JSON"),
        ("binary.bin", "binary.bin: is a binary file"),
        ("empty.txt", "empty.txt: is empty"),
        ("invalid_utf8.txt", "invalid_utf8.txt:5: is not valid UTF-8"),
        ("nope.txt", "nope.txt: no such file"),
    ],
)
def test_bad_files_exit_2_and_store_nothing(cli, name, where):
    code, out, err = cli("add", FIX / name, "--no-enrich")
    assert code == 2
    assert where in err and len(err.strip().splitlines()) == 1  # one line, not wrapped
    assert "Traceback" not in err
    code, out, _ = cli("lists")
    assert "malformed" not in out and "binary" not in out


def test_export_to_stdout_and_file(cli, tmp_path):
    cli("add", FIX / "iclr_mini.jsonl", "--no-enrich")
    code, out, _ = cli("export", "--format", "bibtex", "--list", "iclr_mini")
    assert code == 0
    library = bibtexparser.parse_string(out)
    assert not library.failed_blocks and len(library.entries) == 4
    target = tmp_path / "out.md"
    code, _, err = cli("export", "--format", "markdown", "-o", target)
    assert code == 0 and "exported 4 papers" in err
    assert target.read_text(encoding="utf-8").startswith("## GraphMixer")


def test_abstract_markup_is_printed_literally(cli, tmp_path):
    path = tmp_path / "markup.txt"
    path.write_text(
        "A [bold red]markup[/] abstract that rich must not interpret, with enough words "
        "to be a paragraph of its own in a list.\n",
        encoding="utf-8",
    )
    cli("add", path, "--no-enrich")
    _, out, _ = cli("ls")
    assert "[bold red]markup[/]" in out
