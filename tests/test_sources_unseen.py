"""Lists in shapes the line reader was never shown, read by the record finder: numbered
awesome lines, `[12] Title` headings, `<br>`-separated conference pages, raw HTML tables in
Markdown, bold titles over link lists under topic headings, publication pages, org-mode,
Zotero RIS with attached files, bare title bullets, YAML; and what a bad read says."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperatlas import sources
from paperatlas.errors import InputError
from paperatlas.paper import Paper
from paperatlas.sources import ReadReport
from paperatlas.sources.folder import LIST_SUFFIXES
from paperatlas.sources.quality import FileTally, estimate

FIX = Path(__file__).parent / "fixtures" / "unseen"


def _read(name: str, report: ReadReport | None = None) -> list[Paper]:
    return list(sources.read(FIX / name, report))


def test_numbered_awesome_lines_under_numbered_headings():
    report = ReadReport()
    papers = _read("awesome_numbered.md", report)
    assert len(papers) == 21  # 3 sections of 7; contents and contributing are not papers
    first = papers[0]
    assert first.title == "Federated Planning with Verifiable Rewards"
    assert first.authors == ["Bo Smith", "Dana Müller", "Bo Novak"]
    assert first.urls == ["https://arxiv.org/abs/2305.21265"]
    assert (first.venue, first.year) == ("arXiv", 2024)
    assert first.section == "1. Planning"
    assert all(p.authors for p in papers)
    assert "title = bold link" in (report.pattern or "") and "authors = italic" in (report.pattern or "")


def test_numbering_in_headings_is_not_part_of_the_title():
    papers = _read("bracket_headings.md")
    assert len(papers) == 10
    assert papers[0].title == "Contrastive Retrieval for Robot Control"
    assert not any(p.title and p.title.startswith("[") for p in papers)
    assert papers[0].authors == ["Hiro Zhang", "Ivan Park"]


def test_br_separated_conference_page():
    papers = _read("accepted_br.html")
    assert len(papers) == 16  # 9 long + 7 short, never one paper called "Short Papers"
    assert papers[0].title == "Efficient Priors in the Wild"
    assert papers[0].authors == ["Lena Lee", "Kofi Ivanova", "Omar Lee"]
    assert {p.section for p in papers} == {"Long Papers", "Short Papers"}
    assert "Short Papers" not in {p.title for p in papers}


def test_raw_html_table_inside_a_chinese_digest():
    papers = _read("digest_table_zh.md")
    assert len(papers) == 12  # the rows; the footer link is not a paper
    assert papers[0].title == "Multimodal Agents via Self-Play"
    assert papers[0].authors == ["Gao Tanaka", "Ann Smith"]
    assert all(p.urls and "arxiv.org" in p.urls[0] for p in papers)


def test_bold_titles_over_link_lists_under_topic_headings():
    papers = _read("topics_zh.md")
    assert len(papers) == 16
    titles = {p.title for p in papers}
    assert not titles & {"Avatars", "CLIP", "NeRF", "Diffusion", "目录"}
    assert all(len(p.urls) == 1 and len(p.code_urls) == 1 for p in papers)  # no pooled links
    assert papers[0].section == "Avatars"


def test_publication_page_with_abstracts_and_bibtex():
    papers = _read("publications.html")
    assert len(papers) == 8  # each once, never split; "Publications" and "Teaching" not papers
    assert all(p.abstract.startswith("We introduce a method for") for p in papers)
    assert papers[1].authors[0] == "Dana Park"
    assert not {p.title for p in papers} & {"Publications", "Teaching", "2024", "Dana Park"}


def test_org_mode_reading_list():
    report = ReadReport()
    papers = _read("reading.org", report)
    assert report.format == "org"
    assert len(papers) == 11
    assert not any("TODO" in (p.title or "") or "DONE" in (p.title or "") for p in papers)
    assert papers[0].title == "Bayesian Tokenizers at Scale"
    assert papers[0].authors == ["Hiro Wang", "Eli Garcia"] and papers[0].year == 2024
    assert papers[0].urls == ["https://arxiv.org/abs/2401.24292"]
    assert papers[-1].section == "Language"


def test_restructuredtext_reading_list():
    report = ReadReport()
    papers = _read("reading.rst", report)
    assert report.format == "rst"
    assert [p.section for p in papers] == ["Robotics"] * 3 + ["Language"] * 2
    assert papers[0].title == "Sparse Graph Transformers at Scale"
    assert papers[0].authors == ["Ann Lee", "Bo Chen"] and (papers[0].venue, papers[0].year) == (
        "NeurIPS",
        2024,
    )


def test_ris_attached_files_are_not_links():
    papers = _read("zotero_files.ris")
    assert len(papers) == 6
    assert all(p.urls == [u for u in p.urls if u.startswith("https://arxiv.org/")] for p in papers)
    assert papers[0].extra["files"][0].endswith("Hierarchical Tokenizers on Edge Devices - full text.pdf")


def test_bullet_list_of_titles_is_a_list_of_title_only_papers():
    papers = _read("title_bullets.md")
    assert len(papers) == 40
    assert papers[0].title == "Robust Reasoning for Long Videos" and not papers[0].abstract


def test_yaml_list_of_papers():
    report = ReadReport()
    papers = _read("papers.yaml", report)
    assert report.format == "yaml"
    assert [len(p.authors) for p in papers] == [2] * 5
    assert papers[0].title == "Adaptive Fields from Human Feedback" and papers[0].year == 2024
    assert papers[0].source.endswith("papers.yaml:1") and papers[1].source.endswith("papers.yaml:10")


def test_one_reader_table_for_detection_and_folders():
    assert {".org", ".yaml", ".md", ".ris", ".bib", ".html"} <= LIST_SUFFIXES
    assert {r.name for r in sources.TABLE} >= {"org", "yaml", "markdown", "html", "text", "ris"}
    assert sources.detect(FIX / "reading.org") == "org"
    assert "org-mode" in sources.formats_read() and "YAML list" in sources.formats_read()


def test_quality_names_pooled_links_headings_numbering_and_missed_papers():
    text = " ".join(f"https://arxiv.org/abs/2401.{10000 + i}" for i in range(30))
    pooled = Paper(
        abstract="",
        title="Avatars",
        section="Avatars",
        urls=[f"https://arxiv.org/abs/2401.{10000 + i}" for i in range(5)],
    )
    heading = Paper(abstract="", title="CLIP", section="CLIP", urls=["https://arxiv.org/abs/2401.10005"])
    numbered = [Paper(abstract="", title=f"[{i}] Sparse Paper Number {i}") for i in range(4)]
    problems = " | ".join(estimate([pooled, heading, *numbered], text).problems)
    assert "the file links 30 papers, the papers read link 6" in problems
    assert "hold the links of several papers" in problems
    assert "titles are section headings" in problems
    assert "keep their numbering" in problems


def test_a_list_read_well_has_no_problems():
    papers = _read("awesome_numbered.md")
    assert estimate(papers, (FIX / "awesome_numbered.md").read_text()).problems == []


def test_inspect_shows_the_record_pattern(cli):
    code, out, _ = cli("inspect", FIX / "accepted_br.html", use_db=False)
    assert code == 0
    assert "records: <br>-separated groups: title = bold, authors = plain" in out


def test_a_file_with_no_papers_says_what_it_was_read_as(cli, tmp_path):
    notes = tmp_path / "notes.md"
    notes.write_text(
        "# Tool\n\n[![CI](https://img.shields.io/b.svg)](https://ci.example.org)\n\n## Installation\n\n```\npip install tool\n```\n"
    )
    code, _, err = cli("add", notes)
    assert code == 2
    assert "read as Markdown" in err and "org-mode" in err


_TALKS_AND_PAPERS = (
    "<html><body><h2>Talks</h2><ul>"
    + "".join(
        f'<li><a href="https://example.org/t{i}">Invited talk on robust systems {i}</a></li>'
        for i in range(4)
    )
    + "</ul><h2>Papers</h2>"
    + '<div class="pub"><b>Sparse Graph Transformers at Scale</b><br>Ann Lee, Bo Chen</div>'
    + '<div class="pub"><b>Causal Priors for Robot Control</b><br>Dana Park, Eli Novak</div>'
    + "</body></html>"
)


def test_records_named_by_the_user_are_kept_with_the_list(cli, tmp_path):
    page = tmp_path / "page.html"
    page.write_text(_TALKS_AND_PAPERS)
    code, out, _ = cli("inspect", page, use_db=False)
    assert "2 papers" not in out  # left to itself, the reader takes the talks too
    code, out, _ = cli("add", page, "--list", "pubs", "--records", "div.pub", "--no-enrich")
    assert code == 0 and "2 papers" in out and "the elements named by --records" in out
    code, out, _ = cli("add", page, "--list", "pubs", "--no-enrich")  # read the same way again
    assert code == 0 and "2 papers" in out
    from paperatlas.store import Store

    store = Store(cli.db)
    assert store.lists.records("pubs") == "div.pub"
    assert store.papers.count() == 2
    store.close()


def test_a_heading_level_names_the_records():
    papers = list(sources.read(FIX / "bracket_headings.md", records="h3"))
    assert len(papers) == 10 and papers[0].title == "Contrastive Retrieval for Robot Control"


def test_task_lists_middle_dot_names_quoted_titles_and_et_al():
    papers = _read("checklist.md")
    assert [p.title for p in papers[:3]] == [
        "Sparse Graph Transformers at Scale",
        "Causal Priors for Robot Control",
        "Robust Planning on Edge Devices",
    ]  # the task box is not part of the title, nor the names under it
    assert papers[0].authors == ["Ann Lee", "Bo Chen", "Dana Park"]
    ieee = papers[3]  # `A. Lee, B. Chen, and C. Wu, "Title," in Venue, doi: ...`
    assert ieee.title == "Sparse Attention for Molecule Graphs at Scale"
    assert ieee.authors == ["A. S. Lee", "B. Chen", "C. Wu"] and ieee.year == 2023
    assert ieee.urls == ["https://doi.org/10.1109/DAC.2023.1234567"] and not ieee.abstract
    assert papers[5].authors == ["Hinton"]  # `_Hinton et al._`


def test_yaml_papers_grouped_by_year_with_typed_links():
    papers = _read("grouped.yaml")
    assert [p.title for p in papers] == [
        "Sparse Graph Transformers at Scale",
        "Causal Priors for Robot Control",
        "Robust Planning on Edge Devices",
    ]
    assert papers[0].authors == ["Ann Lee", "Bo Chen", "Dana Park"]  # markup out
    assert papers[0].urls == ["/pub/2024/lee-sparse.pdf"]
    assert papers[0].code_urls == ["https://github.com/annlee/sparse"]


def test_org_tags_properties_and_a_year_after_the_title():
    report = ReadReport()
    papers = _read("tagged.org", report)
    assert report.format == "org"  # no #+TITLE, no drawer on every heading: the tags say org
    first = papers[0]
    assert first.title == "Sparse Graph Transformers at Scale"
    assert first.authors == ["Lee, Ann", "Chen, Bo"]  # BibTeX's `and`, surname first
    assert first.venue == "Advances in Neural Information Processing Systems" and first.year == 2024
    assert papers[1].authors == ["Novak, Eli"]
    assert (papers[2].title, papers[2].year) == ("Kernel Methods for Deep Learning", 2009)


def test_links_in_org_headings_and_yaml_link_keys(tmp_path):
    org = tmp_path / "notes.org"
    org.write_text(
        "* Scheduling :ignore:\n"
        "** Combining register allocation and instruction scheduling :ignore:\n"
        "   :PROPERTIES:\n   :AUTHOR:   Motwani, Rajeev and Palem, Krishna V\n   :END:\n"
        "*** COMMENT [[https://arxiv.org/pdf/1804.02452.pdf][Combining Register Allocation]]\n"
        "** Software pipelining on multi-core architectures :ignore:\n"
        "   :PROPERTIES:\n   :AUTHOR:   Douillet, Alban and Gao, Guang R\n   :END:\n"
    )
    papers = list(sources.read(org))
    assert papers[0].urls == ["https://arxiv.org/pdf/1804.02452.pdf"]
    yml = tmp_path / "pubs.yml"
    yml.write_text(
        '- title: "Drifting Field Policies for One-Step Control"\n  authors:\n    - name: Juil Koo\n'
        "    - name: Mingue Park\n  arXiv: https://arxiv.org/abs/2605.07727\n"
        '- title: "Token Warping Helps Models Look Around"\n  authors:\n    - name: Phillip Lee\n'
        "  pdf: /assets/token-warping.pdf\n"
    )
    papers = list(sources.read(yml))
    assert papers[0].urls == ["https://arxiv.org/abs/2605.07727"] and papers[0].authors == [
        "Juil Koo",
        "Mingue Park",
    ]
    assert papers[1].urls == ["/assets/token-warping.pdf"]


def test_a_venue_line_is_the_venue_never_an_abstract(tmp_path):
    page = tmp_path / "pubs.md"
    page.write_text(
        "# Publications\n\n"
        "1. *GoodTP: Data Selection for Trajectory Similarity Learning.*  <br> **Haitao Yuan**, Gao Cong<br>"
        " ***SIGMOD 2026, CCF-A***.\n<br>\n\n"
        "1. *GeoKGM: A Multimodal Model for Geospatial Knowledge Graphs.*  <br> Zhihang Zheng, **Haitao Yuan**"
        "<br> ***SIGMOD 2026, CCF-A***.\n<br>\n\n"
        "1. *CARROT: A Learned Cost-Constrained Retrieval Optimizer.*  <br> Ziting Wang, Haitao Yuan<br>"
        " ***ICDE 2026, CCF-A***.\n<br>\n"
    )
    papers = list(sources.read(page))
    assert [(p.venue, p.year, p.abstract) for p in papers] == [("SIGMOD", 2026, "")] * 2 + [
        ("ICDE", 2026, "")
    ]
    assert papers[1].authors == ["Zhihang Zheng", "Haitao Yuan"]


def test_milder_signs_are_named_too():
    papers = [
        Paper(abstract="", title=f"Sparse Paper Number {i}", authors=["Ann Lee"] if i % 4 else [])
        for i in range(12)
    ]
    # authors missing on a few (a misread?); links missing on all (a list without links) is no sign
    assert estimate(papers, "").notes == ["3 of 12 papers have no authors (the others have)"]


def test_records_of_the_pattern_left_out_are_named(tmp_path):
    rows = [
        f"| 2024-05-0{i} | Sparse Graph Transformers Number {i} | Ann Lee | [pdf](https://arxiv.org/abs/2405.0{i}000) |"
        for i in range(1, 9)
    ]
    rows += [f"| 2024-05-1{i} | | Bo Chen | [pdf](https://arxiv.org/abs/2405.1{i}000) |" for i in range(3)]
    path = tmp_path / "daily.md"
    path.write_text(
        "# Daily\n\n| Date | Title | Authors | PDF |\n|---|---|---|---|\n" + "\n".join(rows) + "\n"
    )
    report = ReadReport()
    assert len(list(sources.read(path, report, records="tr"))) == 8
    assert any("3 of 11 records of the pattern found held no title" in w for w in report.warnings)


def test_al_folio_arxiv_field_is_the_papers_link(tmp_path):
    bib = tmp_path / "papers.bib"
    bib.write_text(
        "@string{ICML = {International Conference on Machine Learning}}\n"
        "@inproceedings{zhao2024videoprism,\n  bibtex_show = {true},\n"
        "  title={VideoPrism: A Foundational Visual Encoder for Video Understanding},\n"
        "  author={Long Zhao and Nitesh Gundavarapu},\n  booktitle = ICML,\n  year={2024},\n"
        "  arxiv = {2402.13217},\n  selected = {true}\n}\n"
    )
    [paper] = list(sources.read(bib))
    assert paper.urls == ["https://arxiv.org/abs/2402.13217"]


def test_markdown_between_raw_html_details_tags_belongs_to_its_record():
    """`<details><summary>Title</summary>` ... Markdown links and a quote ... `</details>`:
    each paper keeps its own links and text, never its neighbour's."""
    papers = _read("details_digest.md")
    assert [p.title for p in papers] == [
        "Sparse Routers for Streaming Speech Recognition",
        "Counting Objects in Aerial Images without Boxes",
        "Tabular Agents that Check Their Own Joins",
        "Low-Rank Adapters Forget Less Than Full Fine-Tuning",
    ]
    for number, paper in enumerate(papers, 1):
        assert f"https://arxiv.org/abs/2608.1000{number}" in paper.urls
        assert all(f"2608.1000{number}" in u for u in paper.urls)
    assert papers[1].abstract.startswith("Density maps learned from point labels")
    assert papers[2].code_urls == ["https://github.com/lab-two/join-check"]


