"""The shape of a contribution name and the text around it: the token pattern, the regular
expressions and word lists the cue rules (name_cues.py) read, whether a token looks coined,
a name read at a position, and an acronym's long form (Schwartz-Hearst letter alignment).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from paperatlas.enrich.known import is_known, is_known_exact
from paperatlas.text import FUNCTION_WORDS

# A name token: letters/digits joined by - . + _ ' (trailing ++ allowed, as in C++).
# A bracketed part inside a name is allowed when letters follow it (A-(B)C, S(M)oE), so
# "LLM(s)" or "f(x)" stay apart.
TOKEN = r"[^\W_]+(?:[-+_.'’/&]?\([^\W_]{1,12}\)[^\W_]+|[-+_.'’/&][^\W_]+)*\+*\*?"
TOKEN_RE = re.compile(TOKEN)

_HEAD_NOUNS = (
    r"framework|method|methodology|benchmark|dataset|data\s*set|model|approach|algorithm|technique|"
    r"system|suite|agent|architecture|pipeline|library|toolkit|tool|platform|corpus|environment|"
    r"metric|strategy|paradigm|family|network|estimator|optimizer|protocol|mechanism|module|"
    r"recipe|procedure|scheme|test|testbed|collection|simulator|engine|language|solver|policy|"
    r"objective|loss|layer|attack|defen[cs]e|evaluation|database|resource|arena|challenge|"
    r"series|generator|planner|compiler|index|score|measure|criterion|game|taxonomy|head|"
    r"regularizer|regularization|encoder|decoder|transformer|adapter|prompting|sampler|"
    r"distillation|learning|training|tuning|fine-tuning|initialization|quantization|pruning|"
    r"decoding|search|retrieval|alignment|verifier|detector|classifier|controller|memory|"
    r"representation|embedding|kernel|operator|formulation|variant|extension|principle|"
    r"task|problem|setting|study|analysis|leaderboard|gym|workflow|interface|assistant|"
    r"copilot|foundation\s+model|world\s+model|language\s+model|critic|judge|evaluator|"
    r"tokenizer|retriever|reasoner|explainer|simulation|emulator|paradigm|toolbox|suite|"
    r"heuristic|routine|plug-in|plugin|add-on|backbone|prior|codec|renderer|representation"
)
HEAD_RE = re.compile(rf"\b(?:{_HEAD_NOUNS})s?\b", re.I)

_INTRO_VERBS = (
    r"present|propose|introduce|develop|design|build|construct|release|curate|create|"
    r"contribute|establish|devise|offer|unveil|formulate|put\s+forward|provide|describe|"
    r"collect|assemble|open-source|launch|derive|define|pretrain|train|obtain|instantiate|"
    r"implement|bring|name|call|term|dub|deliver"
)
INTRO = re.compile(
    r"\b(?:we|this\s+(?:paper|work|study|article)|here,?\s+we|our\s+(?:paper|work))\s+"
    r"(?:(?:also|further|then|first|additionally|therefore|thus|hence|now|newly|instead|"
    r"formally|carefully|systematically|jointly|empirically|theoretically|finally|next|"
    r"subsequently|specifically|accordingly|consequently|simply|directly)\s+)?"
    rf"(?:{_INTRO_VERBS})(?:s|es|d|ed)?\b|"
    r"\b(?:and|to)\s+(?:then\s+|further\s+|also\s+)?(?:propose|introduce|present|develop|design|"
    r"construct|build|release|curate|contribute)\b|"
    r"\b(?:by|through|via)\s+(?:introducing|proposing|presenting|developing|designing|building|"
    r"constructing|releasing|curating)\b",
    re.I,
)
PASSIVE = re.compile(
    r"\b(?:is|are)\s+(?:thus\s+|then\s+|therefore\s+|hence\s+|further\s+|also\s+)?"
    r"(?:proposed|introduced|presented|developed|designed|constructed|built|curated|released)\b",
    re.I,
)
NAMED = re.compile(
    r"\b(?:named|called|dubbed|termed|coined|nicknamed|namely|denoted\s+(?:as|by)|"
    r"referred\s+to\s+as|known\s+as|which\s+we\s+(?:call|name|term|dub|refer\s+to\s+as)|"
    r"we\s+(?:call|name|term|dub)\s+(?:it|this|them|these|the\s+\w+|our\s+\w+(?:\s+\w+)?))"
    r"(?:\s+as)?[\s:,\"'“‘]*",
    re.I,
)
OUR = re.compile(
    rf"\b(?:our|the\s+proposed|this|the\s+resulting|the\s+new|a\s+new|a\s+novel|the\s+novel)\s+"
    rf"(?:[\w-]+\s+){{0,4}}?(?:{_HEAD_NOUNS})s?\s*(?:,|:|—|–|-)?\s*(?=[A-Z0-9])",
    re.I,
)
APPOSITION_ANCHOR = re.compile(
    r"(?:,|:|\s(?:is|are)|\s[-–—]+|[-–—]{2,})\s+(?:a|an|the\s+first|our|the|which\s+is\s+an?)\s+", re.I
)
NAME_BEFORE_HEAD = re.compile(
    rf"\b(?:the|a|an|our)\s+(?:([\w-]+)\s+)?(?:\(\s*)?(?=[^\s(]*[A-Z0-9])({TOKEN})(?:\s*\))?\s+(?:{_HEAD_NOUNS})s?\b"
)
NEW_ADJECTIVES = frozenset(("proposed", "new", "novel"))
HEAD_BEFORE_PAREN = re.compile(rf"\b(?:{_HEAD_NOUNS})s?\s*$", re.I)
PAREN_TOKEN = re.compile(r"\(\s*(" + TOKEN + r")\s*(?:\)|[;,])")
USED_BEFORE = re.compile(
    r"\b(?:using|use|uses|used|with|via|such\s+as|e\.g\.,?|i\.e\.,?|including|includes|like|on|"
    r"from|than|over|versus|vs\.?|against|by|leveraging|leverage|applying|apply|employ|employing|"
    r"fine-tune|finetune|fine-tuning|fine-tuned|evaluate|evaluating|evaluated|compared\s+to|"
    r"extends?|extending|existing|popular|standard|prior|previous|baselines?|of|to|in|and|or|as|"
    r"at|into|onto|upon|for|across|toward|towards|under|within|between|among)[\s,]*$",
    re.I,
)
ADDRESS_WITH = re.compile(
    r"\bwe\s+(?:address|tackle|solve|approach|answer|meet)\b[^.;]{0,50}"
    r"\bwith\s*$",
    re.I,
)
REPO_NAME = re.compile(
    r"(?:github\.com|gitlab\.com|huggingface\.co|anonymous\.4open\.science/r)"
    r"/(?:[\w.-]+/)?([\w.-]+?)/?(?=[\s)\],;]|\.?$|\.\s)"
)
SENT_START = re.compile(r"(?:^|[.!?]\s+)$")
NAMED_WORDS = (
    "named",
    "called",
    "dubbed",
    "termed",
    "coined",
    "namely",
    "denoted",
    "referred",
    "known as",
    "we call",
    "we name",
    "we term",
    "we dub",
)
PASSIVE_WORDS = (
    "proposed",
    "introduced",
    "presented",
    "developed",
    "designed",
    "constructed",
    "built",
    "curated",
    "released",
)
OUR_ATTR = re.compile(
    rf"\b(?i:our)\s+(?:(?i:resulting|proposed|new|final)\s+)?({TOKEN})\s+"
    rf"(?:[\w-]+\s+){{0,2}}?(?i:{_HEAD_NOUNS})s?\b"
)
OUR_SUBJECT = re.compile(
    rf"\b(?i:our)\s+({TOKEN})(?=\s*,|\s+(?:can|is|achieves|outperforms|"
    rf"improves|reduces|enables|consistently|significantly|also|not))"
)
_PASSIVE_AFTER = re.compile(r"\s*(?:,\s*)?" + PASSIVE.pattern, re.I)
PAREN_TEXT = re.compile(r"\(([^()]{5,120})\)")
LAST_TOKEN = re.compile(r"(" + TOKEN + r")[\"'”’]?$")
PAREN_AT_END = re.compile(r"\(\s*(" + TOKEN + r")\s*\)\s*$")
PARENTHETICAL_AT_END = re.compile(r"\s*\([^()]*\)\s*$")
CAPITAL_RUN_AT_END = re.compile(r"((?:[A-Z][^\s,.;:()]*\s+(?:(?:of|for|and|in|on|to)\s+)?){1,3})$")
# Words that start a sentence or clause, not a multi-word name ("However, Deep Cognition ...")
STARTERS = frozenset(
    """the this our we in to however moreover here thus finally specifically
