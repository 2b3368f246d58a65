"""Lists people actually have: Markdown digests, Chinese posts, awesome lists, RIS, CSL-JSON,
the arXiv e-mail, OpenReview v1, BibTeX with accents, UTF-16, folders; what readers skip."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paperatlas import sources
from paperatlas.errors import InputError
from paperatlas.identifiers import arxiv_id, doi, find_identifiers, link_kind, openreview_id, split_links
from paperatlas.paper import Paper, paper_id, text_hash
from paperatlas.sources import ReadReport

FIX = Path(__file__).parent / "fixtures" / "lists"
EXAMPLE = Path(__file__).parent.parent / "examples" / "iclr2026_sample_list.txt"


def _read(name, report=None):
    return list(sources.read(FIX / name, report))


def _by_title(papers):
    return {p.title: p for p in papers}


# -- Markdown entries ---------------------------------------------------------------------


def test_digest_with_badges_details_and_usage_sections():
    report = ReadReport()
    papers = _read("digest_badges.md", report)
    assert report.format == "markdown"
    assert [p.title for p in papers] == [
        "Sparse Prefill Attention for Long Contexts",
        "Quantised KV Caches Without Calibration",
        "Speculative Decoding with Tiny Drafts",
    ]
    first = papers[0]
    assert first.authors == ["Lena Park", "Omar Haddad", "Wei Zhang"]
    assert first.urls == ["https://arxiv.org/abs/2603.01234"]
    assert first.identifiers == {"arxiv": "2603.01234"}  # "2603.01234v2" without its version
    assert first.date == "2026-03-01" and first.year == 2026
    assert first.section == "Recent Papers"
    # the abstract under "#### Abstract", hard-wrapped lines joined; the AI summary is not in it
    assert first.abstract.startswith("Long prompts make the prefill phase of transformer inference")
    assert "论文总结" not in first.abstract and "Dense" not in first.abstract
    assert papers[2].authors == ["Kenji Mori"]
    # badges, statistics, the <details> headings and the usage sections are not papers
    titles = " ".join(p.title for p in papers)
    assert "Fork" not in titles and "Statistics" not in titles and "主要贡献" not in titles


def test_chinese_labelled_digest():
    papers = _read("chinese_digest.md")
    assert len(papers) == 3
    legged, grasp, slam = papers
    assert legged.title == "Legged Navigation with Learned Terrain Maps"
    assert legged.authors == ["Chen Li", "Maria Rossi", "Tom Baker"]  # ⭐ dropped
    assert legged.abstract.startswith("足式机器人在复杂地形中导航仍然困难。")
    assert legged.urls == ["http://arxiv.org/abs/2604.11111v1"]
    assert legged.identifiers["arxiv"] == "2604.11111"
    assert legged.code_urls == ["https://github.com/chenli/legged-nav"]
    assert legged.date == "2026-04-23"
    assert ":" not in grasp.authors and grasp.authors[0] == "Ravi Kumar"
    # numbering restarts in the second section; the section heading is never a title
    assert [legged.section, grasp.section, slam.section] == ["Highlight", "Highlight", "Poster"]
    assert slam.title == "Lifelong SLAM Under Seasonal Change"


def test_second_pass_section_merges_into_the_first():
    papers = _read("chinese_twice.md")
    assert len(papers) == 3  # 6 headings, 3 papers
    fast, merging, untitled = papers
    # the labelled English 摘要 wins over the unlabelled Chinese brief of the first pass
    assert fast.abstract.startswith("Diffusion models repeat nearly the same computation")
    assert merging.title == "Token Merging for Vision Transformers at Scale"
    assert merging.abstract == "" and merging.title_only  # 摘要 left empty
    assert untitled.title is None  # "### 3." twice: merged by its number
    assert untitled.abstract.startswith("Outliers in activations")


def test_awesome_list_tables():
    report = ReadReport()
    papers = _read("awesome_table.md", report)
    by_title = _by_title(papers)
    assert set(by_title) == {
        "A Survey of Efficient Vision Models",
        "Structured Pruning for Transformers in One Shot",
        "Movement Pruning Revisited",
        "Four-Bit Training of Language Models",
        "TinyBench: Measuring Small Model Quality",
    }
    assert all(p.title_only for p in papers)
    pruning = by_title["Structured Pruning for Transformers in One Shot"]
    assert pruning.urls == ["https://arxiv.org/pdf/2502.00002"]
    assert pruning.code_urls == ["https://github.com/example/prune"]
    assert pruning.venue == "ICML" and pruning.date == "2025-02-01" and pruning.section == "Pruning"
    assert not any("shields.io" in u for p in papers for u in p.urls + p.code_urls)
    # the dataset table names the paper in its Paper column; the same arXiv id merges
    four = by_title["Four-Bit Training of Language Models"]
    assert four.identifiers == {"arxiv": "2504.00004"}
    assert "https://huggingface.co/datasets/example/quanteval" in four.code_urls
    survey = by_title["A Survey of Efficient Vision Models"]
    assert survey.venue == "arXiv" and survey.year == 2025 and survey.section == "Highlights"
    assert survey.code_urls == ["https://github.com/example/efficient-survey"]
    assert by_title["Movement Pruning Revisited"].code_urls == [
        "https://huggingface.co/spaces/example/movement"
    ]


def test_plain_text_list_keeps_its_reader():
    assert sources.detect(EXAMPLE) == "text"
    papers = list(sources.read(EXAMPLE))
    assert len(papers) == 19 and all(p.abstract for p in papers)


# -- record formats --------------------------------------------------------------------


def test_ris():
    report = ReadReport()
    papers = _read("refs.ris", report)
    assert report.format == "ris"
    assert [p.title for p in papers] == [
        "Graph Embeddings for Protein Interaction Networks: A Review of Methods and Benchmarks",
        "Structural Node Embeddings",
        "Contrastive Learning of Protein Complexes",
    ]
    review = papers[0]
    assert review.authors == ["Anna Müller", "Bo Lee"]
    assert review.abstract == (
        "Protein interaction networks can be embedded into vector spaces. "
        "We review thirty methods and compare them on five benchmarks."
    )
    assert review.identifiers == {"doi": "10.1000/abc.123"}
    assert review.urls == ["https://doi.org/10.1000/ABC.123"]
    assert review.code_urls == ["https://github.com/annamueller/ppi-embed"]
    assert review.venue == "Bioinformatics Reviews" and review.date == "2021-06-15"
    assert review.keywords == ["graphs", "proteins"]
    assert dict(report.skipped) == {"not a paper (TY COMP)": 1}
    assert report.examples["not a paper (TY COMP)"] == [25]


def test_csl_json():
    report = ReadReport()
    papers = _read("refs_csl.json", report)
    assert report.format == "csl"
    survival, hogwild, cpus = papers
    assert survival.authors == ["Jared Katz", "Uri Shah"]
    assert survival.abstract.startswith("Medical practitioners") and "<jats" not in survival.abstract
    assert survival.date == "2018-02-26" and survival.year == 2018
    assert survival.venue == "BMC Medical Research Methodology"
    assert survival.identifiers["doi"] == "10.1186/s12874-018-0482-1"
    assert hogwild.identifiers["arxiv"] == "1106.5730" and hogwild.title_only
    assert cpus.authors == ["Vincent Vanhoucke"]  # a web page that is a publication page
    assert report.skipped_total == 2
    assert any("post-weblog" in reason for reason in report.skipped)


def test_arxiv_listing_email():
    report = ReadReport()
    papers = _read("arxiv_mail.txt", report)
    assert report.format == "arxiv-mail"
    new, cross, replaced = papers
    assert new.title == "Planning with Counterfactual Scenarios in Long Horizon Tasks"
    assert new.authors == ["Nina Gold", "Frank Leone", "Ute Kang"]
    assert new.id == "2508.11111" and new.urls == ["https://arxiv.org/abs/2508.11111"]
    assert new.identifiers == {"arxiv": "2508.11111", "doi": "10.1000/kr.2025.7"}
    assert new.abstract.startswith("Counterfactual explanations describe how an input would")
    assert new.abstract.endswith("long-horizon tasks.") and new.date == "2025-08-28"
    assert new.extra["categories"] == ["cs.AI", "cs.LG"]
    assert cross.extra["cross_listing"] is True
    assert replaced.title_only and replaced.year == 2023  # first version's month from the id


def test_openreview_v1_notes():
    routed, bare = _read("openreview_v1.json")
    assert routed.title == "Learning to Route Tokens" and routed.authors == ["Ann Lee", "Bo Chen"]
    assert routed.urls[0] == "https://openreview.net/forum?id=HkgV1abcde"
    assert routed.identifiers["openreview"] == "HkgV1abcde"
    assert routed.extra["tl;dr"] == "A router you can train."
    assert bare.title_only and bare.authors == ["Cy Dee"]


def test_program_json_skips_keynotes_and_panels():
    report = ReadReport()
    papers = _read("program.json", report)
    assert [p.title for p in papers] == [
        "Fast Placement with Learned Costs",
        "Late Breaking Results: Tiny Routers",
    ]
    assert dict(report.skipped) == {"not a paper (type keynote)": 1, "not a paper (type panel)": 1}
    assert report.examples["not a paper (type keynote)"] == [4]  # its own line in the document


def test_paper_copilot_rating_mean_and_spread():
    [paper] = _read("copilot_rating.json")
    assert paper.rating == 5.75  # rating_avg is [mean, std], not two ratings
    assert paper.extra["rating_std"] == 1.48
    assert paper.extra["ratings"] == [6, 4, 8, 5]
    assert paper.decision == "Poster"


def test_arxiv_snapshot_date_from_first_version():
    [paper] = _read("arxiv_versions.jsonl")
    assert paper.year == 2007 and paper.date == "2007-04-02"  # not update_date's 2008


# -- BibTeX ------------------------------------------------------------------------------


def test_bibtex_accents_broken_records_and_non_papers():
    report = ReadReport()
    papers = _read("accents.bib", report)
    assert [p.id for p in papers] == ["rugamer2023", "arxivonly2024", "dblp2025", "nerf2020"]
    paper = papers[0]
    assert paper.title == "Semi-Structured Regression with Deep Networks"
    assert paper.authors == ["David Rügamer", "Ivan Šarić", "Zoë Dupré"]
    assert paper.abstract == (
        "We combine structured models with deep networks; 50% of the "
        "effects stay interpretable & the rest are learned. Costs are "
        r"$\mathcal{O}(n)$."
    )
    assert paper.identifiers == {"doi": "10.5555/abc.2023.1"}
    assert papers[1].identifiers == {"arxiv": "2401.09999"} and papers[1].title_only
    # a field given twice: both links kept, the DOI one first
    assert papers[2].urls == [
        "https://doi.org/10.1145/3768343",
        "https://raw.githubusercontent.com/lab/site/main/papers/watermark.pdf",
    ]
    # a DOI given twice: the first valid one (Zotero writes a truncated "10.1007" first)
    assert papers[3].identifiers == {"doi": "10.1007/978-3-030-58452-8_24"}
    assert papers[3].urls == ["https://doi.org/10.1007/978-3-030-58452-8_24"]
    assert papers[3].venue == "Computer Vision – ECCV 2020"
    assert report.skipped["malformed BibTeX entry"] == 1
    assert report.examples["malformed BibTeX entry"] == [12]
    assert report.skipped_total == 3  # + the blog post @misc and the @book


NAMES = [
    "Rügamer",
    "Šarić",
    "Dupré",
    "Zoë",
    "Øyvind",
    "Łukasz",
    "Núñez",
    "Gödel",
    "Çelik",
    "Fernández-López",
    "Ångström",
]


@pytest.mark.parametrize("name", NAMES)
def test_bibtex_latex_round_trip(tmp_path, name):
    """Unicode -> LaTeX (pylatexenc's encoder, as an exporter writes it) -> our reader."""
    from pylatexenc.latexencode import unicode_to_latex

    title = f"{name}'s Theorem & 10% of Graphs_v2"
    path = tmp_path / "round.bib"
    path.write_text(
        "@article{k,\n"
        f"  title = {{{{{unicode_to_latex(title)}}}}},\n"
        f"  author = {{{unicode_to_latex(name)}, Ann and Lee, Bo}},\n"
        "  year = {2020},\n}\n",
        encoding="utf-8",
    )
    [paper] = sources.read(path)
    assert paper.title == title
    assert paper.authors == [f"Ann {name}", "Bo Lee"]


# -- record types, encodings, files --------------------------------------------------------


def test_wrongly_typed_records_are_skipped_with_their_lines():
    report = ReadReport()
    papers = _read("bad_types.jsonl", report)
    assert [p.id for p in papers] == ["ok1", "titleonly"]
    assert papers[1].title_only
    assert report.examples == {
        "abstract is a number, not text": [2],
        "abstract is a dict, not text": [3],
        "abstract is a list, not text": [4],
        "abstract is null and there is no title": [5],
    }
    assert not any("{" in p.abstract for p in papers)  # never a Python repr


def test_a_file_whose_only_record_is_bad_is_refused():
    with pytest.raises(InputError) as info:
        _read("only_bad.jsonl")
    assert "title is a dict" in str(info.value) and info.value.line == 1
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("name, count", [("utf16_bom.txt", 2), ("utf16le_nobom.txt", 1)])
def test_utf16_is_read(name, count):
    papers = _read(name)
    assert len(papers) == count
    assert papers[0].title == "Reading Wide Files"
    assert papers[0].abstract.startswith("Lists saved by some editors are UTF-16")


def test_utf32_is_read(tmp_path):
    path = tmp_path / "wide32.txt"
    path.write_bytes("Title: Thirty-Two Bits\nAbstract: A UTF-32 list is still a list.\n".encode("utf-32"))
    [paper] = sources.read(path)
    assert paper.title == "Thirty-Two Bits"


def test_fifo_is_refused_at_once(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    errors: list[Exception] = []
    worker = threading.Thread(
        target=lambda: errors.append(_catch(lambda: list(sources.read(fifo)))), daemon=True
    )
    worker.start()
    worker.join(5)
    assert not worker.is_alive(), "reading a FIFO with no writer hung"
    assert isinstance(errors[0], InputError) and "FIFO" in str(errors[0])


def _catch(fn):
    try:
        fn()
    except Exception as exc:
        return exc
    return None


def test_folder_with_front_matter_posts():
    report = ReadReport()
    papers = list(sources.read(FIX / "posts", report))
    assert report.format == "folder"
    by_title = _by_title(papers)
    post = by_title["Learning Sparse Structure with Gradient Descent"]
    assert post.authors == ["Ann Lee", "Bo Chen"] and post.year == 2023
    assert post.abstract.startswith("We study how gradient descent learns sparse structure")
    assert post.urls == ["https://proceedings.mlr.press/v202/lee23a/lee23a.pdf"]
    assert post.code_urls == ["https://github.com/annlee/sparse"]
    assert "Robust Models by Averaging Weights" in by_title  # the README, read as a list
    assert len(papers) == 2
    assert report.skipped_total == 1  # the notes post has no abstract: not a paper


# -- identifiers and ids -----------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("https://arxiv.org/abs/2501.01234v2", "2501.01234"),
        ("http://arxiv.org/pdf/2501.01234v1.pdf", "2501.01234"),
        ("arXiv:cs/0601001v3", "cs/0601001"),
        ("see arXiv: 1706.03762", "1706.03762"),
        ("https://arxiv.org/abs/math.GT/0309136", "math.GT/0309136"),
        ("https://www.alphaxiv.org/abs/2510.09283", "2510.09283"),
        ("https://example.org/2501.01234", None),
    ],
)
def test_arxiv_ids(text, expected):
    assert arxiv_id(text) == expected