def test_a_record_repeated_under_another_key_is_read_once_and_counted():
    report = ReadReport()
    papers = _read("library_repeats.bib", report)
    titles = [p.title for p in papers]
    assert titles.count("Endogenous Technological Change") == 1
    assert report.skipped["repeats an earlier record whole (same title, authors, year, links, abstract)"] == 2


def test_a_data_repository_doi_or_a_web_address_is_no_sign_of_a_paper():
    """@misc with a Zenodo or UK Data Service DOI (software, data), or published at a web
    address (`www.who.int`: no venue), is left out; @misc with a paper's DOI (an SSRN working
    paper) is kept."""
    report = ReadReport()
    titles = [p.title for p in _read("library_repeats.bib", report)]
    assert "Bank Networks and Contagion: A Working Paper" in titles
    assert not any("Census" in t or "Software and Results" in t or "Activity" in t for t in titles)
    assert sum(n for reason, n in report.skipped.items() if reason.startswith("not a paper (@misc")) == 3


def test_a_big_file_read_as_one_record_is_named(tmp_path):
    """A 60 KB Markdown file whose numbered lines sit in one fenced block reads as the one
    paper outside it: refused, naming the lines the file repeats (`sources.selfcheck`); read
    without a report, the tally still says the file holds far more than was read."""
    lines = [f"{i}. Paper number {i} on graph learning, by Ann Lee and Bo Chen" for i in range(1, 900)]
    path = tmp_path / "list.md"
    path.write_text(
        "# Reading list\n\n- **Sparse Graph Structure from Node Features** Ann Lee, Bo Chen. 2024.\n\n"
        "```\n" + "\n".join(lines) + "\n```\n"
    )
    with pytest.raises(
        InputError, match=r"list.md:1: read as a single paper, yet the file has 899 numbered lines"
    ):
        list(sources.read(path, ReadReport()))
    tally = FileTally(path.stat().st_size)
    for paper in sources.read(path):
        tally.see(paper)
    assert tally.records == 1
    assert any("KB besides its abstracts, and only 1 record read" in w for w in tally.problems())


