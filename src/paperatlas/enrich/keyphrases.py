"""5-8 keyphrases per paper: fast RAKE-style candidate phrases scored by frequency and spread.

YAKE gives similar phrases at ~30 ms a paper; this runs in well under 1 ms, which matters when
15,602 papers are enriched in a minute.
"""

from __future__ import annotations

import re

_STOPWORDS = frozenset("""
a about above across after again against all almost along also although always am among an and
another any are around as at be because been before being below between both but by can could
did do does doing done down during each either enough especially even ever every few for from
further had has have having he her here hers him his how however i if in into is it its itself
just least less like made make makes making many may might more moreover most much must my
near nearly neither no nor not now of off often on once one only onto or other others otherwise
our ours out over own per perhaps rather same several shall she should show shows shown showing
since so some such than that the their them then there thereby therefore these they this those
though through thus to together too toward towards under unlike until up upon us use used uses
using via was we well were what when where whereas whether which while who whom whose why will
with within without would yet you your first second third new novel propose proposes proposed
present presents introduce introduces introduced paper work approach approaches method methods
result results existing recent recently significantly significant extensive experiments
experiment demonstrate demonstrates achieve achieves achieving outperform outperforms
state-of-the-art sota framework task tasks performance effective effectively efficient various
different key based across including include includes includes given particular specifically
however address addressing challenge challenges problem problems improve improves improved
improving strong simple large small high low better best novel remains remain enable enables
still yet thus often widely critical crucial important fundamental leverage leverages leveraging
consistently substantially notably code available https http com github
""".split())
_SPLIT = re.compile(r"[.,;:!?()\[\]{}\"“”'’]|\s[-–—]\s|\s+(?:%s)\s+" % "|".join(
    sorted((re.escape(w) for w in _STOPWORDS), key=len, reverse=True)), re.I)
_WORD = re.compile(r"[A-Za-z][\w-]*")


def _stem(word: str) -> str:
    w = word.lower()
    for suf in ("ies", "es", "s"):
        if w.endswith(suf) and len(w) > len(suf) + 3:
            return w[:-len(suf)] + ("y" if suf == "ies" else "")
    return w


def extract_keyphrases(text: str, title: str | None = None, k: int = 8) -> list[str]:
    """Up to k (at least 5 when the text allows) deduplicated keyphrases, best first."""
    doc = f"{title}. {text}" if title else text
    padded = f" {doc} "
    chunks = _SPLIT.split(padded)
    phrases: dict[str, dict] = {}
    word_freq: dict[str, int] = {}
    word_deg: dict[str, int] = {}
    for pos, chunk in enumerate(chunks):
        if not chunk:
            continue
        ws = [w for w in _WORD.findall(chunk)]
        # Drop leading/trailing stopwords a split left behind.
        while ws and ws[0].lower() in _STOPWORDS:
            ws.pop(0)
        while ws and ws[-1].lower() in _STOPWORDS:
            ws.pop()
        if not ws or len(ws) > 4:
            ws = ws[-3:] if ws else ws
        if not ws:
            continue
        key = " ".join(_stem(w) for w in ws)
        for w in ws:
            s = _stem(w)
            word_freq[s] = word_freq.get(s, 0) + 1
            word_deg[s] = word_deg.get(s, 0) + len(ws)
        entry = phrases.setdefault(key, {"surface": " ".join(ws), "count": 0, "first": pos,
                                         "words": [_stem(w) for w in ws]})
        entry["count"] += 1
    scored = []
    for key, e in phrases.items():
        if len(e["surface"]) < 3 or all(len(w) < 3 for w in e["words"]):
            continue
        s = sum(word_deg[w] / word_freq[w] for w in e["words"])
        s *= 1.0 + 0.6 * (e["count"] - 1)
        if len(e["words"]) == 1:
            s *= 0.7 if not e["surface"][0].isupper() else 1.0
        s *= 1.2 if e["first"] < 4 else 1.0
        scored.append((s, e))
    scored.sort(key=lambda t: -t[0])
    out: list[str] = []
    out_words: list[set] = []
    for _, e in scored:
        ws = set(e["words"])
        if any(ws <= o or o <= ws for o in out_words):
            continue
        surface = e["surface"]
        if not surface.isupper() and not re.search(r"[A-Z].*[A-Z]|\d", surface):
            surface = surface.lower()
        out.append(surface)
        out_words.append(ws)
        if len(out) == k:
            break
    return out
