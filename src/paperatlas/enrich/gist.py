"""The gist (one sentence, <= 40 words) and a display title for papers without one."""

from __future__ import annotations

import re

from paperatlas.enrich import cjk
from paperatlas.enrich.name_shapes import long_form
from paperatlas.enrich.text import is_cjk
from paperatlas.enrich.titles import best_title

MAX_GIST_WORDS = 40
MAX_TITLE_CHARS = 110

_INTRO = re.compile(
    r"\b(?:we|this\s+(?:paper|work|study)|here,?\s+we)\s+(?:\w+\s+)?(?:present|propose|introduce|"
    r"develop|design|build|construct|release|curate|create|contribute|study|investigate|"
    r"analy[sz]e|show|prove|establish|derive|provide|examine|explore|demonstrate)\w*\b",
    re.I,
)
_LEAD_IN = re.compile(
    r"^(?:(?:to\s+(?:this|that)\s+end|in\s+this\s+(?:paper|work)|here|to\s+address\s+"
    r"(?:this|these)(?:\s+\w+){0,3}|to\s+(?:bridge|fill|close)\s+th\w+\s+gap|in\s+response|"
    r"motivated\s+by\s+(?:this|these)(?:\s+\w+){0,2}|therefore|thus|accordingly|instead|"
    r"to\s+overcome\s+(?:this|these)(?:\s+\w+){0,2}|to\s+tackle\s+(?:this|these)(?:\s+\w+){0,2}),?\s*)+",
    re.I,
)


def _words_cut(sentence: str, limit: int) -> str:
    ws = sentence.split()
    if len(ws) <= limit:
        return sentence
    cut = " ".join(ws[:limit])
    # Prefer ending at a clause boundary inside the limit.
    for sep in (";", ",", " – ", " — "):
        i = cut.rfind(sep)
        if i > len(cut) * 0.5:
            return cut[:i].rstrip() + "…"
    return cut.rstrip(",;:") + "…"


def pick_gist(sents: list[str], name: str | None) -> str:
    """The sentence that best says what the paper does, shortened to <= 40 words."""
    if not sents:
        return ""
    if is_cjk(sents[0]):
        return cjk.gist(sents)  # Chinese: the contribution sentence, <= 80 characters
    best, best_score = 0, -1.0
    for i, s in enumerate(sents):
        score = 0.0
        if _INTRO.search(s):
            score += 3.0
        if name and name in s:
            score += 2.0
        if re.search(r"\b(?:propose|introduce|present)\w*\b", s, re.I):
            score += 1.0
        if re.search(r"\b(?:experiments?|results?\s+show|outperform|achiev)\w*\b", s, re.I):
            score -= 1.5
        score -= 0.15 * i
        n = len(s.split())
        if n < 6:
            score -= 2.0
        if score > best_score:
            best, best_score = i, score
    return _words_cut(sents[best], MAX_GIST_WORDS)


def _shorten(phrase: str, limit: int) -> str:
    """At most `limit` characters, cut where a phrase ends (comma, clause word) if possible."""
    phrase = phrase.strip().rstrip(".,;:")
    if len(phrase) <= limit:
        return phrase
    for pat in (
        r",\s",
        r"\s(?:that|which|where|while|by|using|via|through|with|based\s+on|"
        r"designed|to|across|without|under)\s",
        r"\s(?:and|or|for|from|in|on|of)\s",
        r"\s",
    ):
        cuts = [m.start() for m in re.finditer(pat, phrase) if limit * 0.45 < m.start() <= limit]
        if cuts:
            return phrase[: cuts[-1]].rstrip(" ,;:-")
    return phrase[:limit].rstrip()


_PAREN_AT_START = re.compile(r"\s*\([^()]*\)")


def _drop_name(text: str, name: str) -> str:
    """The text with the name (and its parenthesised acronym or long form) taken out."""
    text = text.replace(f"({name})", "").replace(f"( {name} )", "")
    i = text.find(name)
    if i >= 0:
        rest = text[i + len(name) :]
        paren = _PAREN_AT_START.match(rest)
        text = text[:i] + (rest[paren.end() :] if paren else rest)
    return text.replace("()", "")


