"""JSON/JSONL, CSV/TSV and BibTeX readers, format detection, gzip, and bad input."""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import bibtexparser
import pytest

from paperatlas import sources
from paperatlas.errors import InputError

FIX = Path(__file__).parent / "fixtures" / "sources"


def _read(name):
    return list(sources.read(FIX / name))


def test_iclr_rows():
    papers = _read("iclr_mini.jsonl")
    assert sources.detect(FIX / "iclr_mini.jsonl") == "jsonl"
    assert [p.id for p in papers] == ["GmX7qQ1abc", "Dif_2-xYzq", "RLexp00001", "MemInf0001"]
    first, second = papers[0], papers[1]
    assert first.title == "GraphMixer: Simple Temporal Graph Learning"
    assert first.area == "learning on graphs and other geometries & topologies"
    assert first.keywords == ["temporal graphs", "MLP"]
    assert first.decision == "Accept (Poster)" and first.rating == 6.0 and first.year == 2026
    assert first.urls == ["https://openreview.net/forum?id=GmX7qQ1abc"]
    assert first.extra["tldr"] == "MLPs suffice for temporal graphs."
    assert first.extra["ratings"] == [6, 6, 6] and first.extra["number"] == 11
    assert second.extra["abstract_final"].endswith("Code is public.")
    assert second.extra["title_final"] == "One-Step Consistency Distillation for Diffusion"
    assert "tldr" not in second.extra  # null values are not kept
    assert papers[3].rating is None
    assert first.source.endswith("iclr_mini.jsonl:1")


def test_gzip_is_read_transparently():
    plain = _read("iclr_mini.jsonl")
    zipped = _read("iclr_mini.jsonl.gz")
    assert [p.to_dict() | {"source": None} for p in plain] == [p.to_dict() | {"source": None} for p in zipped]


def test_format_is_detected_from_content_not_suffix(tmp_path):
    for name, fmt in [
        ("iclr_mini.jsonl", "jsonl"),
        ("papers.bib", "bibtex"),
        ("papers.csv", "csv"),
        ("copilot.json", "json"),
        ("labels.txt", "text"),
    ]:
        disguised = tmp_path / f"{name}.dat"
        shutil.copy(FIX / name, disguised)
        assert sources.detect(disguised) == fmt, name
        gz = tmp_path / f"{name}.gz"
        gz.write_bytes(gzip.compress((FIX / name).read_bytes()))
        assert sources.detect(gz) == fmt, name
        assert len(list(sources.read(gz))) == len(list(sources.read(FIX / name)))


def test_openreview_v2_notes():
    note, no_abstract = _read("openreview_v2.json")
    assert note.id == "OrV2note01"
    assert note.title == "Sparse Attention for Long Videos"
    assert note.authors == ["Ada Lovelace", "Alan Turing"]
    assert note.keywords == ["video", "sparse attention"]
    assert note.venue == "ICLR 2026 Poster"
    assert note.extra["tldr"] == "Route attention to key frames."
    assert note.urls == ["https://openreview.net/forum?id=OrV2note01"]
    assert no_abstract.abstract == ""  # yielded, then skipped and counted by ingest


def test_arxiv_snapshot_rows():
    first, old = _read("arxiv.jsonl")
    assert first.id == "2401.01234"
    assert first.title == "Scaling Laws for Sparse Mixtures"  # wrapped title joined
    assert first.authors == ["Jane Roe", "John Doe", "Max Mustermann"]
    assert first.abstract.startswith("We fit scaling laws") and first.abstract.endswith("compute.")
    assert first.year == 2024 and first.extra["categories"] == "cs.LG stat.ML"
    assert first.urls == ["https://arxiv.org/abs/2401.01234"]
    assert old.urls == ["https://arxiv.org/abs/math/0601001"] and old.year == 2006


def test_paper_copilot_list():
    first, second = _read("copilot.json")
    assert first.keywords == ["fine-tuning", "robustness", "weight averaging"]
    assert first.authors == ["Li Wei", "Maria Garcia"]
    assert first.decision == "Poster"
    assert first.extra["ratings"] == [6.0, 8.0, 6.0]
    assert first.rating == pytest.approx(20 / 3)
    assert first.urls == ["https://openreview.net/forum?id=CoPi000001"]
    assert second.decision == "Reject"


def test_csv_with_mixed_case_headers_and_multiline_field():
    papers = _read("papers.csv")
    assert [p.id for p in papers] == ["csv-1", "csv-2", "csv-3"]
    assert papers[0].title == "Quoted, Title"
    assert papers[0].abstract == (
        "First line of an abstract about graph transformers,\nwhich continues on a second line."
    )
    assert papers[0].authors == ["Ann Lee", "Bo Chen"]
    assert papers[0].keywords == ["graphs", "transformers"]
    assert papers[0].year == 2025 and papers[0].decision == "Accept"
    assert papers[1].abstract == ""
    assert papers[2].source.endswith("papers.csv:5")  # the row after a two-line row


def test_tsv_with_upper_case_headers():
    [paper] = _read("papers.tsv")
    assert paper.title == "Tab Title" and paper.area == "optimization"
    assert paper.abstract.startswith("A tab separated abstract")


