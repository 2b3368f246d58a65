"""Regressions found by using the integrated product on real lists (QA pass): each test is
a defect a user met, on a small fixture of the same shape."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperatlas import sources
from paperatlas.sources import ReadReport
from paperatlas.sources.mdlines import clean_html, links

FIX = Path(__file__).parent / "fixtures" / "qa"


def _read(path, report=None):
    return list(sources.read(path, report if report is not None else ReadReport()))


def test_csl_rich_text_titles_and_entities_are_plain_text():
    report = ReadReport()
    drug, e2m = _read(FIX / "csl_rich_text.json", report)
    assert report.format == "csl"
    assert drug.title == "Enabling drug discovery by de novo design of R&D pipelines"
    assert (
        drug.abstract
        == "We design molecules \u201cfrom scratch\u201d with a model that scores >90% of the known actives."
    )
    assert e2m.title == "E2M: Methylation Patterns with mRNA Expression"


def test_url_in_a_code_span_does_not_keep_the_backtick():
    # a data README: "the link is `https://doi.org/<doi>`" (the <doi> placeholder is a tag)
    line = clean_html("- `link`: for records that carry only a DOI the link is `https://doi.org/<doi>`;")
    assert links(line) == [("", "https://doi.org/")]
    assert links("Code at `https://github.com/a/b`.") == [("", "https://github.com/a/b")]


def test_a_measure_with_a_hyphen_is_not_a_paper_name():
    from paperatlas.enrich.pipeline import extract_facts

    abstract = (
        "We propose a 125M-parameter captioning model that runs with 8-bit weights on a "
        "4-state simulator of 3-dimensional scenes. The 125M-parameter model matches "
        "captioners ten times larger on COCO."
    )
    assert extract_facts(None, abstract).get("name") is None
    named = (
        "We propose SparseCap, a 125M-parameter captioning model with 8-bit weights. "
        "SparseCap matches captioners ten times larger on COCO."
    )
    assert extract_facts(None, named).get("name") == "SparseCap"


def test_paper_page_of_an_id_with_slashes(tmp_path):
    # DBLP BibTeX keys ("DBLP:journals/todaes/X13") are paper ids; their pages must open
    from urllib.parse import quote

    from fastapi.testclient import TestClient

    from paperatlas import Atlas
    from paperatlas.web.app import create_app

    db = tmp_path / "a.db"
    atlas = Atlas(db)
    atlas.add([FIX / "dblp_keys.bib"], list_name="lab")
    atlas.close()
    with TestClient(create_app(db), base_url="http://127.0.0.1") as client:
        listing = client.get("/papers")
        assert listing.status_code == 200
        href = "/papers/" + quote("DBLP:journals/todaes/MajzoobiKK13", safe="")
        assert href in listing.text
        page = client.get(href)
        assert page.status_code == 200 and "Time-Bounded Authentication of FPGAs" in page.text
        assert client.get("/papers/" + quote("DBLP:conf/iccad/AlkabaniKP07", safe="")).status_code == 200
        assert client.get("/papers/" + quote("DBLP:conf/none/X", safe="")).status_code == 404


def test_paper_page_links_to_the_paper_itself(tmp_path):
    # a title-only list entry's link is all a reader has: the page must show it
    from fastapi.testclient import TestClient

    from paperatlas import Atlas
    from paperatlas.web.app import create_app

    listing = tmp_path / "reading.md"
    listing.write_text(
        "# Reading list\n\n"
        "- [Sparse Kernels for Long Context Attention](https://arxiv.org/abs/2501.01234) "
        "[[code](https://github.com/lab/sparsek)] "
        "[[data](https://huggingface.co/datasets/lab/sparsek-bench)]\n"
        "- [A Bad Link Paper on Graph Pooling](javascript:alert(1))\n",
        encoding="utf-8",
    )
    db = tmp_path / "a.db"
    atlas = Atlas(db)
    atlas.add([listing], list_name="reading")
    ids = {p["title"]: p["id"] for p in atlas.store.papers.iter()}
    atlas.close()
    with TestClient(create_app(db), base_url="http://127.0.0.1") as client:
        page = client.get(f"/papers/{ids['Sparse Kernels for Long Context Attention']}")
        assert page.status_code == 200
        assert 'href="https://arxiv.org/abs/2501.01234"' in page.text
        assert 'href="https://github.com/lab/sparsek"' in page.text
        assert (
            '<span class="badge">data</span> <a href="https://huggingface.co/datasets/lab/sparsek-bench"'
            in page.text
        )
        assert '<span class="badge">code</span> <a href="https://github.com/lab/sparsek"' in page.text
        bad = client.get(f"/papers/{ids['A Bad Link Paper on Graph Pooling']}")
        assert bad.status_code == 200 and 'href="javascript' not in bad.text


def test_bibtex_export_of_a_program_reads_back(tmp_path):
    # a conference program's papers have no venue, DOI or paper link: the export writes them
    # as @misc with their abstracts, and `add` must read every one back
    from paperatlas import Atlas

    atlas = Atlas(tmp_path / "a.db")
    atlas.add([FIX / "program.json"], list_name="prog", enrich=False)
    stored = {p["title"] for p in atlas.store.papers.iter()}
    out = tmp_path / "prog.bib"
    atlas.export("bibtex", out)
    atlas.close()
    assert "@misc" in out.read_text(encoding="utf-8")
    report = ReadReport()
    back = {p.title for p in _read(out, report)}
    assert (
        back
        == stored
        == {
            "Learned Placement Costs for Fast Macro Placement",
            "Late Breaking Results: Tiny Routers for Chiplet Networks",
        }
    )
    assert report.skipped_total == 0


def test_a_misc_blog_post_with_an_abstract_is_still_not_a_paper(tmp_path):
    teaser = (
        "Deep learning has given rise to technologies that would have been thought "
        "impossible only a handful of years ago, and detecting their misuse matters. "
    )
    bib = tmp_path / "lib.bib"
    bib.write_text(
        "@misc{blog1,\n  title = {Contributing Data to Detection Research},\n"
        "  url = {http://ai.examplelab.com/blog/2019/09/contributing-data.html},\n"
        f"  abstract = {{{teaser * 3}}},\n}}\n\n"
        "@misc{teaser1,\n  title = {Short Teaser},\n  abstract = {Posted by a lab: a line.},\n}\n\n"
        "@misc{pre1,\n  title = {Sparse Routing for Chiplet Networks},\n"
        f"  abstract = {{{teaser * 3}}},\n}}\n",
        encoding="utf-8",
    )
    report = ReadReport()
    assert [p.title for p in _read(bib, report)] == ["Sparse Routing for Chiplet Networks"]
    assert report.skipped_total == 2


def test_a_span_of_years_is_not_a_headline_number():
    from paperatlas.enrich.numbers import extract_numbers

    text = (
        "We measure research trends across 26,104 accepted papers from CVPR, ICLR and NeurIPS "
        "spanning 2023-2025, and in articles published in the period 2010–2012. Recall "
        "rises by 14%-69% with 1500-2000 tokens of context."
    )
    assert sorted(n["text"] for n in extract_numbers(text)) == ["14%-69%", "1500-2000", "26,104"]


def test_digest_does_not_repeat_a_name_the_title_holds_in_capitals():
    from paperatlas.report.digest_data import PaperLine
    from paperatlas.report.markdown import paper_bullet
    from paperatlas.report.strings import strings

    words = strings("en")
    caps = PaperLine(
        id="a",
        title="FREQCA: ACCELERATING DIFFUSION MODELS VIA FREQUENCY-AWARE CACHING",
        name="FreqCa",
        kind="method",
        number=None,
        url=None,
        code_url=None,
        area=None,
    )
    apart = PaperLine(
        id="b",
        title="From Noise to Intent: Anchoring Generative VLA Policies",
        name="ResVLA",
        kind="method",
        number=None,
        url=None,
        code_url=None,
        area=None,
    )
    assert "FreqCa" not in paper_bullet(caps, words)
    assert paper_bullet(apart, words).startswith("- **ResVLA**: From Noise to Intent")


def test_the_name_a_title_leads_with_is_the_papers_name():
    from paperatlas.enrich.pipeline import extract_facts

    folk = extract_facts(
        "FOLK: Fast Open-Vocabulary 3D Instance Segmentation via Distillation",
        "We propose a fast open-vocabulary 3D instance segmentation method via "
        "label-guided knowledge distillation. It improves AP on ScanNet200 by 3 "
        "points over Open3DIS while running 6x faster.",
    )
    assert folk["name"] == "FOLK"
    caps = extract_facts(
        "FREQCA: ACCELERATING DIFFUSION MODELS VIA FREQUENCY-AWARE CACHING",
        "We propose FreqCa, a frequency-aware caching method that cuts the memory "
        "footprint of feature caching by 99% on FLUX.1-dev.",
    )
    assert caps["name"] == "FreqCa"  # the abstract's spelling of the title's name
    title_only = extract_facts("NeuralFur: Animal Fur Reconstruction from Multi-view Images", "")
    assert title_only["name"] == "NeuralFur"
    for plain in (
        "SoK: Attacks on Federated Learning",
        "Position: Benchmarks Are Broken",
        "Retraction: Deep Models of Protein Folding",
    ):
        assert (
            extract_facts(
                plain, "We study attacks on learning systems and argue for better benchmarks of them."
            )["name"]
            is None
        ), plain


def test_show_lists_a_field_once_when_the_record_repeats_it(tmp_path, cli):
    import json

    rows = [
        {
            "id": "R7",
            "title": "Learned Costs for Macro Placement",
            "date": "2026-07-27",
            "session": "Physical Design I",
            "abstract": "We learn a placement cost model from routed layouts and cut placement "
            "runtime by 41% at equal wirelength on twelve industrial blocks.",
        }
    ]
    src = tmp_path / "prog.json"
    src.write_text(json.dumps(rows), encoding="utf-8")
    assert cli("add", src)[0] == 0
    code, out, err = cli("show", "R7")
    assert code == 0, err
    lines = [ln.split()[0] for ln in out.splitlines() if ln.strip()]
    assert lines.count("date") == 1 and "session" in lines


def test_cards_set_apart_a_title_paperatlas_wrote(tmp_path):
    from fastapi.testclient import TestClient

    from paperatlas import Atlas
    from paperatlas.web.app import create_app

    db = tmp_path / "a.db"
    atlas = Atlas(db)
    atlas.add([Path(__file__).parent.parent / "examples" / "iclr2026_sample_list.txt"], list_name="blog")
    atlas.add([FIX / "dblp_keys.bib"], list_name="lab")
    atlas.close()
    with TestClient(create_app(db), base_url="http://127.0.0.1") as client:
        blog = client.get("/papers?list=blog").text
        lab = client.get("/papers?list=lab").text
    assert blog.count('class="written"') == 19  # no title in the list: each one was written
    assert 'class="written"' not in lab and "Time-Bounded Authentication of FPGAs" in lab


def test_a_heading_that_is_a_file_name_is_not_a_paper(tmp_path):
    doc = tmp_path / "README.md"
    doc.write_text(
        "# Example lists\n\n"
        "## Sparse Kernels for Long Context Attention\n\n"
        "We speed up attention over long contexts with block-sparse kernels that skip empty "
        "tiles, and the kernels cut latency by half on 128k tokens across four GPUs.\n\n"
        "## truth.jsonl\n\n"
        "One JSON object per line, one line per file above, with the counts a person would "
        "give and eight samples drawn from the whole file with a fixed seed.\n\n"
        "### `config.yaml`\n\n"
        "The settings of the loader, each with its default value and the range it accepts "
        "when the loader reads the lists of this folder.\n",
        encoding="utf-8",
    )
    titles = [p.title for p in _read(doc)]
    assert "Sparse Kernels for Long Context Attention" in titles
    assert not any(t and (t.endswith(".jsonl") or "config.yaml" in t) for t in titles), titles


def test_filing_keywords_never_label_a_topic():
    # Zotero stores arXiv's subject classes and reading tags as keywords; a DAC program
    # splits keywords into single words: none of them says what a topic is about
    from paperatlas.atlas.labels import _usable, phrase_key

    for filing in (
        "Statistics - Machine Learning",
        "Computer Science - Computation and Language",
        "Unreviewed",
        "Viewed",
        "To Read",
        "machine",
    ):
        assert not _usable(phrase_key(filing)), filing
    for topic in ("machine unlearning", "quantization", "protein-protein interactions"):
        assert _usable(phrase_key(topic)), topic


def test_text_list_copied_from_page_source_has_its_entities_decoded(tmp_path):
    listing = tmp_path / "copied.txt"
    listing.write_text(
        "Title: Sparse Kernels &amp; Long Context Attention\n"
        "Abstract: We speed up attention with block-sparse kernels that skip empty tiles &#8212; "
        "latency halves on 128k tokens, and R&D teams can reuse them.\n\n"
        "Title: Graph Pooling with Learned Clusters\n"
        "Abstract: We pool graphs with learned soft clusters and improve accuracy by 3 points "
        "on citation benchmarks (p &lt; 0.01) over strong baselines.\n",
        encoding="utf-8",
    )
    first, second = _read(listing)
    assert first.title == "Sparse Kernels & Long Context Attention"
    assert "tiles \u2014 latency" in first.abstract and "R&D teams" in first.abstract
    assert "(p < 0.01)" in second.abstract


def test_a_sheet_of_titles_is_read_as_title_only_papers():
    # title, authors, year and no abstract column: a bibliography, not an error
    report = ReadReport()
    papers = _read(Path(__file__).parent / "fixtures" / "sources" / "no_abstract_column.csv", report)
    assert report.format == "csv"
    assert [(p.title, p.authors, p.year, p.title_only) for p in papers] == [
        ("A Paper", ["Ann Lee"], 2025, True)
    ]


def test_a_one_column_list_of_titles(tmp_path):
    sheet = tmp_path / "titles.csv"
    sheet.write_text(
        "Title\nSparse Kernels for Long Context Attention\nGraph Pooling with Learned Clusters\n",
        encoding="utf-8",
    )
    assert [p.title for p in _read(sheet)] == [
        "Sparse Kernels for Long Context Attention",
        "Graph Pooling with Learned Clusters",
    ]


def test_an_echoed_value_with_a_line_separator_keeps_the_error_one_line(cli):
    from paperatlas import Atlas

    Atlas(cli.db).add([FIX / "dblp_keys.bib"], list_name="lab")
    for typed in ("0\x1e0", "a\nb", "x\u2028y"):
        code, _, err = cli("like", typed)
        assert code == 2
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error:"), lines


def test_simple_tex_in_arxiv_titles_reads_as_text(tmp_path):
    rows = tmp_path / "listing.jsonl"
    rows.write_text(
        '{"id": "2509.13672", "title": "CL$^2$GEC: A Benchmark for Grammatical Error Correction", '
        '"abs": "https://arxiv.org/abs/2509.13672", "summary": "We build a benchmark."}\n'
        '{"id": "2509.13673", "title": "$k$-NN Graphs and $\\\\alpha$-Divergences at a $100 and $200 Budget", '
        '"abs": "https://arxiv.org/abs/2509.13673", "summary": "We study graphs."}\n',
        encoding="utf-8",
    )
    titles = [p.title for p in _read(rows)]
    assert titles == [
        "CL\u00b2GEC: A Benchmark for Grammatical Error Correction",
        "k-NN Graphs and $\\alpha$-Divergences at a $100 and $200 Budget",
    ]


def test_the_lists_code_column_makes_a_paper_have_code(tmp_path, cli):
    import json

    rows = [
        {
            "id": "C1",
            "title": "Sparse Kernels for Long Prompts",
            "code": "https://github.com/someone/sparse-kernels",
            "abstract": "We write sparse attention kernels that halve decoding latency on long "
            "prompts without changing the outputs of the model.",
        },
        {
            "id": "C2",
            "title": "Dense Baselines Revisited",
            "abstract": "We revisit dense attention baselines and find that careful tuning closes "
            "half of the gap reported for sparse methods.",
        },
    ]
    src = tmp_path / "list.json"
    src.write_text(json.dumps(rows), encoding="utf-8")
    assert cli("add", src)[0] == 0
    code, out, err = cli("ls", "--has-code")
    assert code == 0, err
    assert "Sparse Kernels" in out and "Dense Baselines" not in out


def test_an_unknown_kind_is_a_usage_error_not_an_empty_table(cli):
    sample = Path(__file__).resolve().parents[1] / "examples" / "iclr2026_sample_list.txt"
    assert cli("add", sample)[0] == 0
    for command in (["ls"], ["search", "graph"]):
        code, out, err = cli(*command, "--kind", "nope")
        assert code == 2 and "nope" in err and "papers" not in out + err
    code, out, _ = cli("ls", "--kind", "benchmark")
    assert code == 0 and "benchmark" in out


def test_one_paper_is_said_in_the_singular(tmp_path, cli):
    src = tmp_path / "one.csv"
    src.write_text(
        'title,abstract\n"Graph pooling","We propose a method for graph pooling that '
        'improves accuracy by 3 points on citation benchmarks over strong baselines."\n',
        encoding="utf-8",
    )
    outputs = [cli("add", src), cli("inspect", src, use_db=False), cli("ls")]
    for code, out, err in outputs:
        assert code == 0, err
        assert "1 paper" in out and "1 papers" not in out


def test_a_failed_add_is_its_error_line_alone(tmp_path, cli):
    binary = tmp_path / "binary.bin"
    binary.write_bytes(bytes(range(256)) * 4)
    code, out, err = cli("add", binary)
    assert code == 2
    lines = [ln for ln in (out + err).splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:") and "binary.bin" in lines[0]


@pytest.mark.slow  # builds an atlas with its map (UMAP) in the test
def test_an_output_path_that_cannot_be_written_fails_before_the_work(tmp_path, monkeypatch, cli):
    from paperatlas.api import Atlas

    sample = Path(__file__).resolve().parents[1] / "examples" / "iclr2026_sample_list.txt"
    assert cli("add", sample)[0] == 0

    def no_work(*args, **kwargs):
        raise AssertionError("the work started before the output path was checked")

    monkeypatch.setattr(Atlas, "build_map", no_work)
    monkeypatch.setattr(Atlas, "export", no_work)
    monkeypatch.setattr(Atlas, "digest", no_work)
    missing = tmp_path / "no" / "such"
    for args in (
        ["map", "--png", str(tmp_path)],
        ["map", "--html", str(missing / "m.html")],
        ["export", "-o", str(missing / "x.csv")],
        ["digest", "-o", str(tmp_path)],
    ):
        code, out, err = cli(*args)
        assert code == 2, args
        lines = [ln for ln in (out + err).splitlines() if ln.strip()]
        assert len(lines) == 1 and lines[0].startswith("error:"), (args, lines)
    assert not missing.exists()


def test_the_same_file_under_another_list_is_unchanged_not_merged(tmp_path):
    from paperatlas.api import Atlas

    sample = Path(__file__).resolve().parents[1] / "examples" / "iclr2026_sample_list.txt"
    atlas = Atlas(tmp_path / "a.db")
    first = atlas.add([sample], list_name="blog", enrich=False)
    again = atlas.add([sample], list_name="blog2", enrich=False)
    once_more = atlas.add([sample], list_name="blog2", enrich=False)
    n = first.added
    assert n > 10 and (again.added, again.merged, again.unchanged, again.joined) == (0, 0, n, n)
    assert (once_more.unchanged, once_more.joined) == (n, 0)
    assert atlas.stats("blog2")["papers"] == n
    # a twin of a stored paper (another record, same text) joining a list is still merged
    twin = tmp_path / "twin.jsonl"
    twin.write_text(
        __import__("json").dumps(
            {
                "id": "T1",
                "title": "A twin",
                "abstract": sample.read_text(encoding="utf-8").split("\n\n")[1].strip(),
            }
        )
        + "\n",
        encoding="utf-8",
    )
    assert atlas.add([twin], list_name="twins", enrich=False).merged == 1
    atlas.close()
