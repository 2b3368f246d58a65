"""The import report: `add` says per file what it read (format, fields, skips and why)
and warns when a file reads badly; `inspect` and `add --dry-run` store nothing."""

from __future__ import annotations

from pathlib import Path

from conftest import dump
from paperatlas.ingest.report import EntryStats, has_sentence, link_only
from paperatlas.paper import Paper
from paperatlas.store import Store

FIX = Path(__file__).parent / "fixtures" / "ingest"


def squash(table: str) -> str:
    """A rich table's text with borders, spaces and line breaks taken out (cells wrap)."""
    return "".join(ch for ch in table if not ch.isspace() and ch not in "│┃━─┏┓┗┛┡┩└┘├┤┼╇┳┻╋┠┨┯┷┴┬")


def test_add_reports_format_fields_and_title_only(cli):
    code, out, err = cli("add", FIX / "titles_only.bib", "--no-enrich")
    assert code == 0, err
    assert (
        "titles_only.bib (bibtex): 4 papers: 4 titles, 0 abstracts (4 title-only), "
        "4 with authors, 3 with links, 3 with arXiv/DOI/OpenReview ids" in out
    )
    assert "list 'titles_only': added 4, merged 0, unchanged 0, skipped 0" in out
    code, out, _ = cli("add", FIX / "with_abstracts.jsonl", "--no-enrich")
    assert "merged 3 (3 title-only gained an abstract)" in out


def test_add_names_what_it_skipped_and_why(cli):
    code, out, err = cli("add", FIX / "with_skips.bib", "--no-enrich")
    assert code == 0, err
    assert "with_skips.bib (bibtex): 1 paper:" in out
    assert "1 skipped: 1 not a paper (@book) (line 9)" in out
    assert "skipped 1" in out


def test_add_warns_when_a_file_reads_badly(cli):
    code, out, err = cli("add", FIX / "reads_badly.jsonl", "--no-enrich")
    assert code == 0
    warnings = [line for line in err.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 5, err
    assert any("this reading looks incomplete (self-check: " in w for w in warnings)
    assert any("6 of 8 entries have an 'abstract' with no sentence" in w for w in warnings)
    assert any("3 of 8 entries are only a link" in w for w in warnings)
    assert any("titles carry markup" in w for w in warnings)
    assert any("begin with the label 'authors'" in w for w in warnings)
    # a file that reads well gives no warning
    code, out, err = cli("add", FIX / "with_abstracts.jsonl", "--no-enrich")
    assert "warning" not in err


def test_inspect_shows_entries_and_stores_nothing(cli):
    code, out, err = cli("inspect", FIX / "titles_only.bib", "-n", "2", use_db=False)
    assert code == 0, err
    assert "ruegamer2025sparse" in out and "lee2024graphs" in out and "chen2025calib" not in out
    cells = squash(out)
    assert "[titleonly]" in cells and "Rügamer" in cells and "arxiv:2501.01234" in cells
    assert "first 2 of 4 papers; nothing stored" in out
    assert not cli.db.exists()


def test_inspect_prints_markup_in_titles_literally(cli):
    code, out, _ = cli("inspect", FIX / "with_skips.bib", use_db=False)
    assert code == 0
    assert "A[bold]Paper[/bold]WithMarkup-LikeBrackets" in squash(out)


def test_inspect_of_a_bad_file_is_one_line_exit_2(cli, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"title": "ok", "abstract": "fine"}\n{"title": \n')
    code, out, err = cli("inspect", bad, use_db=False)
    assert code == 2 and "bad.jsonl:2" in err and len(err.strip().splitlines()) == 1


def test_dry_run_reports_and_stores_nothing(cli):
    code, out, _ = cli("add", FIX / "titles_only.bib", "--dry-run")
    assert code == 0 and "would add 4" in out and not cli.db.exists()
    cli("add", FIX / "titles_only.bib", "--no-enrich")
    stored = Store(cli.db)
    before = dump(stored)
    code, out, _ = cli("add", FIX / "with_abstracts.jsonl", "--dry-run")
    assert code == 0 and "would add 1, merged 3" in out and "dry run: nothing stored" in out
    assert dump(stored) == before
    stored.close()
    code, out, _ = cli("lists")
    assert "with_abstracts" not in out
    code, out, _ = cli("stats")
    assert "4" in out


def test_sentence_and_link_checks():
    assert has_sentence("We show that sparse attention keeps accuracy on three benchmarks.")
    assert not has_sentence("Repo stars 1.2k")
    assert has_sentence("我们提出了一种新的稀疏注意力方法，在三个基准上保持精度并降低内存。")
    assert not has_sentence("作者：张三")
    assert link_only("[Paper](https://arxiv.org/abs/2501.00001)")
    assert link_only("https://github.com/a/b")
    assert not link_only("We release code at https://github.com/a/b with all our experiments.")


def test_no_warning_on_a_clean_list():
    stats = EntryStats()
    for i in range(50):
        stats.see(
            Paper(
                title=f"Paper number {i} on topic {i % 7}",
                abstract=f"We study problem {i} and show a method that improves results "
                f"on {i % 5 + 2} benchmarks by a clear margin.",
            )
        )
    assert stats.warnings() == []


def test_ls_filters_by_section_and_marks_title_only(cli):
    cli("add", FIX / "digest.md", FIX / "titles_only.bib", "--no-enrich")
    code, out, _ = cli("ls", "--section", "efficient")
    assert code == 0 and "Sparse Mixture Routing" in out and "2 papers" in out
    code, out, _ = cli("ls", "--list", "titles_only")
    assert squash(out).count("[titleonly]") == 2  # chen2025calib, park2025other: no abstract anywhere
    code, out, _ = cli("show", "chen2025calib")
    assert "title only: the list this paper came from gives no abstract" in out


def test_a_folder_is_reported_file_by_file(cli, tmp_path):
    folder = tmp_path / "lists"
    (folder / "sub").mkdir(parents=True)
    for name, where in (
        ("titles_only.bib", folder),
        ("digest.md", folder / "sub"),
        ("reads_badly.jsonl", folder / "sub"),
    ):
        (where / name).write_bytes((FIX / name).read_bytes())
    code, out, err = cli("add", folder, "--no-enrich")
    assert code == 0, err
    assert "lists (folder): 14 papers" in out
    assert "titles_only.bib (bibtex): 4 papers: 4 titles, 0 abstracts (4 title-only)" in out
    assert "digest.md (markdown): 2 papers" in out and "reads_badly.jsonl (jsonl): 8 papers" in out
    warnings = [line for line in err.splitlines() if line.startswith("warning:")]
    assert warnings and all("reads_badly.jsonl" in w for w in warnings)
    assert "list 'lists': added 12, merged 2 (2 title-only gained an abstract)" in out
