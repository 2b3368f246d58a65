"""The language of a query (or an abstract): from its script, or for Latin script from
its function words."""

from __future__ import annotations

from paperatlas.search.query import TERM
from paperatlas.text import STOPWORDS

# Function words that mark a Latin-script query as not English (need two of them).
_LATIN_LANGS = {
    "fr": "le la les des du une un est et pour dans sur avec pas que qui au aux ces sont par",
    "de": "der die das und ist nicht mit für ein eine den dem von zu auf im des sich wie",
    "es": "el la los las del una es y para en con por que se al como sobre más sin",
    "pt": "o a os as do da dos das um uma é e para em com por que não no na sobre",
    "it": "il lo la gli le del della di un una è e per con che non nel sulla dei",
    "nl": "de het een en van is niet met voor op zijn dat die te bij",
}
_LATIN_WORDS = {lang: frozenset(words.split()) for lang, words in _LATIN_LANGS.items()}

# (language, first, last code point) of scripts that name their language well enough.
_SCRIPT_RANGES = [
    ("ja", 0x3040, 0x30FF),  # hiragana, katakana
    ("ko", 0xAC00, 0xD7AF),  # hangul syllables
    ("ko", 0x1100, 0x11FF),
    ("zh", 0x4E00, 0x9FFF),  # CJK unified ideographs
    ("zh", 0x3400, 0x4DBF),
    ("zh", 0xF900, 0xFAFF),
    ("ru", 0x0400, 0x04FF),  # Cyrillic
    ("ar", 0x0600, 0x06FF),
    ("he", 0x0590, 0x05FF),
    ("el", 0x0370, 0x03FF),
    ("hi", 0x0900, 0x097F),  # Devanagari
    ("th", 0x0E00, 0x0E7F),
]
_CJK = {"zh", "ja", "ko"}


DETECT_CHARS = 1000


def detect_language(text: str) -> str:
    """A language code for the query: from its script, or for Latin script from function
    words ("en" unless two or more words of another language say otherwise). The first
    DETECT_CHARS characters decide: they tell a pasted abstract's language as well as all
    of it, and the paper page asks this of every abstract it shows."""
    text = text[:DETECT_CHARS]
    counts: dict[str, int] = {}
    latin = 0
    # ASCII text has no other script to count (a whole abstract: ~1 ms saved per call)
    for ch in "" if text.isascii() else text:
        if not ch.isalpha():
            continue
        cp = ord(ch)
        if cp < 0x250:
            latin += 1
            continue
        for lang, lo, hi in _SCRIPT_RANGES:
            if lo <= cp <= hi:
                counts[lang] = counts.get(lang, 0) + 1
                break
    if counts:
        # Japanese is written with kanji too: any kana makes it Japanese.
        if counts.get("ja"):
            return "ja"
        lang, n = max(counts.items(), key=lambda kv: kv[1])
        # Two CJK characters carry a word; other scripts need a real share of the letters.
        if (lang in _CJK and n >= 2) or n >= max(2, 0.3 * (n + latin)):
            return lang
    words = TERM.findall(text.lower())
    english = sum(map(STOPWORDS.__contains__, words))  # map: counted without Python frames
    best, best_n = "en", 1
    for lang, vocab in _LATIN_WORDS.items():
        n = sum(map(vocab.__contains__, words))
        if n > best_n and n > english:
            best, best_n = lang, n
    return best


def language_name(code: str) -> str:
    """The English name of a language code ("zh" -> "Chinese"), for notes to the user."""
    names = {
        "zh": "Chinese",
        "ja": "Japanese",
        "ko": "Korean",
        "ru": "Russian",
        "ar": "Arabic",
        "he": "Hebrew",
        "el": "Greek",
        "hi": "Hindi",
        "th": "Thai",
        "fr": "French",
        "de": "German",
        "es": "Spanish",
        "pt": "Portuguese",
        "it": "Italian",
        "nl": "Dutch",
        "en": "English",
    }
    return names.get(code, code)