a an to for with by from as on at and or these those its their then first next also""".split()
)
PASSIVE_SUBJECT = re.compile(r"(?:^|[.:;]\s+|,\s+)(?:(?:the\s+)?(?:[\w-]+\s+){0,3}?)?(" + TOKEN + r")$")
HASH_SUFFIX = re.compile(r"-[0-9A-F]{4}$")
SUBJECT_SLOT = re.compile(r"(?:[.!?,]\s+|\b(?:and|that|where|while)\s+)$")
PLURAL_ACRONYM = re.compile(r"[A-Z]{2,}s")
WINDOW_STOP = re.compile(
    r"[.;:]\s|\s[-–—]+\s|\b(?:that|which|where|whose|using|leveraging|"
    r"based\s+on|by|to|with|via|on|from|in|for|over|between|across|"
    r"and\s+(?:show|find|demonstrate|evaluate))\b"
)

_RUN_THEN_HEAD = re.compile(
    r"((?:[A-Z][\w'-]*\s+(?:(?:of|for|and|via|with|in|on|to)\s+)?){1,5}[A-Z][\w'-]*)"
    rf"(?:\s+(?:{_HEAD_NOUNS})s?\b|\s*,|\s*$)"
)
SUBJECT_VERBS = re.compile(
    r"\s+(?:achieves|outperforms|improves|reduces|enables|uses|consists|consists|comprises|"
    r"contains|provides|offers|leverages|integrates|combines|employs|introduces|learns|"
    r"delivers|attains|surpasses|yields|maintains|generalizes|scales|supports|works|"
    r"significantly|consistently|also|not\s+only|can|is|sets|establishes|exhibits|shows|"
    r"demonstrates|requires|operates|decouples|adopts|features|includes|covers|spans|"
    r"addresses|tackles|bridges|mitigates|alleviates|overcomes|resolves|removes|eliminates|"
    r"captures|models|exploits|unifies|extends|enhances|boosts|accelerates)\b"
)

# Capitalised words that are English, not names (sentence starts, headings, adjectives).
_COMMON = frozenset(
    """
