"""CSV exports read in their own words: item types, DOI columns holding addresses, and names
written surname first, told from the sheet's own rows."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperatlas import sources
from paperatlas.errors import InputError

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


def test_a_program_sheet_without_a_header_is_read_by_its_columns():
    assert sources.detect(FIX / "program_no_header.csv") == "csv"
    papers, report = _read("program_no_header.csv")
    assert len(papers) == 10  # every row, the titles with "and" in them too
    assert papers[5].title == "Air Writing: Tracking and Tracing"
    assert papers[5].authors == ["Jyoti Mall", "Deep Khatri", "Komal Rani"]
    assert papers[0].authors == ["Tanu M Kamde", "Pravin Kumar"]  # the presenter's * left off
    assert papers[0].source.endswith("program_no_header.csv:1")  # the first row is a paper
    assert report.pattern == "sheet rows: title = column 3, authors = column 4"
    assert not report.warnings


def test_a_sheet_of_written_out_references_is_read_with_a_warning():
    assert sources.detect(FIX / "references_only.csv") == "csv"
    papers, report = _read("references_only.csv")
    assert len(papers) == 5  # the header row of its own words is no paper
    assert papers[0].title == "Description of two new genera of river algae"
    assert any("no column of this sheet holds the titles" in w for w in report.warnings)


def test_a_header_naming_no_title_but_other_known_columns_is_still_refused(tmp_path):
    path = tmp_path / "sheet.csv"
    path.write_text("authors,year,venue\nAnn Lee,2025,ICLR\nBo Chen,2024,NeurIPS\nCy Wu,2023,ICML\n")
    with pytest.raises(InputError, match="none holds the title or the abstract"):
        list(sources.read(path))
