"""Contribution names: what the abstract itself introduces ("We present CIMemories").

Candidates come from cues authors use when they coin a name, each with a weight:
  - an introducing verb: "we present/propose/introduce ... X"
  - "named/called/dubbed/termed X"
  - an appositive: "X, a novel framework for ..." / "X is a new benchmark"
  - an acronym defined in place: "Hessian-Enhanced Token Attribution (HETA)"
  - emphasis on a coined word: `\\textbf{X}`, `\\textsc{X}`, `$\\texttt{X}$`, `**X**`
and are then filtered: undefined LaTeX placeholders (`\\tool`), well-known existing things
(known.py), things only used ("using X", "such as X"), and ordinary words. A paper with no
cue gets no name: an invented name is worse than none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from paperatlas.enrich.known import is_known
from paperatlas.enrich.text import placeholder_macros, sentences

# A name token: letters/digits joined by - . + _ (no trailing punctuation).
_TOKEN = r"[A-Za-z0-9][A-Za-z0-9]*(?:[-+_.'][A-Za-z0-9]+)*(?:\+\+|\+)?"
_TOKEN_RE = re.compile(_TOKEN)

_INTRO_VERBS = (
    r"present|propose|introduce|develop|design|build|construct|release|curate|create|contribute|"
    r"establish|devise|offer|unveil|formulate|put\s+forward|provide|describe|collect|assemble|"
    r"open-source|train|pretrain|launch|report|derive|define")
_INTRO = re.compile(
    r"\b(?:we|this\s+(?:paper|work|study)|here,?\s+we|our\s+(?:paper|work))\s+"
    r"(?:(?:also|further|then|first|additionally|therefore|thus|hence|now|newly|instead|"
    r"formally|carefully|systematically|jointly|empirically|theoretically)\s+)?"
    rf"(?:{_INTRO_VERBS})(?:s|es|d|ed)?\b", re.I)
_NAMED = re.compile(
    rf"\b(?:named|called|dubbed|termed|coined|nicknamed|namely|denoted(?:\s+as)?|"
    rf"referred\s+to\s+as|which\s+we\s+(?:call|name|term|dub)|we\s+(?:call|name|term|dub)\s+"
    rf"(?:it|this|them|our\s+\w+))\s*[:,]?\s*[\"'“‘]?({_TOKEN}(?:\s+{_TOKEN}){{0,3}})")
# "X, a novel framework" / "X: a benchmark" / "X is a new method" / "X, an open ..."
_APPOSITIVE = re.compile(
    rf"(?<![\w-])({_TOKEN})\s*(?:\([^()]{{1,60}}\)\s*)?(?:,|:|\s+is|\s+-|\s+—|\s+–)\s+"
    r"(?:a|an|the\s+first|our|the)\s+(?:\w+[\s-]+){0,4}?"
    r"(?:framework|method|benchmark|dataset|model|approach|algorithm|technique|system|suite|"
    r"agent|architecture|pipeline|library|toolkit|tool|platform|corpus|environment|metric|"
    r"strategy|paradigm|family|network|estimator|optimizer|protocol|mechanism|module|recipe|"
    r"procedure|scheme|test|testbed|collection|simulator|engine|language|solver|policy|"
    r"objective|loss|layer|attack|defense|defence|evaluation|database|resource|arena|challenge|"
    r"foundation|series|set|generator|planner|compiler|index|score|measure|criterion|game)s?\b")
# "Long Name Words (ACRO)"
_ACRONYM = re.compile(r"((?:[A-Za-z0-9][\w'-]*\s+){1,9}?)\(\s*(" + _TOKEN + r")\s*\)")
# Emphasis in the raw text.
_EMPHASIS = re.compile(
    r"\\(?:textbf|textsc|texttt|textit|emph|mathtt|mathsf|textsf|mathbf|mathrm|text|"
    r"underline)\s*\{\s*(?:\\[a-z]+\s*\{)?\s*([^{}$\\]{2,40}?)\s*\}|\*\*([^*\n]{2,40}?)\*\*|"
    r"(?<![\w*])\*([A-Z][^*\n]{1,30}?)\*(?![\w*])|`([^`\n]{2,30})`|__([^_\n]{2,40}?)__")
# Words that precede a thing being used rather than introduced.
_USED_BEFORE = re.compile(
    r"(?:using|use|uses|with|via|such\s+as|e\.g\.,?|including|like|on|of|from|than|over|"
    r"versus|vs\.?|against|to|and|or|by|leveraging|applying|apply|employ|employing|fine-tune|"
    r"finetune|fine-tuning|train|training|evaluate|evaluating|compared\s+to|extends?|extending|"
    r"existing|popular|standard|prior|previous|baseline|baselines|models?\s+like)\s*$", re.I)

# Capitalised words that are English, not names (sentence starts, headings).
_COMMON = frozenset("""
a an the this that these those our we it its their in on of for to and or but with by from as at
however moreover furthermore additionally finally first second third specifically notably
recently existing experiments experimental results result extensive empirically theoretically
code data dataset datasets benchmark benchmarks model models method methods approach framework
large language vision learning deep neural network networks graph graphs reinforcement diffusion
abstract introduction conclusion overall together based using while although despite unlike
given since because thus hence therefore then also both each all many most some such other new
novel simple efficient effective robust general unified scalable first-order zero-shot few-shot
in-context out-of-distribution multi-agent multi-modal multimodal state-of-the-art open-source
yes no not only even though when where which who what how why here there
""".split())


@dataclass
class _Candidate:
    name: str
    score: float
    position: int


def _is_name_like(token: str, strong: bool) -> bool:
    """A coined-looking token: inner capitals, digits with letters, or (with a strong cue)
    a capitalised word that is not ordinary English."""
    if len(token) < 2 or len(token) > 40:
        return False
    if token.lower() in _COMMON or not re.search(r"[A-Za-z]", token):
        return False
    if token.isdigit() or re.fullmatch(r"\d+(?:\.\d+)?[A-Za-z]?", token):
        return False
    if token[0].islower() and not re.search(r"[A-Z]", token[1:]):
        return False  # plain lower-case word
    inner_caps = sum(1 for c in token[1:] if c.isupper())
    has_digit = any(c.isdigit() for c in token)
    if inner_caps >= 1 or (has_digit and token[0].isalpha()):
        return True
    return strong and token[0].isupper() and len(token) >= 3


def _clean_token(tok: str) -> str:
    tok = tok.strip(" \t\"'“”‘’.,;:!?()[]{}")
    if tok.endswith("'s") or tok.endswith("’s"):
        tok = tok[:-2]
    return tok


def _acronym_matches(words: list[str], acro: str) -> bool:
    """Does ACRO abbreviate the trailing words (initials, or letters of each word in order)?"""
    letters = [c.lower() for c in acro if c.isalpha()]
    if len(letters) < 2:
        return False
    parts = []
    for w in words:
        parts.extend(p for p in re.split(r"[-\s]", w) if p)
    if not parts:
        return False
    # Greedy: each acronym letter must come from a word, in order; first letter = first
    # letter of some word, and the words used must cover the tail of the phrase.
    joined = [p.lower() for p in parts]
    i = len(letters) - 1
    j = len(joined) - 1
    # Walk backwards matching letters to word starts or inside words.
    while i >= 0 and j >= 0:
        w = joined[j]
        k = len(w)
        matched_start = False
        while i >= 0 and k > 0:
            pos = w.rfind(letters[i], 0, k)
            if pos < 0:
                break
            k = pos
            i -= 1
            if pos == 0:
                matched_start = True
                break
        if not matched_start and i >= 0:
            return False
        j -= 1
    return i < 0


def _used_context(text: str, start: int) -> bool:
    return bool(_USED_BEFORE.search(text[max(0, start - 30):start]))


def extract_names(text: str, clean_text: str | None = None) -> list[str]:
    """Names the abstract introduces, headline first ([] when it coins none).

    `text` is the raw abstract (markup still in: emphasis is a cue); `clean_text` its
    clean() form if the caller has it.
    """
    from paperatlas.enrich.text import clean

    raw = text or ""
    plain = clean_text if clean_text is not None else clean(raw)
    placeholders = {p.lower() for p in placeholder_macros(raw)}
    cands: list[_Candidate] = []

    def add(token: str, score: float, pos: int, strong: bool = True) -> None:
        token = _clean_token(token)
        if not token or token.lower() in placeholders or is_known(token):
            return
        if not _is_name_like(token, strong):
            return
        cands.append(_Candidate(token, score, pos))

    # 1. named / called X
    for m in _NAMED.finditer(plain):
        first = _TOKEN_RE.match(m.group(1))
        if first:
            phrase = m.group(1)
            # Keep multi-word names only when every word is capitalised ("Diffusion Forcing").
            toks = phrase.split()
            keep = [toks[0]]
            for t in toks[1:]:
                if t[0].isupper() and t.lower() not in _COMMON:
                    keep.append(t)
                else:
                    break
            name = " ".join(keep) if len(keep) > 1 and not _is_name_like(keep[0], False) else keep[0]
            add(name, 5.0, m.start(1))

    # 2. acronyms defined in place
    for m in _ACRONYM.finditer(plain):
        acro = _clean_token(m.group(2))
        words = m.group(1).split()
        # Only the trailing capitalised run can be the long form.
        if not any(c.isupper() for c in acro):
            continue
        n = len([c for c in acro if c.isalpha()])
        tail = words[-max(1, min(len(words), n + 2)):]
        if _acronym_matches(tail, acro):
            sent_start = plain.rfind(". ", 0, m.start()) + 1
            sentence = plain[sent_start:m.end() + 80]
            cue = _INTRO.search(sentence) or re.search(
                r"\b(?:our|novel|new|named|called|termed|dubbed)\b", sentence, re.I)
            add(acro, 4.0 if cue else 1.0, m.start(2))

    # 3. appositive: X, a novel framework ...
    for m in _APPOSITIVE.finditer(plain):
        if _used_context(plain, m.start(1)):
            continue
        add(m.group(1), 3.0, m.start(1))

    # 4. introducing verb followed by a name-like token in the next few words
    for m in _INTRO.finditer(plain):
        span = plain[m.end():m.end() + 160]
        stop = re.search(r"[.;]\s|\b(?:that|which|where|whose|using|leveraging|based\s+on|by|"
                         r"to|with|via|on|from)\b", span)
        window = span[:stop.start()] if stop else span
        for t in _TOKEN_RE.finditer(window):
            tok = t.group(0)
            if _is_name_like(tok, False):
                add(tok, 3.5 - 0.1 * len(window[:t.start()].split()), m.end() + t.start(),
                    strong=False)
                break

    # 5. emphasised coined words in the raw text
    for m in _EMPHASIS.finditer(raw):
        inner = next(g for g in m.groups() if g is not None).strip()
        if len(inner.split()) == 1:
            # position in the clean text, approximately, by search
            pos = plain.find(inner)
            add(inner, 2.5, pos if pos >= 0 else len(plain), strong=True)

    if not cands:
        return []
    # Merge by name (case-insensitive, plural s), summing evidence; recurrence helps.
    merged: dict[str, _Candidate] = {}
    for c in cands:
        key = c.name.lower().rstrip("s") if len(c.name) > 3 else c.name.lower()
        if key in merged:
            merged[key].score += c.score * 0.5
            merged[key].position = min(merged[key].position, c.position)
        else:
            merged[key] = _Candidate(c.name, c.score, c.position)
    for c in merged.values():
        mentions = len(re.findall(r"(?<![\w-])" + re.escape(c.name) + r"(?![\w-])", plain))
        c.score += 0.5 * min(mentions - 1, 3)
    kept = [c for c in merged.values() if c.score >= 2.5]
    kept.sort(key=lambda c: (-c.score, c.position))
    return [c.name for c in kept]
