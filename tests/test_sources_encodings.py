"""Files not in UTF-8: read in the one encoding they plainly are in, named in a note; refused
with one line when the encoding is in doubt."""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import pytest

from paperatlas import sources
from paperatlas.errors import InputError
from paperatlas.sources.codepages import code_page

FIX = Path(__file__).parent / "fixtures" / "encodings"
SOURCES = Path(__file__).parent / "fixtures" / "sources"


def _read(path: Path) -> tuple[list, sources.ReadReport]:
    report = sources.ReadReport()
    return list(sources.read(path, report)), report


def test_a_dos_spreadsheet_export_is_read_in_cp850():
    papers, report = _read(FIX / "dos_cp850.csv")
    assert [p.title for p in papers] == [
        "Über die Verteilung der Algen",
        "Beiträge zur Systematik der Grünalgen",
    ]
    assert papers[0].authors == ["Jürgen Düringer", "Käthe Müller"]
    assert "16°28'" in papers[0].abstract
    assert any("cp850" in w for w in report.warnings)


def test_a_latin1_sheet_is_read_as_windows_1252():
    papers, report = _read(SOURCES / "latin1.csv")
    assert papers[0].title == "Café" and papers[0].abstract == "Un résumé en français sur les graphes."
    assert any("Windows-1252" in w for w in report.warnings)


def test_a_mac_roman_sheet_is_read_as_mac_roman():
    papers, report = _read(FIX / "mac_roman.tsv")
    assert papers[0].title == "Réseaux de neurones épars" and papers[0].authors == ["Jürgen Müller"]
    assert any("Mac Roman" in w for w in report.warnings)


def test_utf16_without_a_bom_is_read_with_a_note():
    papers, report = _read(FIX / "utf16_no_bom.csv")
    assert papers[0].title == "Graph Learning at Scale"
    assert any("UTF-16" in w for w in report.warnings)


def test_utf8_gets_no_note():
    _, report = _read(SOURCES / "papers.csv")
    assert not any("UTF-8" in w for w in report.warnings)


def test_a_gzipped_code_page_file_is_read(tmp_path):
    path = tmp_path / "dos.csv.gz"
    with open(FIX / "dos_cp850.csv", "rb") as src, gzip.open(path, "wb") as dst:
        shutil.copyfileobj(src, dst)
    papers, _ = _read(path)
    assert papers[1].title == "Beiträge zur Systematik der Grünalgen"


@pytest.mark.parametrize(
    "path, line",
    [
        (FIX / "ambiguous.csv", 2),  # reads as clean text in several code pages, differently
        (FIX / "mixed.csv", 3),  # UTF-8 with a stray byte
        (SOURCES / "invalid_utf8.txt", 5),  # "\xff\xfe" reads as no word in any code page
    ],
)
def test_an_encoding_in_doubt_is_refused_with_its_line(path, line):
    with pytest.raises(InputError) as info:
        list(sources.read(path))
    assert "not valid UTF-8" in str(info.value) and "\n" not in str(info.value)
    assert info.value.line == line


@pytest.mark.parametrize(
    "text, encoding",
    [
        ("Jürgen Müller, 16°C", "cp850"),
        ("Jürgen Müller, 16°C", "mac_roman"),
        ("Le café est à côté du réseau", "cp1252"),
        ("naïve façade, Straße “quoted”", "cp1252"),
    ],
)
def test_code_page_names_the_one_that_reads_as_text(text, encoding):
    assert code_page(text.encode(encoding)) == encoding


def test_binary_noise_is_in_no_code_page():
    assert code_page(bytes(range(128, 256)) * 4) is None


def test_binary_without_zero_bytes_is_still_refused_in_one_line(tmp_path):
    import random

    noise = bytes(random.Random(7).randrange(1, 256) for _ in range(20_000))
    path = tmp_path / "noise.csv"
    path.write_bytes(b"title,abstract\n" + noise)
    with pytest.raises(InputError) as info:
        list(sources.read(path))
    assert "\n" not in str(info.value) and (
        "not valid UTF-8" in str(info.value) or "binary" in str(info.value)
    )
