"""Gist sentence and display title: lengths, real titles kept, `Name: what it is`."""

from paperatlas.enrich.gist import MAX_GIST_WORDS, MAX_TITLE_CHARS
from paperatlas.enrich.pipeline import extract_facts

NAMED = (
    "Personal assistants store long memories of their users. This creates privacy risks. "
    "We present LeakAudit, a benchmark for measuring whether assistants reveal remembered "
    "facts in the wrong context. LeakAudit pairs 500 synthetic users with 40 tasks."
)
LONG_SENTENCE = (
    "Recent work on retrieval has many gaps. We propose a retrieval method that "
    + " ".join(f"handles case number {i} of a long list of corner cases," for i in range(30))
    + " and more."
)


def test_real_title_is_kept():
    facts = extract_facts("LeakAudit: Auditing Memory Leaks in Assistants", NAMED)
    assert facts["display_title"] == "LeakAudit: Auditing Memory Leaks in Assistants"


def test_untitled_named_paper_gets_name_colon_what_it_is():
    facts = extract_facts(None, NAMED)
    # the leading article may go (enrich/title_trim.py)
    assert facts["display_title"].startswith(
        (
            "LeakAudit: A benchmark for measuring whether assistants",
            "LeakAudit: Benchmark for measuring whether assistants",
        )
    )
    assert len(facts["display_title"]) <= MAX_TITLE_CHARS


def test_acronym_name_title_uses_its_long_form():
    abstract = (
        "Sparse attention is brittle. We propose Block-Recurrent Sparse Attention (BRSA), "
        "a drop-in attention layer for long inputs."
    )
    assert extract_facts(None, abstract)["display_title"] == "BRSA: Block-Recurrent Sparse Attention"


def test_gist_is_the_contribution_sentence_within_40_words():
    facts = extract_facts(None, NAMED)
    assert facts["gist"].startswith("We present LeakAudit")
    long = extract_facts(None, LONG_SENTENCE)
    assert len(long["gist"].split()) <= MAX_GIST_WORDS
    assert long["gist"].startswith("We propose a retrieval method")


def test_unnamed_paper_title_is_built_from_the_gist_and_bounded():
    facts = extract_facts(None, LONG_SENTENCE)
    title = facts["display_title"]
    assert facts["name"] is None
    assert 10 < len(title) <= MAX_TITLE_CHARS
    assert title[0].isupper() and not title.lower().startswith("we ")


def test_empty_and_tiny_abstracts_do_not_break():
    for abstract in ("", ".", "na"):
        facts = extract_facts(None, abstract)
        assert facts["name"] is None
        assert len(facts["display_title"]) <= MAX_TITLE_CHARS