a an the this that these those our we it its their in on of for to and or but with by from as
at however moreover furthermore additionally finally first second third specifically notably
recently existing experiments experimental results result extensive empirically theoretically
code data dataset datasets benchmark benchmarks model models method methods approach framework
large language vision learning deep neural network networks graph graphs reinforcement diffusion
abstract introduction conclusion overall together based using while although despite unlike
given since because thus hence therefore then also both each all many most some such other new
novel simple efficient effective robust general unified scalable yes no not only even though
when where which who what how why here there instead crucially importantly inspired motivated
building beyond toward towards unlike existing current modern standard traditional conventional
part stage phase step module component components task tasks problem problems setting settings
agent agents policy policies system systems tool tools memory attention transformer transformers
yet still next second later lastly overall meanwhile notably surprisingly interestingly
""".split()
)
_NOT_NAME_SHAPE = re.compile(
    r"^(?:\d+[A-Za-z]{1,3}|[A-Za-z]\d{1,2}|\d+(?:\.\d+)*|[A-Z]|[IVX]+|[A-Za-z]-[a-z]+|"
    r"\d+(?:\.\d+)?[A-Za-z]{0,2}-[a-z]+(?:-[a-z]+)*|\w+-(?:based|free|"
    r"aware|like|level|scale|wise|specific|agnostic|guided|driven|conditioned|efficient|style|"
    r"shot|order|step|time|of-the-art|to-end|in-the-loop))$"
)


_COINED_SUFFIXES = frozenset(
    """bench eval net former gpt vlm gym arena qa diff flow
