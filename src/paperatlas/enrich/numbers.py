"""Headline quantities: "up to 69% attribute-level violations", "6.0× fewer FLOPs", "1,435 queries".

Works on clean text (text.clean has already turned `18.8\\%` into `18.8%`, `10$\\times$` into
`10×` and mended `12. 5 %`). Each quantity gets a value, a unit and the words that say what
it measures; a range ("14%-69%", "1.6–2.1×") also carries `value_to`. Years, citations,
equation numbers and model-name digits (GPT-4) are skipped.
"""

from __future__ import annotations

import re

from paperatlas.enrich.known import is_known
from paperatlas.enrich.text import is_cjk

_NUMBER_WORDS = {
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "fifteen": 15,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "hundred": 100,
    "dozens": None,
    "hundreds": None,
    "thousands": None,
}

_NUM = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_UNIT = (
    r"\s*%|\s*×|\s*倍|x(?![A-Za-z0-9])|\s*times\b|\s*pp\b|\s*(?:percentage\s+)?points?\b|"
    r"\s*(?:thousand|million|billion|trillion)\b|[KMBT](?![A-Za-z])|k(?![A-Za-z])|\+"
)
# The words before a number that qualify it ("up to 69%"), looked for once a number is found.
_LEAD = re.compile(
    r"(?<![\w])(up\s+to|over|more\s+than|nearly|about|approximately|around|"
    r"roughly|at\s+least|at\s+most|only|just|by|~|≈|>|<|≥|≤)\s*$",
    re.I,
)
_QUANTITY = re.compile(
    rf"(?<![\w.\-/])(?P<num>{_NUM})(?P<unit1>%|×|x(?![A-Za-z0-9]))?"
    rf"(?:\s*(?P<range>[-–—~]|to)\s*(?P<num2>{_NUM}))?"
    rf"(?P<unit>{_UNIT})?(?P<unit2>%|×|\+)?"
)
_WORD_QUANTITY = re.compile(
    r"\b(?P<word>" + "|".join(k for k in _NUMBER_WORDS) + r")\s+(?P<noun>(?:[a-z][\w-]*\s+){0,2}?"
    r"(?:datasets|benchmarks|tasks|languages|domains|models|modalities|environments|categories|"
    r"metrics|settings|scenarios|games|baselines|architectures|families|types|levels|dimensions|"
    r"sources|subtasks|skills|axes|capabilities))\b",
    re.I,
)
_WHAT_AFTER = re.compile(r"^\s*(?:(?:of|in|on|for)\s+)?((?:[A-Za-z][\w-]*\s*){1,4})")
_STOP = frozenset(
    """a an the and or of in on for to with by from at as than that which is are was were
be been this these those while across over under compared relative against its their our
respectively average on-average""".split()
)
_WORD_BEFORE = re.compile(r"([A-Za-z][\w.-]*)\s+$")
_PARTICIPLES = frozenset(
    "written drawn taken given made built shown known seen chosen held run spent sent".split()
)
_BEFORE_BY = re.compile(
    r"((?:[A-Za-z][\w-]*\s+){1,4})(?:by|of|to|at|reaching|achieving|achieves|"
    r"reaches|with)\s*(?:up\s+to\s+|over\s+|about\s+|nearly\s+|more\s+than\s+|"
    r"an?\s+average\s+of\s+|only\s+|just\s+)?$",
    re.I,
)


def _value(num: str) -> float:
    return float(num.replace(",", ""))


def _what(text: str, start: int, end: int) -> str:
    after = text[end : end + 60]
    m = _WHAT_AFTER.match(after)
    if m:
        ws: list[str] = []
        for w in m.group(1).split():
            wl = w.lower().strip(",.;:")
            if wl in _STOP or not w[0].isalpha():
                break
            if ws and (re.search(r"(?:ing|ed)$", wl.strip(",.;:()")) or wl.strip(",.;:()") in _PARTICIPLES):
                break  # "queries spanning ..." -> "queries"
            ws.append(w.strip(",.;:()"))
            if w[-1] in ",.;:":
                break
        if ws and ws[0].lower() not in (
            "improvement",
            "gain",
            "increase",
            "reduction",
            "speedup",
            "faster",
            "fewer",
            "less",
            "more",
            "higher",
            "lower",
            "better",
            "relative",
            "absolute",
            "average",
        ):
            return " ".join(ws)
        if ws:
            return " ".join(ws)
    before = text[max(0, start - 60) : start]
    m = _BEFORE_BY.search(before)
    if m:
        ws = [w for w in m.group(1).split() if w.lower() not in _STOP]
        return " ".join(ws[-3:])
    return ""