def test_dois_openreview_and_links():
    assert doi("https://doi.org/10.1145/ABC.123.") == "10.1145/abc.123"
    assert doi("(doi: 10.1000/xyz)") == "10.1000/xyz"
    assert doi("https://doi.org/10.1145/3581784.3607051?utm_source=x") == "10.1145/3581784.3607051"
    assert openreview_id("https://openreview.net/forum?id=AbC-12_x") == "AbC-12_x"
    assert find_identifiers("https://doi.org/10.48550/arXiv.2401.00001") == {
        "doi": "10.48550/arxiv.2401.00001",
        "arxiv": "2401.00001",
    }
    assert link_kind("https://github.com/a/b") == "code"
    assert link_kind("https://huggingface.co/spaces/a/b") == "code"
    assert link_kind("https://aclanthology.org/2023.acl-long.1.pdf") == "paper"
    assert link_kind("https://lab.github.io/project") == "project"
    assert split_links(["https://arxiv.org/abs/1", "https://github.com/x/y", "https://arxiv.org/abs/1"]) == (
        ["https://arxiv.org/abs/1"],
        ["https://github.com/x/y"],
    )


def test_title_only_ids_are_stable_and_abstract_ids_unchanged():
    assert paper_id(Paper(title="A Title")) == paper_id(Paper(title="a  title!"))
    assert paper_id(Paper(title="A Title")) != paper_id(Paper(title="Another Title"))
    by_arxiv = paper_id(Paper(title="X", identifiers={"arxiv": "2501.01234"}))
    assert by_arxiv == paper_id(Paper(title="Y", identifiers={"arxiv": "2501.01234"}))
    abstract = "We prove a theorem."
    assert paper_id(Paper(abstract, title="T")) == "h" + text_hash(abstract)[:15]


