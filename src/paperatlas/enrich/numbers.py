"""Headline quantities: "up to 69% attribute-level violations", "6.0× fewer FLOPs", "1,435 queries".

Works on clean text (text.clean has already turned `18.8\\%` into `18.8%`, `10$\\times$` into
`10×` and mended `12. 5 %`). Each quantity gets a value, a unit and the words that say what
it measures; a range ("14%-69%", "1.6–2.1×") also carries `value_to`. Years, citations,
equation numbers and model-name digits (GPT-4) are skipped.
"""

from __future__ import annotations

import re

from paperatlas.enrich.known import is_known

_NUMBER_WORDS = {
    "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30,
    "forty": 40, "fifty": 50, "hundred": 100, "dozens": None, "hundreds": None, "thousands": None,
}

_NUM = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_UNIT = (r"\s*%|\s*×|x(?![A-Za-z0-9])|\s*times\b|\s*pp\b|\s*(?:percentage\s+)?points?\b|"
         r"\s*(?:thousand|million|billion|trillion)\b|[KMBT](?![A-Za-z])|k(?![A-Za-z])|\+")
# The words before a number that qualify it ("up to 69%"), looked for once a number is found.
_LEAD = re.compile(r"(?<![\w])(up\s+to|over|more\s+than|nearly|about|approximately|around|"
                   r"roughly|at\s+least|at\s+most|only|just|by|~|≈|>|<|≥|≤)\s*$", re.I)
_QUANTITY = re.compile(
    rf"(?<![\w.\-/])(?P<num>{_NUM})(?P<unit1>%|×|x(?![A-Za-z0-9]))?"
    rf"(?:\s*(?P<range>[-–—~]|to)\s*(?P<num2>{_NUM}))?"
    rf"(?P<unit>{_UNIT})?(?P<unit2>%|×|\+)?")
_WORD_QUANTITY = re.compile(
    r"\b(?P<word>" + "|".join(k for k in _NUMBER_WORDS) + r")\s+(?P<noun>(?:[a-z][\w-]*\s+){0,2}?"
    r"(?:datasets|benchmarks|tasks|languages|domains|models|modalities|environments|categories|"
    r"metrics|settings|scenarios|games|baselines|architectures|families|types|levels|dimensions|"
    r"sources|subtasks|skills|axes|capabilities))\b", re.I)
_WHAT_AFTER = re.compile(r"^\s*(?:(?:of|in|on|for)\s+)?((?:[A-Za-z][\w-]*\s*){1,4})")
_STOP = frozenset("""a an the and or of in on for to with by from at as than that which is are was were
be been this these those while across over under compared relative against its their our
respectively average on-average""".split())
_WORD_BEFORE = re.compile(r"([A-Za-z][\w.-]*)\s+$")
_PARTICIPLES = frozenset("written drawn taken given made built shown known seen chosen held "
                         "run spent sent".split())
_BEFORE_BY = re.compile(r"((?:[A-Za-z][\w-]*\s+){1,4})(?:by|of|to|at|reaching|achieving|achieves|"
                        r"reaches|with)\s*(?:up\s+to\s+|over\s+|about\s+|nearly\s+|more\s+than\s+|"
                        r"an?\s+average\s+of\s+|only\s+|just\s+)?$", re.I)


def _value(num: str) -> float:
    return float(num.replace(",", ""))


def _what(text: str, start: int, end: int) -> str:
    after = text[end:end + 60]
    m = _WHAT_AFTER.match(after)
    if m:
        ws = []
        for w in m.group(1).split():
            wl = w.lower().strip(",.;:")
            if wl in _STOP or not w[0].isalpha():
                break
            if ws and (re.search(r"(?:ing|ed)$", wl.strip(",.;:()")) or wl.strip(",.;:()") in _PARTICIPLES):
                break  # "queries spanning ..." -> "queries"
            ws.append(w.strip(",.;:()"))
            if w[-1] in ",.;:":
                break
        if ws and ws[0].lower() not in ("improvement", "gain", "increase", "reduction",
                                         "speedup", "faster", "fewer", "less", "more", "higher",
                                         "lower", "better", "relative", "absolute", "average"):
            return " ".join(ws)
        if ws:
            return " ".join(ws)
    before = text[max(0, start - 60):start]
    m = _BEFORE_BY.search(before)
    if m:
        ws = [w for w in m.group(1).split() if w.lower() not in _STOP]
        return " ".join(ws[-3:])
    return ""


def _is_noise(text: str, m: re.Match) -> bool:
    num = m.group("num")
    unit = (m.group("unit1") or "") + (m.group("unit") or "").strip() + (m.group("unit2") or "")
    s, e = m.start("num"), m.end()
    prev = text[max(0, s - 1):s]
    if prev and (prev.isalpha() or prev in "-_/"):
        return True  # part of a name: GPT-4, Qwen3, L2
    before = _WORD_BEFORE.search(text, max(0, s - 25), s)
    if before and not unit and is_known(before.group(1)):
        return True  # a model version written apart: Llama 3.1, Qwen 2.5
    if not unit and not m.group("num2"):
        v = _value(num)
        if "." not in num and 1900 <= v <= 2100:
            return True  # a year
        if text[e:e + 1] == ")" and text[max(0, s - 1):s] == "(":
            return True  # (1) enumeration / equation
        nxt = text[e:e + 25]
        if "." in num:
            return False  # a measurement (0.87 F1, 45.3 BLEU)
        if not re.match(r"\s*(?:[A-Za-z][\w-]*)", nxt) or re.match(r"\s*(?:and|or|of|in|on|to)\b", nxt):
            return True  # a bare number followed by nothing countable
        if v < 2 and "." not in num:
            return True
    return False


def extract_numbers(text: str, limit: int = 10) -> list[dict]:
    """[{text, value, unit, what}] for the abstract's quantities, in order."""
    out: list[dict] = []
    seen = set()
    for m in _QUANTITY.finditer(text):
        if _is_noise(text, m):
            continue
        unit = ((m.group("unit") or "").strip() + (m.group("unit2") or "")).strip() or \
            (m.group("unit1") or "")
        unit_norm = {"x": "×", "times": "×", "points": "pp", "point": "pp",
                     "percentage points": "pp", "percentage point": "pp"}.get(unit.lower(), unit)
        if unit_norm in ("thousand", "million", "billion", "trillion"):
            unit_norm = {"thousand": "K", "million": "M", "billion": "B", "trillion": "T"}[unit_norm]
        value = _value(m.group("num"))
        display = text[m.start("num"):m.end()].strip()
        lead_match = _LEAD.search(text, max(0, m.start() - 20), m.start())
        lead = lead_match.group(1) if lead_match else ""
        if lead.lower() == "by":
            lead = ""
        item = {
            "text": (lead + " " + display).strip() if lead else display,
            "value": value,
            "unit": unit_norm or None,
            "what": _what(text, m.start("num"), m.end()),
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
        out.append({"text": m.group("word"), "value": float(v), "unit": None,
                    "what": m.group("noun").strip()})
    out.sort(key=lambda d: text.find(d["text"]))
    return _rank(out)[:limit]


def _rank(items: list[dict]) -> list[dict]:
    """Headline first: quantities with a unit (%, ×, B) before bare counts, order kept within."""
    return sorted(items, key=lambda d: 0 if d["unit"] else 1)