def _is_noise(text: str, m: re.Match) -> bool:
    num = m.group("num")
    unit = (m.group("unit1") or "") + (m.group("unit") or "").strip() + (m.group("unit2") or "")
    s, e = m.start("num"), m.end()
    prev = text[max(0, s - 1) : s]
    if prev and (prev.isalpha() or prev in "-_/"):
        return True  # part of a name: GPT-4, Qwen3, L2
    before = _WORD_BEFORE.search(text, max(0, s - 25), s)
    if before and not unit and is_known(before.group(1)):
        return True  # a model version written apart: Llama 3.1, Qwen 2.5
    if not unit and text[e : e + 1].isascii() and text[e : e + 1].isalpha():
        return True  # a digit inside a name: 3DGS, 4K-resolution written together
    if (
        not unit
        and m.group("num2")
        and "." not in num + m.group("num2")
        and 1900 <= _value(num) <= 2100
        and 1900 <= _value(m.group("num2")) <= 2100
    ):
        return True  # a span of years: 2023-2025
    if not unit and not m.group("num2"):
        v = _value(num)
        if "." not in num and 1900 <= v <= 2100:
            return True  # a year
        if text[e : e + 1] == ")" and text[max(0, s - 1) : s] == "(":
            return True  # (1) enumeration / equation
        nxt = text[e : e + 25]
        if "." in num:
            return False  # a measurement (0.87 F1, 45.3 BLEU)
        if _CJK_COUNT.match(nxt):
            return False  # 5000 个问题: a count in Chinese
        if not re.match(r"\s*(?:[A-Za-z][\w-]*)", nxt) or re.match(r"\s*(?:and|or|of|in|on|to)\b", nxt):
            return True  # a bare number followed by nothing countable
        if v < 2 and "." not in num:
            return True
    return False


# -- role and context ---------------------------------------------------------------------
# A number is a *result* (what the paper found or achieved: a gain, an accuracy, a speed-up)
# or *setup* (what it worked with: model and dataset sizes, counts of tasks, languages,
# annotators). Each cue below is named; the first that decides wins, in this order.

_SETUP_NOUNS = re.compile(
    r"^\s*(?:[\w-]+\s+){0,2}?(?:parameters?|params?|tokens?|images?|videos?|samples?|examples?|"
    r"instances?|questions?|problems?|tasks?|subtasks?|datasets?|benchmarks?|languages?|"
    r"domains?|models?|LLMs|VLMs|annotators?|participants?|users?|hours?|documents?|pairs?|"
    r"trajectories|episodes?|environments?|categories|classes|scenes?|prompts?|queries|"
    r"conversations?|GPUs?|nodes?|layers?|articles?|papers?|clips?|frames?|demonstrations?|"
    r"patients?|subjects?|molecules?|proteins?|graphs?|cities|countries|repositories|"
    r"functions?|programs?|scenarios?|agents?|games?|skills?|types?|sources?|dimensions?|"
    r"entries|records|rows|items|cases|points|steps|epochs|experts?|heads?|seeds?)\b",
    re.I,
)
_RESULT_CUES = re.compile(
    r"\b(?:improv\w*|outperform\w*|surpass\w*|exceed\w*|achiev\w*|attain\w*|reach\w*|"
    r"reduc\w*|cut\w*|lower\w*|higher|fewer|less|faster|slower|speed-?ups?|accelerat\w*|"
    r"gains?|boost\w*|increas\w*|decreas\w*|sav\w*|better|drops?|fell|falls?|rises?|"
    r"only|accuracy|success\s+rate|win\s+rate|error|score|F1|AUC|BLEU|recall|precision|"
    r"relative|absolute|average|state-of-the-art|SOTA|up\s+to|fail\w*|solv\w*|compression|"
    r"memory|latency|throughput)\b",
    re.I,
)
_COMPARE = re.compile(
    r"\b(?:than|over|compared\s+(?:to|with)|relative\s+to|versus|vs\.?|"
    r"against|above|below|from)\s+",
    re.I,
)
_CLAUSE_EDGE = re.compile(
    r"[;:()\[\]]|,\s|\.\s|\s(?:while|whereas|which|and\s+(?:we|it|our|"
    r"the\s+\w+\s+(?:is|are))|but)\s",
    re.I,
)
_LEADING_JUNK = re.compile(
    r"^(?:and|or|but|while|which|that|with|where|whereas|e\.g\.|"
    r"i\.e\.|including|respectively)\s+",
    re.I,
)
_GAIN_BEFORE = re.compile(
    r"\b(?:improv\w*|reduc\w*|achiev\w*|outperform\w*|gains?|boost\w*|"
    r"increas\w*|decreas\w*|by)\s*(?:up\s+to\s+|over\s+|about\s+)?$",
    re.I,
)
_BEFORE_BREAK = re.compile(r"^(?:and|that|which|while|where|whereas|but|so)$", re.I)
MAX_CONTEXT_WORDS = 14