# -- property: the entry reader keeps every title line's title, one entry each -------------

_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=3, max_size=9)
_TITLE = st.lists(_WORD, min_size=2, max_size=9).map(lambda ws: " ".join(w.capitalize() for w in ws))
_STYLES = ("heading", "heading_link", "numbered_bold", "bullet_link", "table")


def _render(titles, style, with_body):
    lines = ["# A reading list", ""]
    if style == "table":
        lines += ["| Title | Venue |", "|:---|:---:|"]
    for i, title in enumerate(titles, 1):
        url = f"https://arxiv.org/abs/2501.{10000 + i}"
        if style == "heading":
            lines += [f"### {i}. {title}", ""]
        elif style == "heading_link":
            lines += [f"### {i}. [{title}]({url})", ""]
        elif style == "numbered_bold":
            lines += [f"{i}. **{title}**"]
        elif style == "bullet_link":
            lines += [f"- [{title}]({url})"]
        else:
            lines += [f"| [**{title}**]({url}) | arXiv |"]
            continue
        if with_body:
            lines += [
                "**Authors**: Ann Lee, Bo Chen",
                "**Abstract**: We study the question in "
                "this paper and find a clear answer on every benchmark we tried.",
                "",
            ]
        elif style.startswith("heading"):
            lines += [
                "We study the question in this paper and find a clear answer on every "
                "benchmark we tried, again and again.",
                "",
            ]
    return "\n".join(lines) + "\n"


