"""`paperatlas digest --section`: a digest of one section of a list, as the list's own headings
name it (the heading each paper was read under, `ls --section`'s substring, case ignored);
the line at its top names it, a section no paper is under is one line naming the list's
sections, and it narrows together with the other filters."""

from __future__ import annotations

from pathlib import Path

from paperatlas import Atlas, Filters

LIST = Path(__file__).parent / "fixtures" / "lists" / "two_sections.md"
EFFICIENT = (
    "Sparse Mixture Routing for Long-Context Transformers",
    "Low-Rank Adapters That Grow During Fine-Tuning",
)
SAFETY = ("Refusal Directions Survive Quantization", "Reward Hacking Detected From Policy Entropy")


def test_a_digest_of_one_section_holds_its_papers_and_names_it(cli):
    code, _, err = cli("add", LIST, "--no-enrich")
    assert code == 0, err
    code, out, err = cli("digest", "--list", "two_sections", "--section", "SAFETY")
    assert code == 0, err
    assert all(title in out for title in SAFETY)
    assert not any(title in out for title in EFFICIENT)
    assert "*Papers chosen by: section SAFETY*" in out.splitlines()[:6]
    assert "· selection · 2 papers ·" in out
    code, out, _ = cli("digest", "-s", "models")
    assert code == 0 and all(title in out for title in EFFICIENT) and not any(t in out for t in SAFETY)


def test_a_section_no_paper_is_under_is_one_line_naming_the_sections(cli):
    cli("add", LIST, "--no-enrich")
    code, out, err = cli("digest", "--list", "two_sections", "--section", "robotics")
    assert code == 2 and out == ""
    assert err.strip() == (
        "error: no paper of list 'two_sections' is under a section holding 'robotics' "
        "(sections: Efficient models; Safety and alignment)"
    )


def test_a_section_narrows_with_the_other_filters(tmp_path):
    with Atlas(tmp_path / "atlas.db") as atlas:
        atlas.add(LIST, enrich=False)
        read = atlas.papers(text="refusal")[0]["id"]
        atlas.set_state([read], "read")
        text = atlas.digest(filters=Filters(state="unread"), section="safety and")
        html = atlas.digest(fmt="html", filters=Filters(state="unread"), section="safety and")
    assert SAFETY[1] in text and SAFETY[0] not in text and not any(t in text for t in EFFICIENT)
    assert "Papers chosen by: state unread · section safety and" in text
    assert SAFETY[1] in html and SAFETY[0] not in html
