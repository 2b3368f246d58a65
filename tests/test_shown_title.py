"""paper.shown_title: the one rule for the title a paper is shown by."""

from __future__ import annotations

from paperatlas.paper import TITLE_WORDS, shown_title


def test_own_title_then_written_title_then_abstract_start():
    abstract = " ".join(f"w{i}" for i in range(30))
    assert shown_title({"title": "Own", "display_title": "Written", "abstract": abstract}) == "Own"
    assert shown_title({"title": None, "abstract": abstract}, {"display_title": "From facts"}) == "From facts"
    assert (
        shown_title({"title": "", "display_title": "Joined in the row", "abstract": abstract})
        == "Joined in the row"
    )
    start = shown_title({"title": None, "abstract": abstract})
    assert start.endswith("…") and start[:-1].split() == abstract.split()[:TITLE_WORDS]
    assert shown_title({"abstract": "short abstract"}) == "short abstract"
    assert shown_title({"title": None, "abstract": None}) == ""