def test_org_bodies_hold_lists_and_tables_of_papers():
    """An org table (before any heading) and `- [[url][Title]] (Names, 2014)` list items
    under a topic heading are papers, the topic never one; a source block is code."""
    papers = _read("org_lists_tables.org")
    assert [p.title for p in papers] == [
        "Semi-Supervised Classification with Graph Convolutional Networks",
        "Graph Attention Networks",
        "Auto-Encoding Variational Bayes",
        "Generative Adversarial Networks",
        "Denoising Diffusion Probabilistic Models",
        "Toolformer: Language Models Can Teach Themselves to Use Tools",
        "LLaMA: Open and Efficient Foundation Language Models",
    ]
    assert papers[0].authors == ["Thomas Kipf", "Max Welling"]
    assert papers[0].urls == ["https://arxiv.org/abs/1609.02907"]
    assert papers[2].authors == ["Kingma", "Welling"] and papers[2].urls == [
        "https://arxiv.org/abs/1312.6114"
    ]
    assert papers[3].year == 2014


def test_a_surname_before_et_al_is_the_first_author():
    papers = _read("org_lists_tables.org")
    assert [p.authors for p in papers[3:7]] == [["Goodfellow"], ["Ho"], ["Schick"], ["Touvron"]]


def test_rest_references_keep_initials_and_surname_first_names():
    """`- G. Bellocchi, ...` (docutils reads `G.` as a one-item alphabetic list) keeps its
    first initial; `Palmblad, M., Lamprecht, A-L` are two names, not four; a lead-in line
    ending with a colon is never a paper."""
    papers = _read("publications.rst")
    assert [p.authors[0] for p in papers] == [
        "Lee, A.",
        "Palmblad, M.",
        "G. Bellocchi",
        "P. Meloni",
        "F. Conti",
    ]
    assert papers[1].authors == ["Palmblad, M.", "Lamprecht, A-L", "Ison, J.", "Schwammle, V."]
    assert not any("please cite" in (p.title or "") for p in papers)