@pytest.mark.slow  # property test: hundreds of generated inputs
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    titles=st.lists(_TITLE, min_size=1, max_size=8, unique_by=lambda t: t.lower()),
    style=st.sampled_from(_STYLES),
    with_body=st.booleans(),
)
def test_entry_reader_keeps_titles_and_never_merges_numbered_entries(tmp_path, titles, style, with_body):
    path = tmp_path / f"list_{style}.md"
    path.write_text(_render(titles, style, with_body), encoding="utf-8")
    papers = list(sources.read(path))
    assert [p.title for p in papers] == titles
    if with_body and style != "table":
        assert all(p.authors == ["Ann Lee", "Bo Chen"] for p in papers)


def test_bullet_list_with_labelled_links():
    papers = _read("bullets.md")
    by_title = _by_title(papers)
    assert list(by_title) == [
        "Value Iteration Networks (VIN)",
        "Trust Region Policy Optimization (TRPO)",
        "Planning with Learned Latent Dynamics",
        "Playing Atari with Deep Reinforcement Learning",
    ]
    trpo = by_title["Trust Region Policy Optimization (TRPO)"]
    assert trpo.urls == ["https://arxiv.org/abs/1502.05477"]
    assert trpo.code_urls == ["https://github.com/example/trpo"]
    planet = by_title["Planning with Learned Latent Dynamics"]
    assert planet.authors == ["Danijar Hafner", "Timothy Lillicrap", "Ian Fischer"]
    assert planet.identifiers == {"arxiv": "1811.04551"} and planet.section == "Model-based Learning"
    assert by_title["Playing Atari with Deep Reinforcement Learning"].section == "Reference"


