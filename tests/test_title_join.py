"""The second stage of display titles (enrich/title_join.py): a short span joined with what the
abstract says it is for, only where the span reads as a thing and the phrase is whole."""

from __future__ import annotations

from paperatlas.enrich import title_join, titles
from paperatlas.enrich.text import sentences

ABSTRACT = (
    "Personalizing text-to-image models with a few images remains difficult. We propose "
    "Directional Textual Inversion (DTI), a lightweight embedding method for personalized "
    "text-to-image generation, which keeps the learned token on the unit sphere. DTI improves "
    "prompt fidelity on three benchmarks."
)


def ends(s: str) -> list[int]:
    return [b for b, _ in titles._ends(s)]


def test_only_short_noun_phrases_take_a_tail():
    assert title_join.noun_phrase("A one-shot pruning framework")
    assert title_join.noun_phrase("Directional Textual Inversion")
    assert not title_join.noun_phrase("Time series exhibit industry correlation")
    assert not title_join.noun_phrase("A strategy that extends existing models")
    assert not title_join.noun_phrase("A framework with many parts that is far too long here")


def test_tails_are_whole_phrases_opened_by_a_preposition():
    plain = [titles._strip_parens(s) for s in sentences(ABSTRACT)]
    tails = title_join.tails(plain, ends, titles._BAD_LAST)
    assert ("for", "personalized text-to-image generation") in tails, tails
    for prep, phrase in tails:
        assert prep in title_join.PREPOSITIONS
        words = phrase.split()
        assert 2 <= len(words) <= title_join.MAX_TAIL_WORDS
        assert words[-1].lower() not in titles._BAD_LAST and words[0].lower() not in ("the", "a", "our")
    # no phrase runs on past a clause boundary ("..., which keeps ...")
    assert not [p for _, p in tails if "which" in p.split() or p.endswith("keeps")]


def test_options_start_with_the_best_candidate_and_join_only_noun_phrases():
    model = titles.load_model()
    assert model is not None
    opts = titles.join_options(sentences(ABSTRACT), "DTI", model._replace(join_weights=(0.0,)))
    assert opts and all(len(f) == len(title_join.JOIN_FEATURES) for _, f in opts)
    first, joined = opts[0][0], [t for t, f in opts[1:]]
    assert first.startswith("DTI: ") and opts[0][1][title_join.JOIN_FEATURES.index("joined")] == 0.0
    assert joined, opts
    for text in joined:
        head = text.split(": ", 1)[1]
        assert any(f" {p} " in head for p in title_join.PREPOSITIONS)
    shown = titles.best_title(sentences(ABSTRACT), "DTI", model)
    assert shown and shown.startswith("DTI: ") and "text-to-image" in shown.lower(), shown


def test_a_join_is_never_longer_than_a_candidate_may_be():
    model = titles.load_model()
    assert model is not None
    long_name = "AVeryLongMethodNameThatTakesUpMuchOfTheRoomAvailable"
    sents = sentences(ABSTRACT.replace("DTI", long_name))
    opts = titles.join_options(sents, long_name, model._replace(join_weights=(0.0,)))
    assert opts and all(len(t) <= titles.MAX_CHARS for t, _ in opts), [t for t, _ in opts]
    head = (f"{long_name}: Directional Textual Inversion", 0.0)
    tail = [("for", "personalized text-to-image generation")]
    wide = title_join.options(head, [head], tail, {}, 0.0, 200)
    assert len(wide) == 2 and len(wide[1][0]) > titles.MAX_CHARS
    assert len(title_join.options(head, [head], tail, {}, 0.0, titles.MAX_CHARS)) == 1  # the limit removed it
