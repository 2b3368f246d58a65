"""Title-only papers are stored, and identifiers (arXiv without version, DOI in any case,
OpenReview id) or a title make the same paper from two files and formats one paper."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import dump
from paperatlas.ingest import add_files
from paperatlas.store import Store

FIX = Path(__file__).parent / "fixtures" / "ingest"
BIB = FIX / "titles_only.bib"  # 4 title-only entries (arXiv id, DOI, title, arXiv id)
FULL = FIX / "with_abstracts.jsonl"  # 3 of them with abstracts, no ids, + 1 other paper


def fts_ids(store: Store, query: str) -> set[str]:
    return {pid for pid, _ in store.fts.search(query)}


def test_title_only_entries_are_stored_and_searchable_by_title(store):
    [f] = add_files(store, [BIB]).files
    assert (f.read, f.added, f.skipped, f.error) == (4, 4, 0, None)
    assert f.format == "bibtex" and f.stats.title_only == 4 and f.stats.authors == 4
    paper = store.papers.get("ruegamer2025sparse")
    assert paper["abstract"] == "" and paper["identifiers"] == {"arxiv": "2501.01234"}
    assert paper["authors"] == ["David Rügamer", "Ivan Šarić"]
    # two title-only entries share a title but not their arXiv ids: two papers
    assert store.papers.get("park2025other")["identifiers"] == {"arxiv": "2503.09999"}
    assert fts_ids(store, "hypergraphs incidence") == {"lee2024graphs"}
    assert fts_ids(store, "routing") == {"ruegamer2025sparse", "park2025other"}


@pytest.mark.parametrize("order", ["titles_first", "abstracts_first"])
def test_title_only_and_full_records_merge_by_arxiv_doi_and_title(store, order):
    files = [BIB, FULL] if order == "titles_first" else [FULL, BIB]
    reports = {Path(f.path).name: f for f in add_files(store, files).files}
    assert store.papers.count() == 5  # 4 entries + 1 unrelated paper; 3 pairs merged
    second = reports[files[1].name]
    assert second.merged == 3 and second.added == 1
    for pid, word in (
        ("ruegamer2025sparse", "experts"),
        ("lee2024graphs", "co-authorship"),
        ("chen2025calib", "orphan"),
    ):
        paper = store.papers.get(pid)  # the BibTeX key wins either way (hash ids are rekeyed)
        assert paper is not None, pid
        assert word in paper["abstract"]
        assert sorted(store.lists.containing(pid)) == ["titles_only", "with_abstracts"]
        assert pid in fts_ids(store, word.split("-")[0])
    assert store.papers.get("ruegamer2025sparse")["identifiers"] == {"arxiv": "2501.01234"}
    assert store.papers.get("lee2024graphs")["venue"] == "Transactions on Machine Learning Research"
    # the paper with the same title but another arXiv id stays apart, without an abstract
    assert store.papers.get("park2025other")["abstract"] == ""
    if order == "titles_first":
        assert second.filled == 3


def test_readding_either_file_changes_nothing(store):
    add_files(store, [BIB, FULL])
    before = dump(store)
    for path in (BIB, FULL):
        [f] = add_files(store, [path]).files
        assert (f.added, f.merged, f.unchanged) == (0, 0, 4), path.name
    assert dump(store) == before


def test_arxiv_versions_and_doi_case_do_not_matter(store, tmp_path):
    rows = [
        {"id": "a1", "title": "First listing", "abstract": "", "url": "https://arxiv.org/abs/2409.00123v3"},
        {"id": "d1", "title": "A DOI listing", "abstract": "", "url": "https://doi.org/10.1145/ABC.XYZ"},
    ]
    again = [
        {
            "title": "Same paper under another title",
            "abstract": "",
            "url": "http://export.arxiv.org/pdf/2409.00123v1",
        },
        {"title": "The DOI paper again", "abstract": "", "doi": "10.1145/abc.xyz"},
    ]
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    one.write_text("".join(json.dumps(r) + "\n" for r in rows))
    two.write_text("".join(json.dumps(r) + "\n" for r in again))
    add_files(store, [one])
    [f] = add_files(store, [two]).files
    assert (f.added, f.merged) == (0, 2)
    assert store.papers.count() == 2


def test_one_file_naming_a_paper_twice_gives_one_paper_with_both(store, tmp_path):
    path = tmp_path / "twice.jsonl"
    rows = [
        {
            "title": "Listed first without its abstract",
            "abstract": "",
            "url": "https://arxiv.org/abs/2502.04444",
            "authors": ["Ann Lee"],
        },
        {
            "title": "Listed first without its abstract",
            "abstract": "Then listed again with the abstract that says what the paper does "
            "and how well it works on three benchmarks.",
            "url": "https://arxiv.org/pdf/2502.04444v2",
        },
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    [f] = add_files(store, [path]).files
    assert (f.added, f.merged) == (1, 1) and store.papers.count() == 1
    [paper] = store.papers.iter()
    assert paper["abstract"].startswith("Then listed again") and paper["authors"] == ["Ann Lee"]
    assert fts_ids(store, "benchmarks") == {paper["id"]}


def test_short_title_only_entries_readd_cleanly(store, tmp_path):
    path = tmp_path / "short.jsonl"
    path.write_text('{"title": "GANs", "url": "https://example.org/gans"}\n{"title": "Diffusion"}\n')
    [f] = add_files(store, [path]).files
    assert (f.added, f.error) == (2, None)
    [f] = add_files(store, [path]).files
    assert (f.added, f.unchanged, f.error) == (0, 2, None)


def test_reused_key_with_another_title_is_another_paper(store, tmp_path):
    one, two = tmp_path / "one.bib", tmp_path / "two.bib"
    one.write_text("@article{smith2020, title = {Graph Learning at Scale}, year = {2020}}\n")
    two.write_text("@article{smith2020, title = {Protein Folding with Few Labels}, year = {2020}}\n")
    add_files(store, [one, two])
    titles = sorted(p["title"] for p in store.papers.iter())
    assert titles == ["Graph Learning at Scale", "Protein Folding with Few Labels"]


def test_dry_run_reports_like_a_real_add_and_stores_nothing(store):
    add_files(store, [BIB])
    before = dump(store)
    [dry] = add_files(store, [FULL], dry_run=True).files
    assert dump(store) == before
    [real] = add_files(store, [FULL]).files
    assert (dry.added, dry.merged, dry.filled, dry.error) == (real.added, real.merged, real.filled, None)


@pytest.mark.parametrize("order", ["digest_first", "bibtex_first"])
def test_markdown_digest_and_bibtex_name_one_paper(store, order):
    digest = FIX / "digest.md"  # arXiv link with v3, DOI in upper case, a section heading
    files = [digest, BIB] if order == "digest_first" else [BIB, digest]
    add_files(store, files)
    assert store.papers.count() == 4  # the 4 BibTeX entries; both digest papers merged
    paper = store.papers.get("ruegamer2025sparse")
    assert paper["abstract"].startswith("We route tokens") and paper["section"] == "Efficient models"
    assert sorted(store.lists.containing("ruegamer2025sparse")) == ["digest", "titles_only"]
    assert store.papers.get("lee2024graphs")["abstract"].startswith("Hypergraph neural networks")
