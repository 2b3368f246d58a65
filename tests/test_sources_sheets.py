"""CSV exports read in their own words: item types, DOI columns holding addresses, and names
written surname first, told from the sheet's own rows."""

from __future__ import annotations

from pathlib import Path

from paperatlas import sources

FIX = Path(__file__).parent / "fixtures" / "sheets"


def _read(name: str) -> tuple[list, sources.ReadReport]:
    report = sources.ReadReport()
    return list(sources.read(FIX / name, report)), report


def test_a_zotero_csv_reads_its_item_types_names_and_links():
    papers, report = _read("zotero_export.csv")
    assert [p.title for p in papers] == [
        "Wage Rigidity in Small Open Economies",
        "Central Banks and the Inflation Debate",
        "Les économistes et la stagflation",
    ]
    # one person written surname first stays one person
    assert papers[0].authors == ["Claire Moreau"]
    assert papers[1].authors == ["Claire Moreau", "Per Anders Lindqvist"]
    # the DOI column holding a web address is the paper's link; a DOI there is a DOI
    assert papers[0].urls == ["https://www.example.org/review/2021-4-page-12.htm"]
    assert papers[1].urls == ["https://doi.org/10.1080/0000000.2022.1"]
    assert report.skipped == {"not a paper (type computerProgram)": 1, "not a paper (type book)": 1}


def test_a_type_column_in_any_case_leaves_out_books_and_talks():
    papers, report = _read("publications_types.csv")
    assert [p.title for p in papers] == [
        "Crime and Income in Two Countries",
        "Examining a General Factor Across States",
        "A Reply to Three Critics",
    ]
    # names written first name first, joined by commas and "and", are split as before
    assert papers[1].authors == ["Ana Souza", "Bo Tran", "Julia Berg"]
    assert report.skipped_total == 2


def test_bibtex_style_names_joined_by_and_keep_their_commas():
    papers, _ = _read("bibliography_and.csv")
    assert papers[0].authors == ["Martín Sarachu", "Marc Colet"]  # LaTeX accent decoded
    assert papers[1].authors == ["Niko Popitsch"]
    assert papers[2].authors == ["F Alexander Wolf", "Philipp Angerer", "Fabian J Theis"]