def test_plain_chinese_labels_without_markdown():
    report = ReadReport()
    first, second = _read("zh_plain_labels.txt", report)
    assert report.format == "markdown"  # the entry reader, not the paragraph reader
    assert first.title == "Efficient Attention via Sparse Routing"
    assert first.authors == ["张三", "Li Si", "Wang Wu"]
    assert first.urls == ["https://arxiv.org/abs/2510.01234"]
    assert first.code_urls == ["https://github.com/foo/sparse-routing"]
    assert first.abstract.startswith("我们提出了一种稀疏路由注意力机制")
    assert second.title == "Graph Transformers for Molecules" and second.authors == ["Zhao Liu"]


def test_plain_english_labels_with_links():
    first, second = _read("en_labels_links.txt")
    assert first.authors == ["Ann Lee", "Bo Chen"]  # "Link:" is not part of the authors
    assert first.urls == ["https://arxiv.org/abs/2510.01234"]
    assert second.title == "Graph Transformers for Molecules" and not second.urls


def test_publication_list():
    papers = _read("publications.md")
    assert [(p.title, p.authors, p.venue, p.year, p.section) for p in papers] == [
        ("Efficient Attention via Sparse Routing", ["Ann Lee", "Bo Chen"], "NeurIPS", 2024, "2024"),
        ("Graph Transformers for Molecules", ["Zhao Liu", "Ann Lee"], "ICML", 2024, "2024"),
        ("Learning to Prune in One Shot", ["Ann Lee", "Bo Chen"], "ICLR", 2023, "2023"),
    ]
    assert papers[0].code_urls == ["https://github.com/foo/sparse"]
    assert papers[2].identifiers == {"openreview": "Abc123xyz0"}