def test_workshop_pages_name_the_authors():
    """Names with their affiliations in brackets, and `Title. Ann Lee, Bo Chen. [[paper]]`
    lines: the names are the authors, never part of the title or lost."""
    for name in ("workshop_affiliations.md", "workshop_title_then_names.md"):
        papers = _read(name)
        assert [p.title for p in papers] == [
            "Sparse Routers for Streaming Speech Recognition",
            "Counting Objects in Aerial Images without Boxes",
            "Tabular Agents that Check Their Own Joins",
            "Low-Rank Adapters Forget Less Than Full Fine-Tuning",
        ], name
        assert [p.authors[0] for p in papers] == ["Ann Lee", "Carla Diaz", "Eve Fischer", "Gina Hu"], name
        assert papers[3].authors[1] == "Hal Ito" and papers[3].urls[0].endswith("abc4")


def test_a_sheet_whose_title_column_is_named_paper():
    report = ReadReport()
    papers = _read("paper_column.tsv", report)
    assert report.format == "csv"
    assert papers[0].title == "Sparse Routers for Streaming Speech Recognition"
    assert papers[0].authors == ["Ann Lee", "Bo Chen"] and len(papers) == 3


def test_a_sheet_read_as_text_is_named():
    """A CSV with no header row is read as text (one 'paper'): the warning says so."""
    report = ReadReport()
    papers = _read("no_header.csv", report)
    assert len(papers) == 1
    assert any("a sheet's delimiters" in w and "CSV/TSV" in w for w in report.warnings)


