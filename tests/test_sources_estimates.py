"""A reading held against what the file's own text holds, counted without a reader
(`sources.estimates`): each disagreement is a one-line warning of `add` in the file's own
numbers. The fixtures are shapes that read badly with no warning on the code before it: a
record finder that reads one whole makes its test pass on that instead."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paperatlas import sources
from paperatlas.paper import Paper
from paperatlas.sources import ReadReport
from paperatlas.sources.estimates import FileCounts, PaperCounts, count, count_fields, disagreements
from paperatlas.sources.quality import estimate

FIX = Path(__file__).parent / "fixtures"
TOPICS = "graphs routing memory search policies solvers proofs agents kernels parsers".split()
BOLD_AUTHORS = FIX / "selfcheck" / "posters_bold_authors.md"  # 12 `- **names**.` + title line
SUMMARY_HEADINGS = FIX / "selfcheck" / "notes_summary_headings.org"  # 8 `* Title` + `** Short Summary`
NUMBERED_POSTERS = FIX / "selfcheck" / "posters_numbered_headings.md"  # 8 `### Poster 3 - Title`


def _read(path: Path) -> tuple[list[Paper], ReadReport]:
    report = ReadReport()
    return list(sources.read(path, report)), report


def test_author_lines_read_as_titles_are_named():
    papers, report = _read(BOLD_AUTHORS)
    assert count(BOLD_AUTHORS.read_text(encoding="utf-8")).name_lines == 12
    if len(papers) == 12 and all(p.authors for p in papers):
        return  # read whole by a better record finder
    assert "12 lines of the file name three or more people; 0 of the 12 papers read have authors" in (
        report.warnings
    )


def test_a_label_read_as_every_paper_s_authors_is_named():
    papers, report = _read(SUMMARY_HEADINGS)
    if all(p.authors != ["Short Summary"] for p in papers):
        return
    assert (
        "8 of the 8 papers read have the same authors ('Short Summary'): a label read as authors?"
        in report.warnings
    )


def test_a_numbered_label_kept_in_every_title_is_named():
    papers, report = _read(NUMBERED_POSTERS)
    assert len(papers) == 8
    if not any(p.title and p.title.startswith("Poster ") for p in papers):
        return
    assert (
        "8 of the 8 titles open with a numbered label ('Poster 1'): the label read as part of the title?"
        in report.warnings
    )


def test_add_prints_the_disagreement_in_one_line(cli):
    code, _, err = cli("add", BOLD_AUTHORS)
    assert code == 0
    lines = [line for line in err.splitlines() if "lines of the file name three or more people" in line]
    papers, _ = _read(BOLD_AUTHORS)
    assert lines or all(p.authors for p in papers)
    assert all(BOLD_AUTHORS.name in line for line in lines)


def test_a_list_read_in_part_is_named_against_its_entry_lines():
    """The 21 linked entries of a whole list, three of them read: the file's entry lines say so."""
    path = FIX / "unseen" / "awesome_numbered.md"
    papers = list(sources.read(path))
    counts = count(path.read_text(encoding="utf-8"))
    assert counts.entry_lines == len(papers) == 21
    whole, part = PaperCounts(), PaperCounts()
    for i, paper in enumerate(papers):
        whole.see(paper)
        if i < 3:
            part.see(paper)
    assert disagreements(whole, counts) == []
    assert disagreements(part, counts) == [
        "the file has 21 list lines or table rows with a link; 3 papers were read"
    ]


def test_a_paper_s_field_lines_are_not_entries():
    """`- **arXiv**: [id](link)` and `- **Code**: [repo](link)` lines are one paper's fields: the
    digest's three papers, each linked from two such lines, count three."""
    text = (FIX / "lists" / "chinese_digest.md").read_text(encoding="utf-8")
    assert count(text).entry_lines == 3


def test_headings_among_papers_with_links_and_authors_are_named():
    """Four headings read as papers among 30 papers that each have a link and authors."""
    held = PaperCounts()
    for i in range(30):
        held.see(
            Paper(
                title=f"Learning {TOPICS[i % 10]} at scale, part {TOPICS[i // 10]}",
                authors=["Ann Lee", f"Bo Chen{i}"],
                urls=[f"https://arxiv.org/abs/2401.{i:05d}"],
            )
        )
    for heading in ("Advantages", "Surveys", "Benchmarks", "Contributing"):
        held.see(Paper(title=heading))
    assert disagreements(held, FileCounts()) == [
        "4 of the 34 papers read have neither a link nor authors, while the other 30 have both "
        "(e.g. 'Advantages'): headings or notes read as papers?"
    ]


@pytest.mark.parametrize("bare", [1, 2])
def test_a_paper_or_two_without_link_or_authors_is_no_sign(bare):
    held = PaperCounts()
    for i in range(30):
        held.see(
            Paper(
                title=f"Learning {TOPICS[i % 10]} at scale, part {TOPICS[i // 10]}",
                authors=[f"Ann Lee{i}"],
                urls=[f"https://arxiv.org/abs/2401.{i:05d}"],
            )
        )
    for i in range(bare):
        held.see(Paper(title=f"Untitled note {i}"))
    assert disagreements(held, FileCounts()) == []


