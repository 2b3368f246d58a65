"""MinHash signatures and the LSH index behind near-duplicate merging."""

from __future__ import annotations

import numpy as np

from paperatlas.ingest import dedup

TEXT = (
    "We study exploration in reinforcement learning with sparse rewards and propose a bonus "
    "derived from the prediction error of a learned world model, which we prove decays at the "
    "optimal rate; experiments on twelve Atari games confirm the analysis."
)


def test_signature_of_a_text_does_not_depend_on_its_batch():
    alone = dedup.signatures([TEXT])[0]
    batch = dedup.signatures(["x y", "", TEXT + " more words at the end", TEXT, "short"])
    assert np.array_equal(batch[3], alone)
    assert not np.array_equal(batch[2], alone)
    assert np.array_equal(batch[1], dedup.signatures([""])[0])  # empty: the all-max signature


def test_signature_agreement_estimates_jaccard():
    rng = np.random.default_rng(0)
    words = TEXT.split()
    for _ in range(20):
        edited = list(words)
        for i in rng.choice(len(words), size=rng.integers(1, 8), replace=False):
            edited[i] = f"w{rng.integers(10**6)}"
        other = " ".join(edited)
        true = dedup.jaccard(dedup.shingles(TEXT), dedup.shingles(other))
        a, b = dedup.signatures([TEXT, other])
        assert abs((a == b).mean() - true) < 0.25


def test_normalisation_makes_case_and_punctuation_irrelevant():
    a, b = dedup.signatures([TEXT, TEXT.upper().replace(",", " ,").replace(";", "")])
    assert np.array_equal(a, b)


def test_index_finds_near_duplicates_only():
    edited = TEXT.replace("twelve Atari games", "12 Atari games")
    unrelated = (
        "Diffusion models generate images by reversing a noising process; we distil them "
        "into a one-step student that keeps sample quality on CIFAR-10 and ImageNet."
    )
    sigs = dedup.signatures([TEXT, unrelated, edited])
    index = dedup.NearDuplicateIndex([("a", sigs[0]), ("b", sigs[1])])
    assert len(index) == 2
    assert index.candidates(sigs[2]) == ["a"]
    assert dedup.jaccard(dedup.shingles(TEXT), dedup.shingles(edited)) >= dedup.THRESHOLD


def test_word_count_matches_split():
    for text in ["", "one", "two words", "a b c d"]:
        assert dedup.word_count(text) == len(text.split())


def test_normalise_text_fast_paths_match_the_regex_definition():
    import re
    import unicodedata

    from paperatlas.paper import normalise_text

    def reference(text):
        text = unicodedata.normalize("NFKC", text).lower()
        return re.sub(r"\s+", " ", re.sub(r"[^\w\s]", " ", text)).strip()

    samples = [
        "".join(map(chr, range(128))),
        "".join(map(chr, range(3000))),
        " a\x1c\x1fb_c \u2028x\u00a0y ",
        "",
        "ÀÉ — “q” ½ ﬁ $x_i$",
        TEXT,
        TEXT.upper(),
    ]
    for text in samples:
        assert normalise_text(text) == reference(text)