def role_of(text: str, start: int, end: int, unit: str | None, display: str) -> str:
    """ "result" or "setup" for the quantity at text[start:end]."""
    after = text[end : end + 40]
    clause = _clause(text, start, end)
    before = text[max(clause[0], start - 80) : start]
    if unit in ("B", "M", "K", "T") and _SETUP_NOUNS.match(after):
        return "setup"  # 17B parameters, 2T tokens, 1.2M images
    if unit in ("%", "×", "pp"):
        if re.match(
            r"\s*(?:of|from)\s+(?:the\s+)?(?:training|data|samples|parameters|tokens|"
            r"labels|examples|the\s+data)",
            after,
            re.I,
        ) and not _GAIN_BEFORE.search(before[-30:]):
            return "setup"  # using 10% of the training data
        return "result"
    if "." in display.split()[-1] and unit is None:
        return "result"  # a measured value: 0.87 F1, 45.3 BLEU
    if _SETUP_NOUNS.match(after) and not _RESULT_CUES.search(text[end : end + 25]):
        return "setup"  # 1,435 queries, 23 tasks
    return "result" if _RESULT_CUES.search(text[clause[0] : clause[1]]) else "setup"


def _clause(text: str, start: int, end: int) -> tuple[int, int]:
    """The clause around text[start:end]: from the last clause edge before it to the next after."""
    lo = max(0, start - 160)
    left = lo
    for m in _CLAUSE_EDGE.finditer(text, lo, start):
        left = m.end()
    edge = _CLAUSE_EDGE.search(text, end, min(len(text), end + 160))
    right = edge.start() if edge else min(len(text), end + 160)
    return left, right


_CJK_COUNT = re.compile(r"\s*(?:个|项|种|篇|条|张|段|类|名|位|组|次|步|层|倍|万|亿|小时|[\u4e00-\u9fff])")
_CJK_EDGE = re.compile(r"[，。；：！？,;:!?()]")
CJK_CONTEXT_CHARS = 20


def _cjk_context(text: str, start: int, end: int) -> str:
    """The Chinese clause around the number, at most CJK_CONTEXT_CHARS characters each side."""
    left = start
    while left > 0 and start - left < CJK_CONTEXT_CHARS and not _CJK_EDGE.match(text[left - 1]):
        left -= 1
    right = end
    while right < len(text) and right - end < CJK_CONTEXT_CHARS and not _CJK_EDGE.match(text[right]):
        right += 1
    return text[left:right].strip()