def test_names_as_abstracts_institutions_as_authors_and_bare_short_titles_are_named():
    names = [
        Paper(abstract="Ann Lee, Bo Chen", title=f"Sparse routing for speech model number {i}")
        for i in range(5)
    ]
    places = [
        Paper(abstract="", title=f"Counting objects in aerial images {i}", authors=["Stanford University"])
        for i in range(5)
    ]
    bare = [
        Paper(abstract="", title=word) for word in ("Overview", "Installation", "Contributing", "License")
    ]
    text = "\n".join(f"[paper](https://arxiv.org/abs/2401.{10000 + i})" for i in range(8))
    problems = " | ".join(
        estimate(names, "").problems + estimate(places, "").problems + estimate(bare, text).problems
    )
    assert "5 of 5 abstracts are only person names" in problems
    assert "5 of 5 first authors name an institution" in problems
    assert "4 of 4 papers are a title of three words or fewer and nothing else" in problems
    assert "8 of the 8 links to papers in the file are on no paper read" in problems


def test_by_lines_are_authors_and_a_title_naming_data_keeps_its_paper_link():
    papers = _read("accepted_by_lines.md")
    assert [p.title for p in papers] == [
        "Data Distribution Valuation for Sparse Routers",
        "Imbalanced Data Classification with Contrastive Learning",
        "Measuring Diversity in Datasets",
        "On the Scalability of GNNs for Molecular Graphs",
        "Feedback-guided Data Synthesis for Imbalanced Classification",
    ]
    assert [p.authors[0] for p in papers] == [
        "Xinyi Xu",
        "Cara Lee",
        "Dora Zhao",
        "Maciej Sypetkowski",
        "Reyhane Askari Hemmat",
    ]
    assert papers[0].urls == ["https://openreview.net/pdf?id=oUUokjhAZw"] and not papers[0].code_urls
    assert papers[1].urls == ["https://openreview.net/pdf?id=e641mv2xsf"]


