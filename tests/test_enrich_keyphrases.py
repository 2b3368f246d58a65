"""Keyphrases: 5-8, deduplicated, taken from the text."""

from pathlib import Path

from paperatlas.enrich.keyphrases import extract_keyphrases
from paperatlas.enrich.text import clean

SAMPLE = Path(__file__).resolve().parents[1] / "examples" / "iclr2026_sample_list.txt"


def sample_abstracts():
    paragraphs = [p.strip() for p in SAMPLE.read_text(encoding="utf-8").split("\n\n") if p.strip()]
    return paragraphs[1:]


def test_every_sample_abstract_gets_5_to_8_distinct_phrases_from_its_text():
    for abstract in sample_abstracts():
        text = clean(abstract)
        phrases = extract_keyphrases(text)
        assert 5 <= len(phrases) <= 8, phrases
        assert len({p.lower() for p in phrases}) == len(phrases)
        for phrase in phrases:
            assert phrase.lower() in text.lower(), phrase


def test_repeated_concepts_rank_high_and_stopwords_do_not():
    text = clean(
        "Federated learning suffers from client drift. We study client drift in federated "
        "learning with non-IID data and propose drift-aware aggregation. Drift-aware "
        "aggregation reduces client drift and improves federated learning accuracy."
    )
    phrases = extract_keyphrases(text)
    joined = " | ".join(phrases).lower()
    assert "client drift" in joined and "federated learning" in joined
    assert not any(p.lower() in ("we", "the", "and", "with") for p in phrases)