def context_of(text: str, start: int, end: int) -> str:
    """The words that say what the number measures and against what: its clause, shortened to
    the number's neighbourhood (up to MAX_CONTEXT_WORDS words), keeping a comparison tail
    ("than Transformer++")."""
    if is_cjk(text):
        return _cjk_context(text, start, end)
    left, right = _clause(text, start, end)
    before = text[left:start].split()
    after = text[end:right].split()
    # keep the words right before (the verb and what it acts on) and after (what is counted)
    keep_before = before[-5:]
    for i in range(len(keep_before) - 1, -1, -1):
        if _BEFORE_BREAK.match(keep_before[i]):
            keep_before = keep_before[i + 1 :]  # "... tokens and find it is 6.7x": from "find"
            break
    for i, w in enumerate(after[:9]):
        if _BEFORE_BREAK.match(w):
            after = after[:i]  # "on 350B tokens and find ...": the clause ends at "and"
            break
    keep_after = after[:8]
    joined = " ".join(after)
    cmp = _COMPARE.search(joined)
    if cmp and len(after) > 8:
        head_words = joined[: cmp.start()].split()
        if len(head_words) <= 6:  # "fewer inference steps than Transformer++"
            keep_after = head_words + joined[cmp.start() :].split()[:5]
    phrase = " ".join([*keep_before, text[start:end].strip(), *keep_after])
    phrase = _LEADING_JUNK.sub("", phrase.strip(" ,;:"))
    words = phrase.split()
    if len(words) > MAX_CONTEXT_WORDS:
        words = words[:MAX_CONTEXT_WORDS]
    return " ".join(words).rstrip(" ,;:.")


def extract_numbers(text: str, limit: int = 10) -> list[dict]:
    """[{text, value, unit, what, role, context}] for the abstract's quantities, headline first.

    `role` is "result" (a gain, an accuracy, a speed-up) or "setup" (a model or data size, a
    count of tasks); `context` the words that say what it measures and against what."""
    out: list[dict] = []
    seen = set()
    for m in _QUANTITY.finditer(text):
        if _is_noise(text, m):
            continue
        unit = ((m.group("unit") or "").strip() + (m.group("unit2") or "")).strip() or (
            m.group("unit1") or ""
        )
        if m.group("unit1") and unit == "+":
            unit = m.group("unit1")  # "89%+": a percentage (or more), not a count
        unit_norm = {
            "x": "×",
            "times": "×",
            "倍": "×",
            "points": "pp",
            "point": "pp",
            "percentage points": "pp",
            "percentage point": "pp",
        }.get(unit.lower(), unit)
        if unit_norm in ("thousand", "million", "billion", "trillion"):
            unit_norm = {"thousand": "K", "million": "M", "billion": "B", "trillion": "T"}[unit_norm]
        value = _value(m.group("num"))
        display = text[m.start("num") : m.end()].strip()
        lead_match = _LEAD.search(text, max(0, m.start() - 20), m.start())
        lead = lead_match.group(1) if lead_match else ""
        if lead.lower() == "by":
            lead = ""
        item = {
            "text": (lead + " " + display).strip() if lead else display,
            "value": value,
            "unit": unit_norm or None,
            "what": _what(text, m.start("num"), m.end()),
            "role": role_of(text, m.start("num"), m.end(), unit_norm or None, display),
            "context": context_of(text, m.start("num"), m.end()),
        }
        if m.group("num2"):
            item["value_to"] = _value(m.group("num2"))
        key = (item["text"], item["what"])
        if key in seen:
            continue
        seen.add(key)
        out.append(item)
    for m in _WORD_QUANTITY.finditer(text):
        v = _NUMBER_WORDS[m.group("word").lower()]
        if v is None:
            continue
        out.append(
            {
                "text": m.group("word"),
                "value": float(v),
                "unit": None,
                "what": m.group("noun").strip(),
                "role": "setup",
                "context": context_of(text, m.start(), m.end("word")),
            }
        )
    out.sort(key=lambda d: text.find(d["text"]))
    return _rank(out)[:limit]


def _rank(items: list[dict]) -> list[dict]:
    """Headline first: results before setup, then quantities with a unit (%, ×, B) before bare
    counts; order kept within."""
    return sorted(items, key=lambda d: (d["role"] != "result", 0 if d["unit"] else 1))


def describe(item: dict) -> str:
    """How a quantity is shown: with what it measures and against what, never bare. The
    context when there is one, else the number and the words after it."""
    context = (item.get("context") or "").strip()
    if context and context != item.get("text"):
        return context
    return " ".join(p for p in (item.get("text"), item.get("what")) if p)


def headline(numbers: list[dict]) -> dict | None:
    """The quantity a one-line summary shows: the first result with a unit, else the first
    result, else None (a setup number such as a model size is not a headline)."""
    results = [n for n in numbers if isinstance(n, dict) and n.get("role", "result") == "result"]
    return next((n for n in results if n.get("unit")), results[0] if results else None)