_FRAGMENTS = st.sampled_from(
    [
        "# ",
        "## ",
        "### 1. ",
        "#### Abstract",
        "- ",
        "* ",
        "1. ",
        "[12] ",
        "> ",
        "| ",
        " | ",
        "|---|---|",
        "**",
        "__",
        "*",
        "`",
        "```",
        "~~~",
        "<details>",
        "</details>",
        "<summary>Abstract</summary>",
        "<br>",
        '<a id="x"></a>',
        "<font color=red>摘要：</font>",
        "**Authors**: ",
        "- **作者**：",
        "Abstract:",
        "摘要:",
        "Title: ",
        "[Paper](https://arxiv.org/abs/2501.00001v2)",
        "[[Code]](",
        "](",
        "[",
        "]",
        "(",
        ")",
        "![img](x.png)",
        "https://github.com/a/b",
        "---",
        "\n",
        "\n\n",
        "Graph Networks",
        "we propose a method.",
        "。",
        "：",
        "2024",
        "---\ntitle: x\n---\n",
        "\t",
        "\\",
        "10.1000/xyz",
        "{",
        "}",
        "&amp;",
        "<",
        ">",
        "\u3000",
        "\ufeff",
    ]
)


@pytest.mark.slow  # property test: hundreds of generated inputs
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(_FRAGMENTS, min_size=1, max_size=120))
def test_entry_reader_never_crashes(tmp_path, fragments):
    path = tmp_path / "fuzz.md"
    path.write_text("# A list\n\n**Authors**: x\n" + "".join(fragments), encoding="utf-8")
    try:
        papers = list(sources.read(path))
    except InputError as exc:
        assert "\n" not in str(exc)
        return
    for paper in papers:
        assert paper.title or paper.abstract
        assert paper.skip is None
        assert all(u.startswith(("http://", "https://")) for u in paper.urls + paper.code_urls)


