"""EndNote's tagged export (`.enw`, "EndNote Import" / Refer): `%0 Journal Article`, then one
`%X value` line per field, records apart by a blank line or the next `%0`.

Each record is read as its RIS record would be (`sources.ris`): `%T` title, `%A` authors
(`Last, First`), `%D` year, `%J`/`%B` venue, `%X` abstract, `%K` keywords, `%U` links, `%R`
DOI, `%I` publisher, `%>` attached files. A web address written inside another field
(`%I SSRN https://papers.ssrn.com/...`) is the record's link, not part of the text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from paperatlas.paper import Paper
from paperatlas.sources._io import iter_lines
from paperatlas.sources.ris import ris_paper

_TAG = re.compile(r"^%([0-9A-Z@>!#$&()*+,\-./:;<=?\[\]^_{|}~]) (.*)$")
# EndNote's tags as the RIS tags of the same field
_AS_RIS = {
    "0": "TY",
    "T": "TI",
    "A": "AU",
    "D": "PY",
    "J": "JO",
    "B": "BT",
    "X": "AB",
    "K": "KW",
    "U": "UR",
    "R": "DO",
    "I": "PB",
    "V": "VL",
    "N": "IS",
    "P": "SP",
    "@": "SN",
    "Z": "N1",
    "F": "ID",
    ">": "L1",
    "G": "LA",
}
_ADDRESS = re.compile(r"\bhttps?://\S+")


def looks_like_endnote(head: str) -> bool:
    """A `%0 Type` line first (after blank lines) and tagged lines after it."""
    lines = [line for line in head.splitlines() if line.strip()]
    return (
        bool(lines)
        and bool(re.match(r"^%0 \S", lines[0]))
        and sum(bool(_TAG.match(line)) for line in lines[:20]) >= 3
    )


def read_endnote(path: Path) -> Iterator[Paper]:
    record: dict[str, list[str]] = {}
    start, last = 0, None
    for lineno, line in iter_lines(path):
        match = _TAG.match(line)
        if match and match.group(1) == "0" and record:
            yield ris_paper(path, start, _with_links(record), "%0")
            record = {}
        if match:
            if not record:
                start = lineno
            tag = _AS_RIS.get(match.group(1), "%" + match.group(1))
            record.setdefault(tag, []).append(match.group(2).strip())
            last = tag
        elif line.strip() and last is not None and record:  # a value continued
            record[last][-1] = f"{record[last][-1]} {line.strip()}"
        elif not line.strip():
            last = None
    if record:
        yield ris_paper(path, start, _with_links(record), "%0")


def _with_links(record: dict[str, list[str]]) -> dict[str, list[str]]:
    """Web addresses written inside the text of other fields taken out as links."""
    links = record.setdefault("UR", [])
    for tag, values in record.items():
        if tag in ("UR", "L1", "DO"):
            continue
        for i, value in enumerate(values):
            if found := _ADDRESS.findall(value):
                links.extend(found)
                values[i] = " ".join(_ADDRESS.sub(" ", value).split())
    return record
