"""Exports carry what a person keeps (notes and tags), and each parses with the library
people read it with: BibTeX (bibtexparser), RIS (rispy), CSL-JSON (citeproc-py, which
renders a bibliography from it), the Markdown folder's front matter (PyYAML)."""

from __future__ import annotations

import json
from pathlib import Path

import bibtexparser
import pytest
import rispy
import yaml

from paperatlas import Atlas

MINI = Path(__file__).parent / "fixtures" / "sources" / "iclr_mini.jsonl"
CSL_STYLE = Path(__file__).parent / "fixtures" / "csl" / "author-title-year.csl"
PAPER = "GmX7qQ1abc"
NOTE = "Key idea: *mix* recent edges.\n\nSee {braces}, \\commands, 100% & $x$; <script>x</script>\n- item"


@pytest.fixture
def atlas(tmp_path):
    with Atlas(tmp_path / "atlas.db") as a:
        a.add([MINI], enrich=False)
        a.tag([PAPER], ["temporal-graphs", "to-read", "MLP"])  # MLP: also one of its keywords
        a.set_note(PAPER, NOTE)
        a.set_state([PAPER], "saved")
        yield a


def _export(atlas, fmt: str, tmp_path: Path) -> str:
    out = tmp_path / f"out.{fmt}"
    assert atlas.export(fmt, out) == 4
    return out.read_text(encoding="utf-8")


def test_bibtex_carries_tags_as_keywords_and_the_note(atlas, tmp_path):
    library = bibtexparser.parse_string(_export(atlas, "bibtex", tmp_path))
    assert not library.failed_blocks
    entry = {e.key: e for e in library.entries}[PAPER]
    assert entry["keywords"] == "temporal graphs, MLP, temporal-graphs, to-read"
    note = entry["note"]
    assert note.startswith("Accept (Poster); Key idea") and "\\commands" not in note
    assert "<script>x</script>" in note  # plain text, as a note field holds it


def test_ris_carries_kw_and_n1(atlas, tmp_path):
    records = rispy.loads(_export(atlas, "ris", tmp_path))
    assert len(records) == 4
    record = next(r for r in records if r.get("id") == PAPER)
    assert record["type_of_reference"] == "CPAPER"
    assert record["keywords"] == ["temporal graphs", "MLP", "temporal-graphs", "to-read"]
    assert record["notes"][0] == "Accept (Poster)"
    assert record["notes"][1].startswith("Key idea: *mix* recent edges. ¶ See {braces}")
    assert record["urls"] == [f"https://openreview.net/forum?id={PAPER}"]


def test_csl_json_carries_keyword_and_note_and_renders(atlas, tmp_path):
    from citeproc import Citation, CitationItem, CitationStylesBibliography, CitationStylesStyle, formatter
    from citeproc.source.json import CiteProcJSON

    items = json.loads(_export(atlas, "csl-json", tmp_path))
    item = next(i for i in items if i["id"] == PAPER)
    assert item["keyword"] == "temporal graphs, MLP, temporal-graphs, to-read"
    assert item["note"] == "Accept (Poster)\n\n" + NOTE
    assert item["type"] == "paper-conference" and item["issued"] == {"date-parts": [[2026]]}
    source = CiteProcJSON(items)
    style = CitationStylesStyle(str(CSL_STYLE), validate=False)
    bibliography = CitationStylesBibliography(style, source, formatter.plain)
    bibliography.register(Citation([CitationItem(PAPER.lower())]))
    rendered = [str(line) for line in bibliography.bibliography()]
    assert len(rendered) == 1 and "GraphMixer: Simple Temporal Graph Learning. 2026. Accept" in rendered[0]
    assert "Key idea" in rendered[0]


def test_markdown_folder_has_one_file_per_paper_with_front_matter(atlas, tmp_path):
    folder = tmp_path / "vault"
    assert atlas.export("markdown-folder", folder) == 4
    files = sorted(p.name for p in folder.iterdir())
    assert files == [
        "GraphMixer Simple Temporal Graph Learning.md",
        "Measuring Memorisation with Reference Models.md",
        "One-Step Consistency Distillation.md",
        "World-Model Bonuses for Sparse Rewards.md",
    ]
    text = (folder / files[0]).read_text(encoding="utf-8")
    assert text.startswith("---\n")
    head, body = text[4:].split("\n---\n", 1)
    meta = yaml.safe_load(head)
    assert meta["title"] == "GraphMixer: Simple Temporal Graph Learning" and meta["year"] == 2026
    assert meta["tags"] == ["mlp", "temporal-graphs", "to-read"] and meta["state"] == "saved"
    assert meta["links"] == [f"https://openreview.net/forum?id={PAPER}"]
    assert body.lstrip().startswith(NOTE) and "## Abstract" in body
    other = yaml.safe_load((folder / files[1]).read_text(encoding="utf-8")[4:].split("\n---\n", 1)[0])
    assert "tags" not in other and "state" not in other


def test_markdown_folder_names_are_safe_and_unique(tmp_path):
    from paperatlas.report.markdown_folder import file_stem, write_folder

    assert file_stem("../../etc/passwd") == "etc passwd"
    assert file_stem('A: "B" <c> [d] #e ^f | g? *h*\x00') == "A B c d e f g h"
    assert file_stem("...") == "untitled"
    papers = [{"id": "a/1", "title": "Same"}, {"id": "b:2", "title": "Same"}]
    (tmp_path / "out").mkdir()
    outside = tmp_path / "outside.md"
    outside.write_text("keep")
    (tmp_path / "out" / "Same.md").symlink_to(outside)
    assert write_folder(papers, tmp_path / "out") == 2
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["Same (b 2).md", "Same.md"]
    assert outside.read_text() == "keep" and not (tmp_path / "out" / "Same.md").is_symlink()


def test_the_folder_export_from_the_command_line(cli, tmp_path):
    assert cli("add", MINI, "--no-enrich")[0] == 0
    assert cli("tag", PAPER, "x")[0] == 0
    code, _, err = cli("export", "-f", "markdown-folder", "-o", tmp_path / "notes")
    assert code == 0 and "exported 4 papers" in err
    code, _, err = cli("export", "-f", "markdown-folder")
    assert code == 2 and "name the folder with --output" in err
    (tmp_path / "file.md").write_text("x")
    code, _, err = cli("export", "-f", "markdown-folder", "-o", tmp_path / "file.md")
    assert code == 2 and "is a file" in err
