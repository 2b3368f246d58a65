"""Which one-byte code page a file that is not UTF-8 was saved in, when only one fits.

Lists exported by spreadsheets and reference managers on Windows and old Macs come in
Windows-1252 (a superset of Latin-1's printable characters), DOS Western (cp850) or Mac
Roman. Every byte decodes in nearly all of them, so the question is which decoding reads as
text: each one is scored by its non-ASCII characters that no writer of a Latin-script list
would have typed (a capital inside a lower-case word, a letter glued to a digit, a word of
accented letters only, box drawing, control characters). The code page is taken only when it
is the one clean decoding: when two read equally well but differently, or none reads well,
the file is refused as before (save it as UTF-8) rather than read with wrong letters.

(charset-normalizer ranks these code pages by a mess score that takes "JŸrgen" for clean
text, so it cannot tell a Mac Roman file from a Windows one: the rule here is narrower.)
"""

from __future__ import annotations

import re
import unicodedata

# code page -> its name in messages; tried in this order (the first wins a tie of equal texts)
CODE_PAGES = {
    "cp1252": "Windows-1252 (Latin-1)",
    "cp850": "DOS Western (cp850)",
    "mac_roman": "Mac Roman",
}
# non-letters a list's writer types: quotes, dashes, bullets, currency, degrees, spaces
_USUAL_MARKS = set("’‘“”„‚–—…•·°±×÷€£¥¢§©®™«»‹›¿¡µ¹²³¼½¾ªº†‡‰\u00a0\u00ad")
_WORD = re.compile(r"\w+")
_MOST_ODD = 0.02  # share of non-ASCII characters that may look odd in the decoding taken


def odd_characters(text: str) -> tuple[int, int]:
    """(non-ASCII characters, of which look mis-decoded) in `text`."""
    seen = odd = 0
    for i, char in enumerate(text):
        if char.isascii():
            continue
        seen += 1
        before = text[i - 1] if i else " "
        after = text[i + 1] if i + 1 < len(text) else " "
        odd += _looks_odd(char, before, after)
    for word in _WORD.findall(text):
        if len(word) >= 2 and not any(c.isascii() for c in word):
            odd += len(word)  # "ÿþ": accented letters alone make no Latin-script word
    return seen, odd


def _looks_odd(char: str, before: str, after: str) -> bool:
    if char in _USUAL_MARKS:
        return False
    if not char.isalpha() or not unicodedata.name(char, "").startswith("LATIN"):
        return True  # box drawing, control characters, Greek letters of DOS code pages
    if before.isdigit() or after.isdigit():
        return True  # "16ø28": a letter where a degree sign belongs
    # a capital inside a word: "CafÚ", "JŸrgen"
    return char.isupper() and before.isalpha() and (before.islower() or after.islower())


def code_page(data: bytes) -> str | None:
    """The code page `data` reads as, or None when none or more than one reads as text."""
    clean: dict[str, str] = {}
    for name in CODE_PAGES:
        try:
            text = data.decode(name)
        except UnicodeDecodeError:
            continue
        seen, odd = odd_characters(text)
        if seen and odd <= _MOST_ODD * seen:
            clean.setdefault(text, name)
    return next(iter(clean.values())) if len(clean) == 1 else None
