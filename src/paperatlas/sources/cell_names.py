"""Names in a sheet's cell, written the sheet's way: `Last, First; Last, First`, `Last, First
and Last, First` (LaTeX accents decoded), or `First Last, First Last`. Whether a column writes
surname first is told from its own cells, so that `Popitsch, Niko` stays one person."""

from __future__ import annotations

import re

from paperatlas.sources.bibtex import decode_latex

_SEPARATOR = re.compile(r"\s*;\s*|\s+and\s+|\s+&\s+")
# `Last, First` / `Pérez-Solà, C.`: a surname of one to three words, then given names or initials
_SURNAME_FIRST = re.compile(r"^[^,\d]+(?:\s[^,\s\d]+){0,2},\s*[^,\d]+$")
_LATEX = re.compile(r"\\[a-zA-Z'`^\"~=.]|\{\\")
_MOST = 0.8  # share of a column's names written surname first for the column to be so


def names_in_cell(cell: str) -> list[str]:
    """The names of a cell joined by `;`, `and` or `&` (`others` left out)."""
    if _LATEX.search(cell):
        cell = decode_latex(cell)
    return [n.strip() for n in _SEPARATOR.split(cell) if n.strip() and n.strip().lower() != "others"]


def surname_first(cells: list[str]) -> bool:
    """Are most names of these cells written `Last, First`?"""
    names = [n for cell in cells for n in names_in_cell(cell)]
    return bool(names) and sum(bool(_SURNAME_FIRST.match(n)) for n in names) >= _MOST * len(names)


def first_last(name: str) -> str:
    """`Last, First` -> `First Last`; a name without a comma unchanged; a program's mark of
    the corresponding or presenting author (`*`, `†`) left off."""
    last, _, first = name.strip().rstrip("*†‡").partition(",")
    return f"{first.strip()} {last.strip()}".strip()
