"""The last stage of display titles (enrich/title_compress.py): the abstract's key words in order,
whole pieces only (a noun phrase, a preposition with its object), never ending on a function word."""

from __future__ import annotations

import re

from paperatlas.enrich import title_compress, titles
from paperatlas.enrich.text import sentences

SENTENCE = (
    "We propose UPNet, a novel framework that selects views with neural uncertainty maps "
    "for efficient 3D reconstruction of large scenes."
)


def offsets_of(name: str | None = None, no_end: frozenset[str] = frozenset()) -> list[list[int]]:
    return title_compress.compositions(SENTENCE.split(), name, no_end)


def test_titles_are_whole_pieces_in_order_and_never_end_on_a_function_word():
    tokens = SENTENCE.split()
    composed = offsets_of("UPNet")
    texts = {title_compress.render(tokens, o, "UPNet") for o in composed}
    assert "UPNet: Neural uncertainty maps for efficient 3D reconstruction" in texts, sorted(texts)[:20]
    for offsets in composed:
        assert offsets == sorted(set(offsets))
        words = [tokens[i].lower().strip(".,") for i in offsets]
        assert words[-1] not in title_compress.FUNCTION
        assert "upnet" not in " ".join(words).replace(",", "")  # the name is the head, not reused
        for k, w in enumerate(words):  # a preposition is followed by its object, never last
            if w in title_compress.PREPOSITIONS:
                assert k + 1 < len(words) and words[k + 1] not in title_compress.FUNCTION
    nps, pps = title_compress.pieces(tokens, "UPNet", frozenset())
    for i, j in nps:  # a piece never runs over a comma: "UPNet, a novel ..." starts after it
        assert not any(tokens[k].endswith(",") for k in range(i, j))
    assert (9, 10, 12) in pps  # "with neural uncertainty maps": the preposition with its object


def test_words_that_rarely_end_a_title_phrase_end_no_piece():
    tokens = SENTENCE.split()
    plain = {title_compress.render(tokens, o, None) for o in offsets_of()}
    # "efficient" is no noun, but without the learned list only function words end no piece
    assert "Neural uncertainty maps for efficient" in plain
    learned = title_compress.no_end_words(
        title_compress.end_rates(
            ["Efficient Transformers", "Efficient Attention for Video", "Efficient Models", "Maps for X"]
        )
    )
    assert learned == {"efficient"}
    composed = {title_compress.render(tokens, o, None) for o in offsets_of(None, learned)}
    assert not [t for t in composed if t.lower().endswith("efficient")]


def test_end_rates_count_the_words_that_end_a_phrase():
    rates = title_compress.end_rates(["Deep Maps for Video", "Maps of Scenes", "Sparse Maps"])
    assert rates["maps"] == (3 + 0.5) / (3 + 1)
    assert "deep" not in rates  # in fewer than END_MIN_TITLES titles


def test_the_earlier_title_stays_unless_a_composition_scores_higher():
    tokens = SENTENCE.split()
    opts = title_compress.options(
        "UPNet: Old title", [(0, tokens, 1.0)], "UPNet", {"maps": 0.9}, frozenset(), 110
    )
    assert opts[0][0] == "UPNet: Old title" and len(opts) > 1
    assert all(len(f) == len(title_compress.COMPRESS_FEATURES) for _, f in opts)
    current = title_compress.COMPRESS_FEATURES.index("current")
    keep = [0.0] * len(title_compress.COMPRESS_FEATURES)
    keep[current] = 1.0
    assert title_compress.choose(opts, keep) == "UPNet: Old title"
    keep[current] = -1.0
    assert title_compress.choose(opts, keep) != "UPNet: Old title"


def test_best_title_runs_the_last_stage_when_the_model_has_its_weights():
    model = titles.load_model()
    assert model is not None
    sents = sentences(SENTENCE + " Experiments show gains over NeRF baselines.")
    before = titles.best_title(sents, "UPNet", model._replace(compress_weights=()))
    assert titles.best_title(sents, "UPNet", model) == before or model.compress_weights
    weights = [0.0] * len(title_compress.COMPRESS_FEATURES)
    weights[title_compress.COMPRESS_FEATURES.index("f1_len8")] = 1.0
    weights[title_compress.COMPRESS_FEATURES.index("current")] = -1.0  # any composition beats it
    shown = titles.best_title(sents, "UPNet", model._replace(compress_weights=tuple(weights)))
    assert shown and shown != before and shown.startswith("UPNet: ")
    words = re.findall(r"\w+", shown.split(": ", 1)[1].lower())
    source = re.findall(r"\w+", SENTENCE.lower() + " experiments show gains over nerf baselines")
    it = iter(source)
    assert all(w in it for w in words), shown  # a subsequence of the abstract's words, in order
    assert words[-1] not in title_compress.FUNCTION