rl coder math world zero pro omni lite plus max mini bot gen edit vla llm""".split()
)
_DOMAIN = re.compile(r"[a-z]{2,}\.(?:com|org|net|io|ai|science|github|co)\b")
LETTER_DIGIT = re.compile(r"[A-KM-Z]\d{1,2}")  # J1, R2 (not L1/L2 norms)
_PLAIN_PART = re.compile(r"^(?:[A-Z]?[a-z]+|[a-z]+)$")
# Two words joined by an en dash (– or LaTeX --) pair two people or two notions (Runge–Kutta,
# Vision–Language); none of the ~6,700 silver names is written so, coined names take hyphens
# (three, Enumerate–Conjecture–Prove, can be a coinage)
EN_DASH_PAIR = re.compile(r"[A-Z][a-z]+(?:--|–)[A-Z][a-z]+")


@dataclass
class Candidate:
    name: str
    score: float
    position: int
    cue: str


def is_name_like(token: str, strong: bool) -> bool:
    """A coined-looking token: inner capitals, letters with digits, or (given a strong cue)
    a capitalised word that is not ordinary English."""
    if (
        len(token) < 2
        or len(token) > 40
        or _NOT_NAME_SHAPE.match(token)
        or "/" in token
        or _DOMAIN.search(token)
    ):
        return False
    if sum(c.isalpha() for c in token) < 2:
        return False
    if token.lower() in _COMMON and (token.islower() or token == token.capitalize()):
        return False
    rest = token[1:]
    inner_caps = sum(1 for c in rest if c.isupper())
    if token[0].islower():
        # camelCase coined words (lmKANs, vCache, mmSSR); plain lower-case words and
        # prefixed adjectives (non-Euclidean) are not names
        parts = token.split("-")
        return any(not part[1:].islower() and any(c.isupper() for c in part[1:]) for part in parts) or any(
            len(part) >= 2
            and part[0].isupper()
            and (any(c.isdigit() for c in part) or sum(c.isupper() for c in part) >= 2)
            for part in parts[1:]
        )  # tabkit-R1, video-SALMONN (not non-Euclidean)
    if inner_caps >= 1:
        # "Model-Heterogeneous", "Spatio-Temporal": ordinary words joined, coined only with a
        # cue or a typical coined part ("Terminal-Bench")
        parts = token.split("-")
        return bool(
            strong or not all(_PLAIN_PART.match(p) for p in parts) or parts[-1].lower() in _COINED_SUFFIXES
        )
    if any(c.isdigit() for c in token):
        return True
    return strong and len(token) >= 3


def strip_token(tok: str) -> str:
    tok = tok.strip(" \t\"'“”‘’.,;:!?()[]{}")
    if tok.endswith(("'s", "’s")):
        tok = tok[:-2]
    return tok


_NEXT_WORD = re.compile(r"\s+(" + TOKEN + r")")
CONNECTORS = frozenset("of for via and with in on to the from by as a an".split())


def capital_run_name(window: str, start: int) -> str | None:
    """Two to six capitalised words right after the verb, closed by a head noun or a comma
    ("Asymmetric Synthetic Data Update strategy"): a coined multi-word name."""
    m = _RUN_THEN_HEAD.match(window, start)
    if not m:
        return None
    words = m.group(1).split()
    if (
        len(words) < 2
        or is_known(words[0])
        or words[0].lower() in _COMMON
        or is_name_like(words[0], False)
        or "and" in words
    ):
        return None  # a coined first word is a name of its own ("CS-4k and CS-54k")
    return m.group(1)


def multiword_ok(name: str) -> bool:
    """A multi-word name must not spell a known acronym ("Proximal Policy Optimization" is
    PPO) nor end on a hyphenated adjective ("... Model-assisted")."""
    words = [w for w in re.split(r"[\s-]+", name) if w]
    initials = "".join(w[0] for w in words if w[0].isupper())
    if len(initials) >= 3 and is_known_exact(initials):
        return False
    return not _NOT_NAME_SHAPE.match(name.split()[-1])


def written_out(token: str, raw: str) -> bool:
    """Does `token` occur in the raw text other than as a macro (`\\perfit` next to `PerFit`)?"""
    start = raw.find(token)
    while start >= 0:
        if raw[start - 1 : start] != "\\":
            return True
        start = raw.find(token, start + 1)
    return False


def last_token(text: str, end: int) -> tuple[str | None, int]:
    """The name-shaped token ending just before `end` (spaces skipped) and where it starts."""
    left = text[max(0, end - 60) : end].rstrip()
    if not left:
        return None, end
    word = left.rsplit(None, 1)[-1]
    m = TOKEN_RE.fullmatch(word)
    if not m:
        return None, end
    start = max(0, end - 60) + len(left) - len(word)
    return word, start


def read_name(text: str, pos: int, multiword: bool) -> str | None:
    """The name starting at `pos`. A capitalised run followed by its acronym,
    "Symmetric Behavior Policy Optimization (SBPO)", gives the acronym; with `multiword`
    (after "named"), a run of capitalised words with no acronym is the name itself."""
    m = TOKEN_RE.match(text, pos)
    if not m:
        return None
    first = m.group(0)
    if not first[:1].isupper():
        return first
    words, end = [first], m.end()
    while len(words) < 10:
        nxt = _NEXT_WORD.match(text, end)
        if not nxt:
            break
        w = nxt.group(1)
        if w[:1].isupper() or (w.lower() in CONNECTORS and len(words) < 9):
            words.append(w)
            end = nxt.end()
        else:
            break
    while len(words) > 1 and words[-1].lower() in CONNECTORS:
        end -= len(words[-1]) + 1
        words.pop()
    if is_name_like(first, False) and len(words) == 1:
        return first
    closed = _PAREN_RIGHT_AFTER.match(text, end)
    if len(words) >= 3 and closed and is_name_like(closed.group(1), False):
        # "termed Shapley-Enhanced ... via Sparse Modeling (SM-ShapNAS)": the run of capitalised
        # words ends on its coined short form, even one whose letters come in another order
        return closed.group(1)
    ahead = text[pos : pos + 120]
    paren = PAREN_TOKEN.search(ahead)
    if paren and not re.search(r"[.;]\s", ahead[: paren.start()]):
        form = long_form(paren.group(1), ahead[: paren.start()])
        if form is not None and ahead[: paren.start()].strip().startswith(form):
            return paren.group(1)
    if len(words) == 1 or is_name_like(first, False):
        return first
    if not multiword:
        return None
    words = words[:4]
    while len(words) > 1 and words[-1].lower() in CONNECTORS:
        words.pop()
    return " ".join(words)


_PAREN_RIGHT_AFTER = re.compile(r"\s*\(\s*(" + TOKEN + r")\s*\)")


def long_form(acronym: str, before: str) -> str | None:
    """Schwartz-Hearst: the shortest run of words ending `before` whose letters spell `acronym`
    (its first letter at the start of a word). None when the acronym is not defined here."""
    short = acronym
    if len(short) > 2 and short.endswith("s") and short[-2].isupper():
        short = short[:-1]
    if sum(c.isalpha() for c in short) < 2 or not short[0].isalnum():
        return None
    # Schwartz-Hearst's min(|A| + 5, 2|A|) words is too few for ML coinages ("a Fast
    # Open-vocabulary 3D instance segmentation method via Label-guided Knowledge distillation
    # (FOLK)": ten words); the letters must still start words in order
    max_words = len(short) + 6
    words = before.split()[-max_words:]
    long = " ".join(words)
    s, i = len(short) - 1, len(long) - 1
    while s >= 0:
        c = short[s].lower()
        if not c.isalpha():
            s -= 1
            continue
        while i >= 0 and (long[i].lower() != c or (s == 0 and i > 0 and long[i - 1].isalnum())):
            i -= 1
        if i < 0:
            return None
        i -= 1
        s -= 1
    start = long.rfind(" ", 0, i + 1) + 1
    form = long[start:]
    if len(form.split()) < 2 and "-" not in form and len(form) < len(short) + 3:
        return None
    return form


def introduced_at(plain: str, start: int, end: int) -> bool:
    """Is the thing at plain[start:end] being introduced: an introducing verb or "our / novel /
    named" a few words before it in its sentence, or "is proposed" right after it?"""
    sent_start = (
        max(plain.rfind(". ", 0, start), plain.rfind("? ", 0, start), plain.rfind("; ", 0, start)) + 1
    )
    before = plain[sent_start:start]
    last = None
    for m in INTRO.finditer(before):
        last = m
    for m in _CUE_BEFORE.finditer(before):
        if last is None or m.end() > last.end():
            last = m
    if _HEAD_COLON.search(before[-60:]):
        return True
    if last is not None:
        gap = before[last.end() :]
        if len(gap.split()) <= 8 and not _CLAUSE_BREAK.search(gap):
            return True
    return bool(_PASSIVE_AFTER.match(plain, end, end + 40) or _WHICH_WE_PROPOSE.match(plain, end, end + 40))


