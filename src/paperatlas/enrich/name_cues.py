"""The cue rules that find contribution-name candidates in an abstract (CUE_RULES, each a
function yielding Hits, its weight in WEIGHTS), the filter every hit passes (`_accept`), and
`candidates`, every candidate with its cue and weight. names.py merges and ranks them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from paperatlas.enrich import names_model
from paperatlas.enrich.known import is_known, is_known_exact
from paperatlas.enrich.name_shapes import (
    ADDRESS_WITH,
    APPOSITION_ANCHOR,
    CAPITAL_RUN_AT_END,
    CONNECTORS,
    EN_DASH_PAIR,
    HASH_SUFFIX,
    HEAD_BEFORE_PAREN,
    HEAD_RE,
    INTRO,
    LAST_TOKEN,
    LETTER_DIGIT,
    NAME_BEFORE_HEAD,
    NAMED,
    NAMED_WORDS,
    NEW_ADJECTIVES,
    OUR,
    OUR_ATTR,
    OUR_SUBJECT,
    PAREN_AT_END,
    PAREN_TEXT,
    PAREN_TOKEN,
    PARENTHETICAL_AT_END,
    PASSIVE,
    PASSIVE_SUBJECT,
    PASSIVE_WORDS,
    PLURAL_ACRONYM,
    REPO_NAME,
    SENT_START,
    STARTERS,
    SUBJECT_SLOT,
    SUBJECT_VERBS,
    TOKEN,
    TOKEN_RE,
    USED_BEFORE,
    WINDOW_STOP,
    Candidate,
    capital_run_name,
    intro_in_clause,
    introduced_at,
    is_name_like,
    last_token,
    long_form,
    multiword_ok,
    read_name,
    strip_token,
    written_out,
)
from paperatlas.enrich.text import clean, placeholder_macros
from paperatlas.text import FUNCTION_WORDS

# -- cue rules ------------------------------------------------------------------------------
# Each rule finds candidates in the abstract and says which cue it saw; the cue's weight below
# is the evidence one sighting gives. The learned scorer (names_model.py) then weighs every
# cue a name collected, with its shape, mentions and corpus spread; these weights are its
# fallback and one of its features.

W_NAMED = 4.5  # "named / called / dubbed / termed / which we call X"
W_DIRECT = 4.5  # "we propose X, ..." : set off right after the introducing verb
W_OUR = 4.0  # "our framework, X," / "the proposed method X"
W_ACRONYM_INTRO = 4.0  # "we present Contamination Detection via Context (CoDeC)"
W_ACRONYM_INTRO_LOWER = 3.0  # "we use mixed-integer linear programming (MILP)": often existing
W_ACRONYM = 1.5  # an acronym defined in place with no introducing cue
W_APPOSITIVE_INTRO = 4.0  # "we introduce X, a benchmark for ..."
W_APPOSITIVE = 3.0  # "X, a novel framework for ..." / "X is a new benchmark"
W_INTRO_RUN = 4.0  # "we propose Asymmetric Synthetic Data Update strategy"
W_INTRO_SET_OFF = 3.5  # "we introduce a new element, ASIDE, that ..."
W_INTRO_LATER = 2.5  # the first coined token later in the introducing clause
W_HEAD_PAREN = 3.5  # "a novel ... architecture (STKAN)" being introduced
W_OUR_ATTR = 3.5  # "our CogniPair simulation platform"
W_OUR_SUBJECT = 3.0  # "our X achieves ..."
W_NAME_HEAD_INTRO = 3.0  # "we propose the Log-To-Leak framework"
W_NAME_HEAD = 2.0  # "the X framework" elsewhere
W_PASSIVE = 3.0  # "X is proposed"
W_REPOSITORY = 2.0  # a repository named X that the text uses
W_EMPHASIS = 2.0  # \textbf{X}, \textsc{X}, \texttt{X}, \mathrm{X}, **X**, `X`
W_QUOTED_INTRO = 4.0  # we introduce "X" / “X”, ...
W_QUOTED = 1.5  # a quoted coined word elsewhere
W_USING_SUITE = 3.5  # "Using X, a suite of ..." (a sentence opening on the thing itself)
W_SUBJECT = 1.5  # a coined token the abstract keeps using as a subject
W_SUBJECT_ACRONYM = 1.0  # the same, for an all-caps token
PLURAL_ACRONYM_PENALTY = 1.5  # LLMs, SNNs: classes of things, not a name

WEIGHTS = {
    "named": W_NAMED,
    "direct": W_DIRECT,
    "our": W_OUR,
    "acronym-intro": W_ACRONYM_INTRO,
    "acronym-intro-lower": W_ACRONYM_INTRO_LOWER,
    "acronym": W_ACRONYM,
    "appositive-intro": W_APPOSITIVE_INTRO,
    "appositive": W_APPOSITIVE,
    "intro-run": W_INTRO_RUN,
    "intro-set-off": W_INTRO_SET_OFF,
    "intro-later": W_INTRO_LATER,
    "head-paren": W_HEAD_PAREN,
    "our-attr": W_OUR_ATTR,
    "our-subject": W_OUR_SUBJECT,
    "name-head-intro": W_NAME_HEAD_INTRO,
    "name-head": W_NAME_HEAD,
    "passive": W_PASSIVE,
    "repository": W_REPOSITORY,
    "emphasis": W_EMPHASIS,
    "quoted-intro": W_QUOTED_INTRO,
    "quoted": W_QUOTED,
    "using-suite": W_USING_SUITE,
    "subject": W_SUBJECT,
    "subject-acronym": W_SUBJECT_ACRONYM,
}


@dataclass
class Hit:
    """One sighting: the token, where, which cue, and how it is to be checked."""

    cue: str
    token: str | None
    pos: int
    strong: bool = True  # a strong cue lets a plain capitalised word be a name
    allow_family: bool = False  # "Qwen-Agent" after "we propose" is new, not a Qwen


@dataclass
class _Text:
    raw: str
    plain: str
    low: str


def _named(t: _Text):
    """named / called / dubbed / termed X."""
    if not any(w in t.low for w in NAMED_WORDS):
        return
    for m in NAMED.finditer(t.plain):
        yield Hit("named", read_name(t.plain, m.end(), multiword=True), m.end(), allow_family=True)


def _our(t: _Text):
    """our framework, X / the proposed method X."""
    for m in OUR.finditer(t.plain):
        tok = read_name(t.plain, m.end(), multiword=False)
        if tok:
            after = t.plain[m.end() + len(tok) : m.end() + len(tok) + 2]
            if after[:1] in (",", ")", " ", ".", ":", ";", "", "-", "—", "–") or after[:2] in ("’s", "'s"):
                yield Hit("our", tok, m.end())


def _acronym_defined(t: _Text):
    """Long Form (ACRO) / ComPhy (CP) / ACRO (Long Form)."""
    plain = t.plain
    for m in PAREN_TOKEN.finditer(plain):
        acro = m.group(1)
        if not any(c.isupper() for c in acro) or acro.lower() in ("e.g", "i.e", "ours"):
            continue
        before = plain[max(0, m.start() - 160) : m.start()]
        cut = max(before.rfind(". "), before.rfind("; "), before.rfind("("))
        before = before[cut + 1 :] if cut >= 0 else before
        form = long_form(acro, before)
        if form is None:
            continue
        cue = introduced_at(plain, m.start() - len(form) - 1, m.end())
        if " " not in form.strip() and is_name_like(form.strip(), False):
            # "ComPhy (CP)": the coined word is the name, the letters in brackets its alias
            yield Hit(
                "acronym-intro" if cue else "acronym",
                form.strip(),
                m.start() - len(form) - 1,
                allow_family=cue,
            )
            continue
        # "Contamination Detection via Context (CoDeC)" is coined; "mixed-integer linear
        # programming (MILP)" is usually an existing notion being abbreviated
        capitalised = sum(w[:1].isupper() for w in form.split()) >= max(1, len(form.split()) // 2)
        kind = ("acronym-intro" if capitalised else "acronym-intro-lower") if cue else "acronym"
        yield Hit(kind, acro, m.start(1), allow_family=cue)
    for m in PAREN_TEXT.finditer(plain):
        acro, start = last_token(plain, m.start())
        if (
            acro
            and sum(c.isupper() for c in acro) >= 2
            and len(m.group(1).split()) >= 2
            and long_form(acro, m.group(1)) is not None
        ):
            yield Hit("acronym-intro" if introduced_at(plain, start, m.end()) else "acronym", acro, start)


def _head_paren(t: _Text):
    """a novel ... architecture (STKAN)."""
    for m in PAREN_TOKEN.finditer(t.plain):
        if HEAD_BEFORE_PAREN.search(t.plain, max(0, m.start() - 30), m.start()) and introduced_at(
            t.plain, m.start(), m.end()
        ):
            yield Hit("head-paren", m.group(1), m.start(1), strong=False)


def _our_attribute(t: _Text):
    """our CogniPair simulation platform / our X achieves ..."""
    if "our " not in t.low:
        return
    for m in OUR_ATTR.finditer(t.plain):
        yield Hit("our-attr", m.group(1), m.start(1), strong=False)
    for m in OUR_SUBJECT.finditer(t.plain):
        yield Hit("our-subject", m.group(1), m.start(1), strong=False)


def _name_before_head(t: _Text):
    """the X framework / we propose the Log-To-Leak framework."""
    for m in NAME_BEFORE_HEAD.finditer(t.plain):
        tok = m.group(2)
        # "the proposed S2L-equations benchmark": the adjective says it is this paper's
        introduced = (m.group(1) or "").lower() in NEW_ADJECTIVES or introduced_at(
            t.plain, m.start(), m.end()
        )
        # joined ordinary words count once introduced
        # "we propose a Terrarium framework": a capitalised word inside a sentence, before
        # the head noun of something introduced, is its name
        if (
            is_name_like(tok, False)
            or (introduced and ("-" in tok or tok[:1].isupper()) and is_name_like(tok, True))
        ) and not is_known(tok):
            yield Hit("name-head-intro" if introduced else "name-head", tok, m.start(2))


def _appositive(t: _Text):
    """X, a novel framework ... / X is a new benchmark / X — a suite of ..."""
    plain = t.plain
    for m in APPOSITION_ANCHOR.finditer(plain):
        head = HEAD_RE.search(plain, m.end(), min(len(plain), m.end() + 70))
        if head is None:
            continue
        between = plain[m.end() : head.start()]
        if len(between.split()) > 6 or re.search(r"[.;]\s", between):
            continue
        # the token right before the anchor, skipping a parenthetical
        left = plain[max(0, m.start() - 120) : m.start()]
        paren = PAREN_AT_END.search(left) if left.endswith(")") else None
        tm: re.Match[str] | None
        if paren and is_name_like(paren.group(1), True):
            tm = paren
        else:
            if left.endswith(")"):
                left = PARENTHETICAL_AT_END.sub("", left)
            tm = LAST_TOKEN.search(left[-60:])
            if tm:
                left = left[-60:]
        if not tm:
            continue
        prefix = left[: tm.start()]
        ours = plain[m.start() : m.end()].rstrip().lower().endswith("our")  # "X, our new benchmark"
        if (
            not ours
            and USED_BEFORE.search(prefix[-40:])
            and not INTRO.search(prefix[-60:])
            and not ADDRESS_WITH.search(prefix[-80:])
        ):
            if _USING_AT_START.search(prefix[-40:]) and _SUITE_HEAD.match(plain, m.end()):
                # "Using X, a suite of ...": the sentence opens on the thing it describes
                yield Hit("using-suite", tm.group(1), m.start() - len(tm.group(1)))
            continue
        intro = bool(INTRO.search(prefix[-80:]))
        if tm is not paren and tm.group(1)[:1].isupper():
            run = CAPITAL_RUN_AT_END.search(prefix[-80:])
            if run and not INTRO.search(run.group(1)) and not SENT_START.search(prefix[-80:][: run.start()]):
                words = run.group(1).split()
                while words and (words[0].lower() in STARTERS or is_known(words[0])):
                    words.pop(0)
                if (
                    not words
                    and not is_name_like(tm.group(1), False)
                    and intro_in_clause(prefix[-80:][: run.start()])
                ):
                    # "we introduce LLM Chemistry, a ..." / "SWE-Bench Pro": an ordinary word
                    # after known terms, right after the verb, is named together with them
                    words = run.group(1).split()
                if words:
                    name = " ".join([*words, tm.group(1)])
                    yield Hit(
                        "appositive-intro" if intro else "appositive",
                        name,
                        m.start() - len(name),
                        allow_family=True,
                    )
                    continue
        right_after_intro = intro_in_clause(prefix[-80:])
        if not (tm is paren or is_name_like(tm.group(1), False) or right_after_intro):
            continue
        yield Hit(
            "appositive-intro" if intro else "appositive",
            tm.group(1),
            m.start() - len(tm.group(1)),
            allow_family=intro,
        )


def _window_stop(span: str) -> re.Match[str] | None:
    """Where the words after an introducing verb stop being its object (WINDOW_STOP), not
    counting a word inside a lower-case compound ("an end-to-end differentiable framework,
    DCTS, ..."): "ANN-to-SNN" and "video-to-4D" still stop, as they always did."""
    for m in WINDOW_STOP.finditer(span):
        a, b = m.start(), m.end()
        if (
            span[a - 2 : a - 1].islower()
            and span[a - 1 : a] == "-"
            and span[b : b + 1] == "-"
            and span[b + 1 : b + 2].islower()
        ):
            continue
        return m
    return None


def _introducing_verb(t: _Text):
    """we present / propose / introduce ... X: the first name-like token before the clause ends."""
    plain = t.plain
    for m in INTRO.finditer(plain):
        span = plain[m.end() : m.end() + 200]
        stop = _window_stop(span)
        window = span[: stop.start()] if stop else span
        set_off_found = False
        first = None
        for i, tm in enumerate(TOKEN_RE.finditer(window)):
            tok = tm.group(0)
            # "a new architectural element, ASIDE, that ..." / "a model, VLAC, which ..."
            set_off = (
                window[max(0, tm.start() - 2) : tm.start()] == ", "
                and i > 1
                and (
                    window[tm.end() : tm.end() + 1] in (",", "(", "")
                    or window[tm.end() : tm.end() + 5] == " and "
                )
            )
            if set_off and is_name_like(tok, True) and not is_known_exact(tok):
                yield Hit("intro-set-off", tok, m.end() + tm.start(), allow_family=True)
                set_off_found = True
                break
            if first is None and is_name_like(tok, False) and not is_known(tok):
                first = (i, tm)
        if set_off_found:
            continue
        if stop and stop.group(0).strip() in ("-", "–", "—", "--", "---"):
            # "a unified framework - UEP - to ..." / "a pruning method for SSMs — AIRE-Prune ("
            after = _DASHED_NAME.match(span, stop.end())
            if after and is_name_like(after.group(1), True) and not is_known_exact(after.group(1)):
                yield Hit("intro-set-off", after.group(1), m.end() + stop.end(), allow_family=True)
                continue
        t0 = TOKEN_RE.search(window)
        at_verb = t0 is not None and window[: t0.start()].strip() in ("", "the")
        if (
            t0 is not None
            and at_verb
            and window[t0.end() : t0.end() + 2] in (", ", " (", ",", ":", "")  # set off
            and t0.group(0)[:1].isupper()
            and (
                is_name_like(t0.group(0), True)
                or (LETTER_DIGIT.fullmatch(t0.group(0)) and APPOSITION_ANCHOR.match(window, t0.end()))
            )
        ):
            # "we propose Eidolon, ..." / "we introduce J1, a ...": set off right after the verb
            yield Hit("direct", t0.group(0), m.end() + t0.start(), allow_family=True)
        elif (
            t0 is not None
            and at_verb
            and t0.group(0)[:1].isupper()
            and (capital_run := capital_run_name(window, t0.start()))
        ):
            yield Hit("intro-run", capital_run, m.end() + t0.start())
        elif first is not None:
            i, tm = first
            # right after the verb (or its article) and set off: "we propose X, ..." / "the X ("
            follows = window[tm.end() : tm.end() + 2]
            strong_pos = i <= 1 and (follows[:1] in (",", ":", "") or follows == " (")
            yield Hit(
                "direct" if strong_pos else "intro-later",
                tm.group(0),
                m.end() + tm.start(),
                strong=False,
                allow_family=strong_pos,
            )


_DASHED_NAME = re.compile(r"(" + TOKEN + r")\s*(?:[-–—]+\s|\(|,|$)")
_OUR_WORK = re.compile(
    r"\b(?:our|this)\s+(?:work|paper|contribution|solution|answer|proposal),?\s+"
    r"(" + TOKEN + r")\s*(?:,|\(|[-–—]\s)",
    re.I,
)


def _our_work(t: _Text):
    """Our work, SkillFactory, is a method ... / Our solution, X, ..."""
    if "our " not in t.low and "this " not in t.low:
        return
    for m in _OUR_WORK.finditer(t.plain):
        yield Hit("our", m.group(1), m.start(1))


_LATIN_TOKEN = r"[A-Za-z0-9]+(?:[-+_.'][A-Za-z0-9]+)*\+*"
_ZH_INTRO = re.compile(
    r"(?:我们|本文|本研究|本工作|作者)(?:首先|进一步|还|也)?(?:提出|推出|构建|发布|引入|"
    r"介绍|设计|开发|建立)了?\s*(?:一个|一种|一套|新的|新颖的|全新的)*[^,，。;；]{0,24}?"
    r"(?:名为|称为|叫做)?\s*[\"“「《]?(" + _LATIN_TOKEN + r")"
)
_ZH_NAMED = re.compile(r"(?:名为|称为|叫做|简称|命名为|即)\s*[\"“「《]?(" + _LATIN_TOKEN + r")")


def _chinese(t: _Text):
    """Latin-script names in a Chinese abstract: 我们提出了 FastGS / 名为 X 的框架."""
    if not re.search(r"[\u4e00-\u9fff]", t.plain[:200]):
        return
    for m in _ZH_NAMED.finditer(t.plain):
        yield Hit("named", m.group(1), m.start(1), allow_family=True)
    for m in _ZH_INTRO.finditer(t.plain):
        yield Hit("direct", m.group(1), m.start(1), allow_family=True)


def _passive(t: _Text):
    """X is proposed / X, is introduced."""
    if not any(w in t.low for w in PASSIVE_WORDS):
        return
    for m in PASSIVE.finditer(t.plain):
        left = PARENTHETICAL_AT_END.sub("", t.plain[max(0, m.start() - 200) : m.start()])
        tm = PASSIVE_SUBJECT.search(left[-80:])
        if tm:
            yield Hit("passive", tm.group(1), m.start(), strong=False)


def _repository(t: _Text):
    """github.com/org/X where the text also says X."""
    if "/" not in t.plain:
        return
    for m in REPO_NAME.finditer(t.plain):
        repo = HASH_SUFFIX.sub("", m.group(1))
        if is_name_like(repo, False) and repo in t.plain[: m.start()] + t.plain[m.end() :]:
            yield Hit("repository", repo, m.start(1), strong=False)


def _emphasis(t: _Text):
    """Emphasised coined words in the raw text: \\textsc{X}, \\emph{X}, \\texttt{X},
    \\mathrm{X}, **X**, `X` (a run of up to three capitalised words counts too)."""
    raw = t.raw
    if "\\" not in raw and "*" not in raw and "`" not in raw:
        return
    for m in _EMPHASIS.finditer(raw):
        if raw[m.end() : m.end() + 1].isalpha() or raw[max(0, m.start() - 1) : m.start()].isalpha():
            continue
        inner = clean(next(g for g in m.groups() if g is not None)).strip().strip(".,:;")
        words = inner.split()
        if not words or len(words) > 3:
            continue
        if len(words) > 1 and not all(w[:1].isupper() or w.lower() in CONNECTORS for w in words):
            continue
        pos = t.plain.find(inner)
        yield Hit("emphasis", inner, pos if pos >= 0 else len(t.plain))


def _quoted(t: _Text):
    """A coined word in quotes: we introduce “X”, ... / "X"."""
    if not any(q in t.plain for q in _QUOTE_CHARS):
        return
    for m in _QUOTED.finditer(t.plain):
        inner = m.group(1).strip()
        words = inner.split()
        if not 1 <= len(words) <= 3 or not inner[:1].isalnum():
            continue
        if len(words) > 1 and not all(w[:1].isupper() or w.lower() in CONNECTORS for w in words):
            continue
        intro = bool(INTRO.search(t.plain, max(0, m.start() - 60), m.start())) or bool(
            NAMED.search(t.plain, max(0, m.start() - 30), m.start() + 2)
        )
        yield Hit("quoted-intro" if intro else "quoted", inner, m.start(1), strong=intro, allow_family=intro)


def _subject(t: _Text):
    """A coined token the abstract keeps using as a subject ("X achieves ...")."""
    plain = t.plain
    for m in SUBJECT_VERBS.finditer(plain):
        tok, start = last_token(plain, m.start())
        if not tok or (not SUBJECT_SLOT.search(plain[max(0, start - 8) : start]) and start > 0):
            continue
        if is_name_like(tok, False):
            yield Hit("subject" if not tok.isupper() else "subject-acronym", tok, start, strong=False)


_QUOTE_CHARS = ('"', "“", "‘", "'")
_QUOTED = re.compile(r"(?:(?<=\s)|^)[\"“‘']([^\"“”‘’'\n]{2,40}?)[\"”’'](?=[\s,.;:)]|$)")
_USING_AT_START = re.compile(r"(?:^|[.!?]\s+)(?:Using|With|Leveraging|Through|Via)\s*$")
_SUITE_HEAD = re.compile(
    r"(?:[\w-]+\s+){0,3}?(?:suite|collection|set|family|"
    r"benchmark|dataset|corpus|library|toolkit|testbed)\b",
    re.I,
)

# The cue rules, in the order they run. Each yields Hits; WEIGHTS gives each cue's weight.
CUE_RULES = (
    ("named", _named),
    ("our", _our),
    ("our-work", _our_work),
    ("acronym", _acronym_defined),
    ("head-paren", _head_paren),
    ("our-attr", _our_attribute),
    ("name-head", _name_before_head),
    ("appositive", _appositive),
    ("intro", _introducing_verb),
    ("passive", _passive),
    ("repository", _repository),
    ("emphasis", _emphasis),
    ("quoted", _quoted),
    ("subject", _subject),
    ("chinese", _chinese),
)


def _accept(hit: Hit, t: _Text, placeholders: set[str]) -> str | None:
    """The hit's token cleaned, or None when it cannot be a name of this paper."""
    token = strip_token(hit.token or "")
    if not token:
        return None
    if token.lower() in placeholders and not written_out(token, t.raw):
        return None  # \tool stands for a name the abstract never spells out
    if is_known_exact(token) or (not hit.allow_family and is_known(token)):
        return None
    if " " not in token and (
        (token.lower() in FUNCTION_WORDS and token[1:].islower()) or not is_name_like(token, hit.strong)
    ):
        return None  # "(termed Ours)": a pronoun or article is never a name
    if " " not in token and names_model.is_descriptive_compound(token):
        return None  # RLHF-aligned, LLM-based: a description, not a name
    if EN_DASH_PAIR.fullmatch(token):
        return None  # Hamilton–Jacobi, Kullback--Leibler, Vision–Language: a pair, not a coinage
    if hit.cue != "named" and names_model.is_generic_acronym(token):
        return None  # LR, CE, NN: short acronyms many unrelated papers use are terms
    if " " in token and not multiword_ok(token):
        return None
    return token


# "MIDAS (Saunshi et al., 2024)", "DMD [12]": a name followed by its citation is prior work
_CITATION = re.compile(
    r"\((?:[^()]{0,60}?\bet\s+al\.?|[A-Z][^()]{0,40}?),?\s*(?:19|20)\d\d[a-z]?(?:[;,][^()]{0,60})?\)|"
    r"\[\d+(?:[,–-]\s*\d+)*\]"
)


_PAIR_ACRONYM = re.compile(r"(?<![\w–-])[A-Z][a-z]+(?:--|–)[A-Z][a-z]+\s*\(\s*([A-Z]{2,3})\s*\)")


def cited_names(plain: str) -> set[str]:
    """Tokens that are not this paper's name: those the abstract follows with a citation
    (other people's work), and the letters of an en-dash pair (Hamilton–Jacobi–Bellman (HJB))."""
    out = set()
    for m in _CITATION.finditer(plain):
        tok, _ = last_token(plain, m.start())
        if tok:
            out.add(strip_token(tok))
    if "–" in plain or "--" in plain:
        out.update(m.group(1) for m in _PAIR_ACRONYM.finditer(plain))
    return out


def candidates(raw: str, plain: str | None = None) -> list[Candidate]:
    """Every name candidate with its cue and weight (before merging), from CUE_RULES."""
    plain = clean(raw) if plain is None else plain
    t = _Text(raw, plain, plain.lower())
    placeholders = {p.lower() for p in placeholder_macros(raw)} if "\\" in raw else set()
    cited = cited_names(plain)
    out: list[Candidate] = []
    for _, rule in CUE_RULES:
        for hit in rule(t):
            token = _accept(hit, t, placeholders)
            if token is None or (cited and token.rsplit(None, 1)[-1] in cited):
                continue
            score = WEIGHTS[hit.cue]
            if hit.cue != "named" and PLURAL_ACRONYM.fullmatch(token):
                score -= PLURAL_ACRONYM_PENALTY
            out.append(Candidate(token, score, hit.pos, hit.cue))
    return out


_EMPHASIS = re.compile(
    r"\\(?:textbf|textsc|texttt|textit|emph|mathtt|mathsf|textsf|mathbf|mathrm|mathcal|text|"
    r"underline)\s*\{\s*((?:[^{}]|\{[^{}]*\}){2,60}?)\s*\}|\*\*([^*\n]{2,40}?)\*\*|"
    r"(?<![\w*])\*([A-Z][^*\n]{1,30}?)\*(?![\w*])|`([^`\n]{2,30})`|(?<!\w)__([^_\n]{2,40}?)__"
)