def test_bibtex():
    paper, no_abstract = _read("papers.bib")
    assert paper.id == "smith2026graphs"
    assert paper.title == "GraphMixer: Simple MLPs for Temporal Graphs"
    assert paper.authors == ["John Smith", "Jane Doe"]
    assert paper.year == 2026 and paper.venue == "ICLR"
    # LaTeX decoded on read, math kept as written
    assert r"$\mathcal{O}(n)$" in paper.abstract and "with three times" in paper.abstract
    assert "2.1%" in paper.abstract and "\\" not in paper.abstract.replace(r"\mathcal", "")
    assert no_abstract.abstract == "" and no_abstract.title_only


@pytest.mark.parametrize(
    "name, message, line",
    [
        ("binary.bin", "binary file", None),
        ("empty.txt", "is empty", None),
        ("blank_lines.txt", "is empty", None),
        ("invalid_utf8.txt", "not valid UTF-8", 5),
        ("malformed.jsonl", "malformed JSON", 3),
        ("malformed_array.json", "malformed JSON", 3),
        ("not_objects.jsonl", "expected a JSON object", 2),
        ("does_not_exist.txt", "no such file", None),
        ("no_title_or_abstract_column.csv", "none holds the title or the abstract", 1),
    ],
)
def test_bad_input_is_one_clear_error(name, message, line):
    with pytest.raises(InputError) as info:
        list(sources.read(FIX / name))
    error = info.value
    assert message in str(error) and "\n" not in str(error)
    assert error.line == line
    assert str(error).startswith(str(FIX / name))


def test_empty_directory_is_refused(tmp_path):
    with pytest.raises(InputError, match="empty folder"):
        list(sources.read(tmp_path))


def test_other_archives_are_refused(tmp_path):
    path = tmp_path / "list.zip"
    path.write_bytes(b"PK\x03\x04" + b"rest of a zip file")
    with pytest.raises(InputError, match="zip archive"):
        list(sources.read(path))


def test_json_array_is_streamed_across_chunks(tmp_path):
    # more lines than one read chunk, and an object split over many lines
    import json

    rows = [{"id": f"p{i}", "abstract": f"Abstract number {i} about learning."} for i in range(3000)]
    path = tmp_path / "big.json"
    path.write_text(json.dumps(rows, indent=2), encoding="utf-8")
    papers = list(sources.read(path))
    assert [p.id for p in papers] == [r["id"] for r in rows]
    assert papers[-1].source == f"{path}:{2 + 4 * 2999}"


def test_exported_bibtex_of_fixture_parses():
    # the fixture itself is valid BibTeX for a real parser
    library = bibtexparser.parse_string((FIX / "papers.bib").read_text(encoding="utf-8"))
    assert not library.failed_blocks


# -- property: any JSON object maps to a Paper (or is skipped), never a crash --------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from paperatlas.sources.records import ALIASES, paper_from_record  # noqa: E402

_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
_keys = st.sampled_from(
    [a for aliases in ALIASES.values() for a in aliases]
    + ["content", "update_date", "abstract_final", "Title", "ABSTRACT"]
)


@pytest.mark.slow  # property test: hundreds of generated inputs
@settings(max_examples=300, deadline=None)
@given(record=st.dictionaries(_keys | st.text(max_size=10), _json, max_size=10))
def test_property_any_json_object_maps_to_a_paper(record):
    paper = paper_from_record(record, "x.jsonl:1")
    assert isinstance(paper.abstract, str)
    assert all(isinstance(a, str) for a in paper.authors + paper.keywords + paper.urls)
    assert paper.year is None or isinstance(paper.year, int)
    assert paper.rating is None or isinstance(paper.rating, float)
    import json

    json.dumps(paper.extra)  # storable


def test_fraction_read_follows_a_reader(tmp_path):
    import json

    from paperatlas.sources._io import fraction_read

    path = tmp_path / "rows.jsonl"
    path.write_text(
        "".join(json.dumps({"id": f"r{i}", "abstract": "x " * 200}) + "\n" for i in range(2000)),
        encoding="utf-8",
    )
    papers = sources.read(path)
    assert fraction_read(path) is None  # nothing open yet
    for _ in range(1000):
        next(papers)
    assert 0.3 < fraction_read(path) < 0.8
    list(papers)
    assert fraction_read(path) is None  # closed once read


def test_record_links_identifiers_and_code_keys():
    from paperatlas.sources.records import paper_from_record

    forum = "https://openreview.net/forum?id=AbCdEfGh12"
    row = {"id": "AbCdEfGh12", "title": "T", "abstract": "A.", "primary_area": "x"}
    only_forum = paper_from_record(row, "s:1")
    assert only_forum.urls == [forum] and only_forum.code_urls == []
    assert only_forum.identifiers == {"openreview": "AbCdEfGh12"}
    linked = paper_from_record(
        {
            **row,
            "project_page": "https://p.org/x",
            "url": "https://arxiv.org/abs/2501.01234v2",
            "github": "https://github.com/a/b",
            "doi": "10.1234/XY",
        },
        "s:1",
    )
    assert linked.urls == [forum, "https://arxiv.org/abs/2501.01234v2"]
    assert linked.identifiers == {"openreview": "AbCdEfGh12", "arxiv": "2501.01234", "doi": "10.1234/xy"}
    assert linked.code_urls == ["https://p.org/x", "https://github.com/a/b"]  # in the record's order
    swapped = paper_from_record({**row, "github": "https://github.com/a/b", "code": "https://c.org"}, "s:1")
    assert swapped.code_urls == ["https://github.com/a/b", "https://c.org"]