_WHICH_WE_PROPOSE = re.compile(r"\s*(?:,\s*)?(?:which|that)\s+(?:we\s+)?(?:propose|introduce)")
_HEAD_COLON = re.compile(rf"\b(?:{_HEAD_NOUNS})s?\s*:\s*$", re.I)
_CLAUSE_END = re.compile(r"[.;!?]\s")
_PREPOSITIONS = frozenset("across via toward towards among within without beyond upon".split())


def intro_in_clause(prefix: str) -> bool:
    """Does an introducing verb govern what follows `prefix`: "we propose (and analyze) X",
    "we introduce a practical framework X" — but not across a sentence end ("... which we
    term a snippet. Fundamentally, ...") nor after a preposition or article ("we propose
    Alignment across Trees", "Speak to a Protein")?"""
    last = max(INTRO.finditer(prefix), key=lambda m: m.start(), default=None)
    if last is None:
        return False
    after = prefix[last.end() :]
    if _CLAUSE_END.search(after):
        return False
    words = after.split()
    if not words or words[-1].lower() in ("the", "our"):
        return True
    return words[-1].lower() not in FUNCTION_WORDS and words[-1].lower() not in _PREPOSITIONS


_CUE_BEFORE = re.compile(r"\b(?:our|novel|new|proposed|introducing|propose|present|introduce)\b", re.I)
_CLAUSE_BREAK = re.compile(
    r"\b(?:which|that|where|whose|to|using|by|leveraging|when|while|"
    r"identify|detect)\b|[,;]\s"
)