def test_a_short_link_text_names_the_paper_it_links_to():
    """`CIS/EFP`, `DNA bases`: too short for a title anywhere else, but the text of the one
    link to a paper an item holds; a link labelled `Code` is never a paper."""
    papers = _read("short_link_names.rst")
    assert [p.title for p in papers] == [
        "The first EFP paper (1996)",
        "CIS/EFP",
        "DNA bases",
        "Exchange-repulsion energy in QM/EFP",
    ]
    assert papers[1].urls == ["https://doi.org/10.1021/jp0627325"]


def test_a_reference_line_gives_names_title_and_venue():
    """`.. [Lee2024] A. Lee and B. Chen. Title. In ICASSP, 2024. url`: the names before the
    first full stop that ends no initial are the authors, the next sentence the title."""
    papers = _read("citations.rst")
    assert [p.title for p in papers] == [
        "Sparse Routers for Streaming Speech Recognition",
        "Counting Objects in Aerial Images without Boxes",
        "Tabular Agents that Check Their Own Joins",
        "Low-Rank Adapters Forget Less Than Full Fine-Tuning",
    ]
    assert papers[0].authors == ["A. Lee", "B. Chen"] and papers[0].year == 2024
    assert papers[0].venue == "ICASSP" and papers[3].urls == ["https://arxiv.org/abs/2401.00004"]


def test_add_shows_the_record_pattern_when_a_child_process_read_the_file(cli, monkeypatch):
    monkeypatch.setenv("PAPERATLAS_ADD_WORKER", "1")  # big files are read in a child process
    code, out, _ = cli("add", FIX / "accepted_br.html", "--list", "accepted")
    assert code == 0
    assert "records: <br>-separated groups: title = bold, authors = plain" in out