def test_standalone_title_lines():
    papers = _read("standalone_titles.md")
    assert [(p.title, p.authors) for p in papers] == [
        ("Scaling Sparse Mixtures of Experts", ["Ann Lee", "Bo Chen"]),
        ("Diffusion Policies for Robot Arms", ["Cy Dee"]),
        ("Tiny Recursive Reasoners", []),
    ]
    assert papers[0].abstract.startswith("We study how sparse mixtures of experts scale")
    assert papers[1].urls == ["https://arxiv.org/abs/2502.00011"]
    assert papers[2].title_only and papers[2].code_urls == ["https://github.com/x/trm"]
    # "**Key idea**: ..." under Notes is a labelled line, not a paper
    assert all(p.section == "Papers I read this week" for p in papers)


def test_html_publication_page():
    report = ReadReport()
    papers = _read("lab_page.html", report)
    assert report.format == "html"
    assert [(p.title, p.authors, p.venue, p.year, p.section) for p in papers] == [
        ("Sparse Routing for Long-Context Attention", ["Ann Lee", "Bo Chen"], "NeurIPS", 2025, "2025"),
        ("Learning to Prune Transformers in One Shot", ["Cy Dee", "Ann Lee"], "ICLR", 2025, "2025"),
        ("Graph Transformers for Molecules", [], "ICML 2024", 2024, "2024"),
    ]  # as the cell says
    assert papers[0].urls == ["https://arxiv.org/abs/2505.01234"]
    assert papers[0].code_urls == ["https://github.com/lab/sparse"]
    assert papers[0].source.endswith("lab_page.html:8")  # the HTML line it came from
    assert papers[2].identifiers == {"arxiv": "2402.00099"}  # nav, footer and script left out


def test_zotero_json_items():
    report = ReadReport()
    [paper] = _read("zotero_items.json", report)
    assert paper.title == "Protein Graphs at Scale" and paper.authors == ["Anna Müller", "Bo Lee"]
    assert paper.abstract == "We embed protein graphs at scale." and paper.venue == "Bioinformatics"
    assert paper.year == 2021 and paper.date == "2021-06-15"
    assert paper.identifiers == {"doi": "10.1000/pg.1"}
    assert sorted(report.skipped) == ["not a paper (type blogPost)", "not a paper (type computerProgram)"]


def test_arxiv_daily_table():
    papers = _read("arxiv_daily_table.md")
    assert [(p.title, p.authors, p.date, p.section) for p in papers] == [
        ("Dense Visual SLAM with Gaussians", ["Ann Lee"], "2025-01-01", "SLAM"),
        ("Loop Closure by Language", ["Bo Chen"], "2024-12-30", "SLAM"),
    ]
    assert papers[0].identifiers == {"arxiv": "2501.00001"}
    assert papers[0].code_urls == ["https://github.com/x/gslam"] and not papers[1].code_urls


@pytest.mark.parametrize(
    "latex, text",
    [
        (r"a \textbraceleft{}b\textbraceright{} c", "a {b} c"),
        (r"x\textasciicircum{}2 and a\textasciitilde{}b", "x^2 and a~b"),
        (r"back\textbackslash{}slash -{}- \{x\}", "back\\slash -- {x}"),
    ],
)
def test_bibtex_text_symbols_decode(latex, text):
    from paperatlas.sources.bibtex import decode_latex

    assert decode_latex(latex) == text


