"""The gist (one sentence, <= 40 words) and a display title for papers without one."""

from __future__ import annotations

import re

MAX_GIST_WORDS = 40
MAX_TITLE_CHARS = 110

_INTRO = re.compile(
    r"\b(?:we|this\s+(?:paper|work|study)|here,?\s+we)\s+(?:\w+\s+)?(?:present|propose|introduce|"
    r"develop|design|build|construct|release|curate|create|contribute|study|investigate|"
    r"analy[sz]e|show|prove|establish|derive|provide|examine|explore|demonstrate)\w*\b", re.I)
_LEAD_IN = re.compile(
    r"^(?:(?:to\s+(?:this|that)\s+end|in\s+this\s+(?:paper|work)|here|to\s+address\s+"
    r"(?:this|these)(?:\s+\w+){0,3}|to\s+(?:bridge|fill|close)\s+th\w+\s+gap|in\s+response|"
    r"motivated\s+by\s+(?:this|these)(?:\s+\w+){0,2}|therefore|thus|accordingly|instead|"
    r"to\s+overcome\s+(?:this|these)(?:\s+\w+){0,2}|to\s+tackle\s+(?:this|these)(?:\s+\w+){0,2}),?\s*)+",
    re.I)
_WE_VERB = re.compile(
    r"^(?:we|this\s+(?:paper|work))\s+(?:\w+ly\s+)?(?:first\s+)?(?:present|propose|introduce|develop|"
    r"design|build|construct|release|curate|create|contribute|offer|devise)s?\s+", re.I)


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
    phrase = phrase.strip().rstrip(".,;:")
    if len(phrase) <= limit:
        return phrase
    cut = phrase[:limit + 1]
    # Cut at a clause/phrase boundary where possible, else at a word boundary.
    for pat in (r",\s", r"\s(?:that|which|where|while|by|using|via|through|with|based\s+on)\s",
                r"\s(?:and|or|for|from|in|on|of|to)\s", r"\s"):
        cuts = [m.start() for m in re.finditer(pat, cut) if m.start() > limit * 0.45]
        if cuts:
            return phrase[:cuts[-1]].rstrip(" ,;:-")
    return phrase[:limit].rstrip()


def _what_it_is(sents: list[str], name: str) -> str | None:
    """The appositive that says what the named thing is: "X, a benchmark for ..." -> "a benchmark for ..."."""
    pat = re.compile(re.escape(name) + r"\s*(?:\([^()]{1,60}\)\s*)?(?:,|:|\s+is|\s+-|\s+—|\s+–)\s+"
                     r"((?:a|an|the)\s+.+)", re.I)
    for s in sents:
        m = pat.search(s)
        if m:
            return m.group(1)
    # "We propose a novel framework, X, that ..." / "We propose X for ..." -> the words around
    for s in sents:
        if name in s and _INTRO.search(s):
            rest = _WE_VERB.sub("", _LEAD_IN.sub("", s))
            rest = re.sub(re.escape(name) + r"\s*(?:\([^()]*\))?,?\s*", "", rest, count=1)
            rest = re.sub(r"^(?:,\s*)?(?:called|named|termed|dubbed)\s*", "", rest)
            if len(rest.split()) >= 3:
                return rest
    return None


def display_title(title: str | None, sents: list[str], name: str | None, gist: str) -> str:
    """The real title if there is one; else `Name: what it is`, or the gist compressed."""
    if title and title.strip():
        return title.strip()
    if name:
        what = _what_it_is(sents, name)
        if what:
            what = re.sub(r"^(?:a|an)\s+(?:novel|new)\s+", "a ", what.strip(), flags=re.I)
            return f"{name}: " + _shorten(what, MAX_TITLE_CHARS - len(name) - 2)
    base = _LEAD_IN.sub("", gist.rstrip("…").strip())
    base = _WE_VERB.sub("", base)
    base = re.sub(r"^(?:we|this\s+(?:paper|work))\s+", "", base, flags=re.I)
    base = base[:1].upper() + base[1:]
    title = _shorten(base, MAX_TITLE_CHARS)
    if name and not title.lower().startswith(name.lower()):
        joined = f"{name}: {title[:1].lower() + title[1:]}"
        title = _shorten(joined, MAX_TITLE_CHARS)
    return title