@pytest.mark.parametrize(
    "name",
    [
        "unseen/awesome_numbered.md",
        "unseen/bracket_headings.md",
        "unseen/digest_table_zh.md",
        "lists/chinese_digest.md",
        "selfcheck/accepted_bold_br.md",
    ],
)
def test_lists_read_whole_disagree_with_nothing(name):
    papers, report = _read(FIX / name)
    assert report.judgement is not None
    if name == "selfcheck/accepted_bold_br.md" and len(papers) != 24:
        return  # read badly: warned about elsewhere
    assert report.judgement.disagreements == []


@pytest.mark.parametrize(
    ("line", "names"),
    [
        ("<b>Tidal Graph Priors for Flood Maps</b><br />Mira Osei, Tomas Berg and Lina Park<br />", True),
        ("- Osei, M., Berg, T., & Park, L. (2024). Tidal graph priors. Journal of Maps, 3, 1-9.", True),
        (
            '"<a href="https://example.org/a.pdf">Tidal Graph Priors</a>" (with Mira Osei, Lina Park, and Wen Hu)',
            True,
        ),
        ("<b>Comparing Player Skill, Game Variants, and Learning Rates with Survival Analysis</b>", False),
        ("- **Sparse Routers for Streaming Speech, Audio and Music Models** [paper](https://x.org)", False),
        ("- Mira Osei and Tomas Berg, Tidal Graph Priors for Coastal Flood Maps, ICLR 2025", False),
    ],
)
def test_name_lines_are_judged_by_the_readers_name_judge(line, names):
    """A line names three or more people when one of its fields holds three names in a row, each
    a name to `sources.names` (the judge the readers split authors with); a title in Title Case
    with commas is no list of names, and two names are not three."""
    assert count(line).name_lines == int(names)


UNLINKED = FIX / "selfcheck" / "accepted_some_unlinked.md"  # 12 papers, 3 talks the page links nowhere


def test_papers_the_file_gives_no_link_are_no_sign_of_a_bad_read():
    """Three accepted talks with no preprint: the file has no link for them, so none was missed."""
    papers, report = _read(UNLINKED)
    assert len(papers) == 12 and sum(bool(p.urls) for p in papers) == 9
    assert report.warnings == []


def _on_lines(text: str, **fields) -> list[Paper]:
    """A paper for each line of `text`, its source naming the line."""
    return [
        Paper(title=f"Learning {TOPICS[i % 10]} at scale", source=f"list.md:{i + 1}", **fields)
        for i, _ in enumerate(text.splitlines())
    ]


def test_links_the_file_gives_on_a_paper_s_lines_but_no_paper_holds_are_named():
    text = "\n".join(
        f"- Learning {TOPICS[i % 10]} at scale https://arxiv.org/abs/2501.{i:05d}" for i in range(12)
    )
    papers = _on_lines(text, authors=["Ann Lee"])
    for paper in papers[:9]:
        paper.urls = ["https://arxiv.org/abs/2501.00001"]
    assert estimate(papers, text).notes == [
        "3 of 12 papers have no link, though their lines in the file give one"
    ]


def test_entries_with_neither_link_nor_authors_in_the_file_are_named():
    lines = [f"- Learning {TOPICS[i % 10]} at scale https://arxiv.org/abs/2501.{i:05d}" for i in range(9)]
    lines += ["- Optimized production processes", "- Real-time information", "- Zero-defect manufacturing"]
    text = "\n".join(lines)
    papers = _on_lines(text)
    for paper, line in zip(papers, lines, strict=True):
        if "https://" in line:
            paper.urls = [line.split()[-1]]
        else:
            paper.title = line[2:]
    assert estimate(papers, text).notes == [
        "3 of 12 papers have neither a link (none on their lines in the file) nor authors, unlike most "
        "(e.g. 'Optimized production processes'): the page's own text read as papers?"
    ]


SPEAKERS = FIX / "selfcheck" / "program_speakers.yaml"  # 8 talks, each `talk-speakers: names`


def test_a_yaml_field_naming_people_that_no_paper_holds_is_named():
    """A program whose speakers sit under a key no reader takes for authors: the file's own
    field says the reading lost them."""
    counts = count_fields(SPEAKERS.read_text(encoding="utf-8"))
    assert counts.name_field == ("talk-speakers", 8) and not counts.written
    papers, report = _read(SPEAKERS)
    assert len(papers) == 8
    if all(p.authors for p in papers):
        return  # read whole by a reader that takes the field for authors
    assert report.warnings == [
        "the file's 'talk-speakers' fields name people 8 times; 0 of the 8 papers read have authors"
    ]


def test_a_yaml_field_naming_people_is_no_sign_when_the_papers_have_authors():
    held = PaperCounts()
    for i in range(8):
        held.see(Paper(title=f"Learning {TOPICS[i]} at scale", authors=["Ann Lee", "Bo Chen"]))
    assert disagreements(held, FileCounts(name_field=("talk-speakers", 8), written=False)) == []


def test_json_fields_naming_people_are_counted():
    text = json.dumps(
        [
            {"title": f"Learning {t} at scale", "creator": "Ann Lee, Bo Chen", "link": "https://x.org"}
            for t in TOPICS
        ]
    )
    assert count_fields(text).name_field == ("creator", 10)