def test_chinese_enumerations():
    papers = _read("chinese_enumerations.md")
    assert [(p.title, p.extra.get("number"), p.section) for p in papers] == [
        ("Efficient Attention via Sparse Routing", 1, "本周论文"),
        ("Graph Transformers for Molecules", 2, "本周论文"),
        ("Tiny Recursive Reasoners", 1, "论文列表"),
        ("Diffusion Policies for Arms", 2, "论文列表"),
    ]
    assert papers[0].authors == ["张三", "Li Si"]
    assert papers[3].identifiers == {"arxiv": "2502.00011"}


def test_labels_in_their_real_dress():
    retrieval, quoted, collapsed = _read("dressed_labels.md")
    assert retrieval.authors == ["Ann Lee", "Bo Chen"]  # <font>作者：</font>
    assert retrieval.urls == ["https://arxiv.org/abs/2404.15574"]
    assert retrieval.abstract.startswith("我们发现少数注意力头负责从长上下文中检索信息")
    assert quoted.authors == ["Cy Dee"] and quoted.extra["tldr"] == "quoting works."
    assert quoted.abstract == (
        "We show that a quoted paragraph under an entry is read as its "
        "abstract, with its hard-wrapped lines joined into one text."
    )
    assert collapsed.authors == ["Dan Eve"]
    assert collapsed.abstract.startswith("A collapsed block whose summary says Abstract")
    assert "AI summary" not in collapsed.abstract


def test_code_fences_and_footers_are_not_papers():
    report = ReadReport()
    papers = _read("fences_and_footer.md", report)
    assert [p.title for p in papers] == [
        "Dense Passage Retrieval for Open-Domain QA",
        "ColBERT: Late Interaction over BERT",
    ]
    assert papers[0].authors == ["Vladimir Karpukhin", "Barlas Oguz"]
    assert papers[1].identifiers == {"arxiv": "2004.12832"}


def test_identifier_lines_in_entries(tmp_path):
    path = tmp_path / "ids.md"
    path.write_text(
        "### 1. First Paper Title\n\n**Authors**: Ann Lee\n\narXiv: 2501.01234v3\n"
        "DOI: 10.1000/ABC\n\n### 2. Second Paper Title\n\n**Authors**: Bo Chen\n\n"
        "arXiv:2502.00002\n",
        encoding="utf-8",
    )
    first, second = sources.read(path)
    assert first.identifiers == {"arxiv": "2501.01234", "doi": "10.1000/abc"}
    assert first.urls == ["https://arxiv.org/abs/2501.01234"]
    assert second.identifiers == {"arxiv": "2502.00002"}


def test_json_object_with_its_list_one_level_down():
    papers = _read("nested.json")
    assert [p.title for p in papers] == ["Nested One", "Nested Two"]
    assert papers[1].source.endswith("nested.json:3")


def test_document_title_over_its_introduction_is_not_a_paper(tmp_path):
    path = tmp_path / "awesome.md"
    path.write_text(
        "# Awesome Efficient Inference\n\nA curated list of papers, code and tools for "
        "making large models cheaper to run, collected by the community and updated "
        "every week.\n\n## Papers\n\n- [Sparse Routing for Attention](https://arxiv.org/"
        "abs/2501.00001)\n- [Quantised Caches](https://arxiv.org/abs/2501.00002)\n",
        encoding="utf-8",
    )
    assert [p.title for p in sources.read(path)] == ["Sparse Routing for Attention", "Quantised Caches"]


def test_structured_side_fields_are_never_python_reprs(tmp_path):
    path = tmp_path / "typed.jsonl"
    path.write_text(
        '{"id": "d1", "title": "Typed Fields", "abstract": "Fine text.", '
        '"keywords": {"en": "graphs"}, "venue": {"name": "ICLR"}, "area": {"x": [1]}, '
        '"authors": [{"name": "Ann Lee"}, null, {"weird": 1}]}\n',
        encoding="utf-8",
    )
    [paper] = sources.read(path)
    assert paper.keywords == ["graphs"] and paper.venue == "ICLR" and paper.area is None
    assert paper.authors == ["Ann Lee"]