def _tidy(phrase: str) -> str:
    phrase = re.sub(r"\s+", " ", phrase).strip(" ,;:-–—")
    phrase = re.sub(r"^(?:called|named|termed|dubbed|namely)\s+", "", phrase, flags=re.I)
    phrase = re.sub(
        r"\b(?:a|an)\s+(?:novel|new)\s+(?=([aeiouAEIOU])?)", lambda m: "an " if m.group(1) else "a ", phrase
    )
    phrase = re.sub(r"^(?:a|an)\s+(?=[aeiou])", "an ", phrase, flags=re.I)
    return phrase.strip(" ,;:-–—")


def _spelled_out(sents: list[str], name: str) -> str | None:
    """The long form an acronym name is defined by: "Contamination Detection via Context (CoDeC)"."""
    marker = f"({name})"
    for s in sents:
        i = s.find(marker)
        if i > 0:
            before = re.split(r"[.;:()]", s[max(0, i - 160) : i])[-1]
            form = long_form(name, before)
            if form and len(form) > len(name) + 3:
                return form.strip()
    return None


_AFTER_NAME = re.compile(
    r"\s*(?:\([^()]{1,80}\)\s*)?(?:(?:,|\s+is|\s+-|\s+—|\s+–)\s+"
    r"((?:a|an|the|one|two|three|four|five|\w+\s+(?:new|novel))\s+.+)|:\s+([^,;.]{12,}.*))",
    re.I,
)


def _what_it_is(sents: list[str], name: str) -> str | None:
    """What the named thing is: its spelled-out acronym, else the appositive after it
    ("X, a benchmark for ..." -> "a benchmark for ...")."""
    spelled = _spelled_out(sents, name)
    if spelled:
        return spelled
    for s in sents:
        start = s.find(name)
        while start >= 0:
            m = _AFTER_NAME.match(s, start + len(name))
            if m:
                return _tidy(m.group(1) or m.group(2))
            start = s.find(name, start + 1)
    return None


def _contribution_phrase(sentence: str, name: str | None) -> str:
    """What the contribution sentence says is introduced: the words after "we propose"."""
    m = _INTRO.search(sentence)
    rest = sentence[m.end() :] if m else _LEAD_IN.sub("", sentence)
    if name:
        rest = _drop_name(rest, name)
    rest = re.sub(r"^(?:that|how|whether)\s+", "", rest.strip(), flags=re.I)
    # a leftover placeholder word: "we propose \\tool, a benchmark ..." -> "a benchmark ..."
    rest = re.sub(r"^[a-z][\w-]*,\s+(?=(?:a|an|the)\s)", "", rest)
    rest = _tidy(rest)
    if not m:
        rest = re.sub(r"^(?:we|this\s+(?:paper|work))\s+", "", rest, flags=re.I)
    return rest


_CONTINUES = re.compile(
    r"(?:for|to|with|via|in|on|of|from|through|under|beyond|against|"
    r"without|across)\s",
    re.I,
)


def display_title(title: str | None, sents: list[str], name: str | None, gist: str) -> str:
    """The real title if there is one; else the clause span of the abstract the learned
    ranker picks (`titles.best_title`: "Name: what it is", or the finding), never cut
    mid-clause, <= 110 characters; the rules below only when the ranker has no candidate."""
    if title and title.strip():
        return title.strip()
    if sents and is_cjk(sents[0]):
        return cjk.display_title(sents, name)  # Chinese: no words to count (enrich/cjk.py)
    learned = best_title(sents, name)
    if learned:
        return learned
    what = _what_it_is(sents, name) if name else None
    if what is None:
        source = gist.rstrip("…")
        if name:
            source = next((s for s in sents if name in s and _INTRO.search(s)), source)
        what = _contribution_phrase(source, name)
    if not what:
        return name or _shorten(gist, MAX_TITLE_CHARS)
    if name:
        if _CONTINUES.match(what):  # "X for open-ended reasoning": the name reads on
            return _shorten(f"{name} {what}", MAX_TITLE_CHARS)
        return f"{name}: " + _shorten(what, MAX_TITLE_CHARS - len(name) - 2)
    return _shorten(what[:1].upper() + what[1:], MAX_TITLE_CHARS)
