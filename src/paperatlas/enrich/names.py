"""Contribution names: what the abstract itself introduces ("We present CIMemories").

Authors mark a coined name in a handful of ways. Each way is a cue rule in CUE_RULES (a
function yielding Hits), with its weight in WEIGHTS (the W_* constants):
  - "named / called / dubbed / termed / which we call X", 名为 X           (strongest)
  - "our framework, X," / "the proposed method X" / "our work, X,"
  - an acronym defined in place, "Hessian-Enhanced Token Attribution (HETA)", checked with
    the Schwartz-Hearst letter alignment so "(e.g. ...)" or "(ours)" do not count
  - an appositive, "X, a novel framework for ..." / "X is a new benchmark" / "Using X, a
    suite of ..."
  - an introducing verb, "we present / propose / introduce ... X" (strongest when X comes
    right after the verb and is set off: "we propose X, ..."; also "a framework - X -");
    "X is proposed"; a capitalised run after the verb; 我们提出了 X in Chinese
  - "the X framework", "our X method", a repository named X that the text uses
  - emphasis or quotes on a coined word: \\textsc{X}, \\emph{X}, \\texttt{X}, \\mathrm{X},
    **X**, `X`, “X”, "X"
  - a coined token (inner capitals, digits) that the abstract keeps using as a subject
Candidates are then filtered: undefined LaTeX placeholders (`\\tool`), well-known existing
things the paper only uses (known.py: GRPO, CLIP, Qwen3-Embedding), short acronyms many
unrelated papers use (LR, CE, NN: names_model.is_generic_acronym, from the corpus spread
table), plural acronyms of classes of things (LLMs), and ordinary capitalised words.

Which candidate is the paper's name, if any, is decided by the learned scorer
(names_model.py: a logistic regression over the cues a name collected, its shape, mentions,
position and corpus spread, fit on silver labels from real titles); a paper whose best
candidate is not likely enough gets no name — an invented name is worse than none. Without
the model file the hand weights decide (MIN_SCORE, HEADLINE_MARGIN).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from paperatlas.enrich import names_model
from paperatlas.enrich.known import is_known, is_known_exact
from paperatlas.enrich.text import clean, placeholder_macros
from paperatlas.text import FUNCTION_WORDS

# A name token: letters/digits joined by - . + _ ' (trailing ++ allowed, as in C++).
# A bracketed part inside a name is allowed when letters follow it (A-(B)C, S(M)oE), so
# "LLM(s)" or "f(x)" stay apart.
_TOKEN = r"[^\W_]+(?:[-+_.'’/&]?\([^\W_]{1,12}\)[^\W_]+|[-+_.'’/&][^\W_]+)*\+*\*?"
_TOKEN_RE = re.compile(_TOKEN)

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
_HEAD_RE = re.compile(rf"\b(?:{_HEAD_NOUNS})s?\b", re.I)

_INTRO_VERBS = (
    r"present|propose|introduce|develop|design|build|construct|release|curate|create|"
    r"contribute|establish|devise|offer|unveil|formulate|put\s+forward|provide|describe|"
    r"collect|assemble|open-source|launch|derive|define|pretrain|train|obtain|instantiate|"
    r"implement|bring|name|call|term|dub|deliver"
)
_INTRO = re.compile(
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
_PASSIVE = re.compile(
    r"\b(?:is|are)\s+(?:thus\s+|then\s+|therefore\s+|hence\s+|further\s+|also\s+)?"
    r"(?:proposed|introduced|presented|developed|designed|constructed|built|curated|released)\b",
    re.I,
)
_NAMED = re.compile(
    r"\b(?:named|called|dubbed|termed|coined|nicknamed|namely|denoted\s+(?:as|by)|"
    r"referred\s+to\s+as|known\s+as|which\s+we\s+(?:call|name|term|dub|refer\s+to\s+as)|"
    r"we\s+(?:call|name|term|dub)\s+(?:it|this|them|these|the\s+\w+|our\s+\w+(?:\s+\w+)?))"
    r"(?:\s+as)?[\s:,\"'“‘]*",
    re.I,
)
_OUR = re.compile(
    rf"\b(?:our|the\s+proposed|this|the\s+resulting|the\s+new|a\s+new|a\s+novel|the\s+novel)\s+"
    rf"(?:[\w-]+\s+){{0,4}}?(?:{_HEAD_NOUNS})s?\s*(?:,|:|—|–|-)?\s*(?=[A-Z0-9])",
    re.I,
)
_APPOSITION_ANCHOR = re.compile(
    r"(?:,|:|\s(?:is|are)|\s[-–—]+|[-–—]{2,})\s+(?:a|an|the\s+first|our|the|which\s+is\s+an?)\s+", re.I
)
_NAME_BEFORE_HEAD = re.compile(
    rf"\b(?:the|a|an|our)\s+(?:([\w-]+)\s+)?(?:\(\s*)?(?=[^\s(]*[A-Z0-9])({_TOKEN})(?:\s*\))?\s+(?:{_HEAD_NOUNS})s?\b"
)
_NEW_ADJECTIVES = frozenset(("proposed", "new", "novel"))
_HEAD_BEFORE_PAREN = re.compile(rf"\b(?:{_HEAD_NOUNS})s?\s*$", re.I)
_PAREN_TOKEN = re.compile(r"\(\s*(" + _TOKEN + r")\s*(?:\)|[;,])")
_USED_BEFORE = re.compile(
    r"\b(?:using|use|uses|used|with|via|such\s+as|e\.g\.,?|i\.e\.,?|including|includes|like|on|"
    r"from|than|over|versus|vs\.?|against|by|leveraging|leverage|applying|apply|employ|employing|"
    r"fine-tune|finetune|fine-tuning|fine-tuned|evaluate|evaluating|evaluated|compared\s+to|"
    r"extends?|extending|existing|popular|standard|prior|previous|baselines?|of|to|in|and|or|as|"
    r"at|into|onto|upon|for|across|toward|towards|under|within|between|among)[\s,]*$",
    re.I,
)
_ADDRESS_WITH = re.compile(
    r"\bwe\s+(?:address|tackle|solve|approach|answer|meet)\b[^.;]{0,50}"
    r"\bwith\s*$",
    re.I,
)
_REPO_NAME = re.compile(
    r"(?:github\.com|gitlab\.com|huggingface\.co|anonymous\.4open\.science/r)"
    r"/(?:[\w.-]+/)?([\w.-]+?)/?(?=[\s)\],;]|\.?$|\.\s)"
)
_SENT_START = re.compile(r"(?:^|[.!?]\s+)$")
_NAMED_WORDS = (
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
_PASSIVE_WORDS = (
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
_OUR_ATTR = re.compile(
    rf"\b(?i:our)\s+(?:(?i:resulting|proposed|new|final)\s+)?({_TOKEN})\s+"
    rf"(?:[\w-]+\s+){{0,2}}?(?i:{_HEAD_NOUNS})s?\b"
)
_OUR_SUBJECT = re.compile(
    rf"\b(?i:our)\s+({_TOKEN})(?=\s*,|\s+(?:can|is|achieves|outperforms|"
    rf"improves|reduces|enables|consistently|significantly|also|not))"
)
_PASSIVE_AFTER = re.compile(r"\s*(?:,\s*)?" + _PASSIVE.pattern, re.I)
_PAREN_TEXT = re.compile(r"\(([^()]{5,120})\)")
_LAST_TOKEN = re.compile(r"(" + _TOKEN + r")[\"'”’]?$")
_PAREN_AT_END = re.compile(r"\(\s*(" + _TOKEN + r")\s*\)\s*$")
_PARENTHETICAL_AT_END = re.compile(r"\s*\([^()]*\)\s*$")
_CAPITAL_RUN_AT_END = re.compile(r"((?:[A-Z][^\s,.;:()]*\s+(?:(?:of|for|and|in|on|to)\s+)?){1,3})$")
# Words that start a sentence or clause, not a multi-word name ("However, Deep Cognition ...")
_STARTERS = frozenset(
    """the this our we in to however moreover here thus finally specifically
a an to for with by from as on at and or these those its their then first next also""".split()
)
_PASSIVE_SUBJECT = re.compile(r"(?:^|[.:;]\s+|,\s+)(?:(?:the\s+)?(?:[\w-]+\s+){0,3}?)?(" + _TOKEN + r")$")
_HASH_SUFFIX = re.compile(r"-[0-9A-F]{4}$")
_SUBJECT_SLOT = re.compile(r"(?:[.!?,]\s+|\b(?:and|that|where|while)\s+)$")
_PLURAL_ACRONYM = re.compile(r"[A-Z]{2,}s")
_WINDOW_STOP = re.compile(
    r"[.;:]\s|\s[-–—]+\s|\b(?:that|which|where|whose|using|leveraging|"
    r"based\s+on|by|to|with|via|on|from|in|for|over|between|across|"
    r"and\s+(?:show|find|demonstrate|evaluate))\b"
)

_RUN_THEN_HEAD = re.compile(
    r"((?:[A-Z][\w'-]*\s+(?:(?:of|for|and|via|with|in|on|to)\s+)?){1,5}[A-Z][\w'-]*)"
    rf"(?:\s+(?:{_HEAD_NOUNS})s?\b|\s*,|\s*$)"
)
_SUBJECT_VERBS = re.compile(
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
_LETTER_DIGIT = re.compile(r"[A-KM-Z]\d{1,2}")  # J1, R2 (not L1/L2 norms)
_PLAIN_PART = re.compile(r"^(?:[A-Z]?[a-z]+|[a-z]+)$")
# Two words joined by an en dash (– or LaTeX --) pair two people or two notions (Runge–Kutta,
# Vision–Language); none of the ~6,700 silver names is written so, coined names take hyphens
# (three, Enumerate–Conjecture–Prove, can be a coinage)
_EN_DASH_PAIR = re.compile(r"[A-Z][a-z]+(?:--|–)[A-Z][a-z]+")


@dataclass
class Candidate:
    name: str
    score: float
    position: int
    cue: str


def _is_name_like(token: str, strong: bool) -> bool:
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


def _strip_token(tok: str) -> str:
    tok = tok.strip(" \t\"'“”‘’.,;:!?()[]{}")
    if tok.endswith(("'s", "’s")):
        tok = tok[:-2]
    return tok


_NEXT_WORD = re.compile(r"\s+(" + _TOKEN + r")")
_CONNECTORS = frozenset("of for via and with in on to the from by as a an".split())


def _capital_run_name(window: str, start: int) -> str | None:
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
        or _is_name_like(words[0], False)
        or "and" in words
    ):
        return None  # a coined first word is a name of its own ("CS-4k and CS-54k")
    return m.group(1)


def _multiword_ok(name: str) -> bool:
    """A multi-word name must not spell a known acronym ("Proximal Policy Optimization" is
    PPO) nor end on a hyphenated adjective ("... Model-assisted")."""
    words = [w for w in re.split(r"[\s-]+", name) if w]
    initials = "".join(w[0] for w in words if w[0].isupper())
    if len(initials) >= 3 and is_known_exact(initials):
        return False
    return not _NOT_NAME_SHAPE.match(name.split()[-1])


def _written_out(token: str, raw: str) -> bool:
    """Does `token` occur in the raw text other than as a macro (`\\perfit` next to `PerFit`)?"""
    start = raw.find(token)
    while start >= 0:
        if raw[start - 1 : start] != "\\":
            return True
        start = raw.find(token, start + 1)
    return False


def _last_token(text: str, end: int) -> tuple[str | None, int]:
    """The name-shaped token ending just before `end` (spaces skipped) and where it starts."""
    left = text[max(0, end - 60) : end].rstrip()
    if not left:
        return None, end
    word = left.rsplit(None, 1)[-1]
    m = _TOKEN_RE.fullmatch(word)
    if not m:
        return None, end
    start = max(0, end - 60) + len(left) - len(word)
    return word, start


def _read_name(text: str, pos: int, multiword: bool) -> str | None:
    """The name starting at `pos`. A capitalised run followed by its acronym,
    "Symmetric Behavior Policy Optimization (SBPO)", gives the acronym; with `multiword`
    (after "named"), a run of capitalised words with no acronym is the name itself."""
    m = _TOKEN_RE.match(text, pos)
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
        if w[:1].isupper() or (w.lower() in _CONNECTORS and len(words) < 9):
            words.append(w)
            end = nxt.end()
        else:
            break
    while len(words) > 1 and words[-1].lower() in _CONNECTORS:
        end -= len(words[-1]) + 1
        words.pop()
    if _is_name_like(first, False) and len(words) == 1:
        return first
    closed = _PAREN_RIGHT_AFTER.match(text, end)
    if len(words) >= 3 and closed and _is_name_like(closed.group(1), False):
        # "termed Shapley-Enhanced ... via Sparse Modeling (SM-ShapNAS)": the run of capitalised
        # words ends on its coined short form, even one whose letters come in another order
        return closed.group(1)
    ahead = text[pos : pos + 120]
    paren = _PAREN_TOKEN.search(ahead)
    if paren and not re.search(r"[.;]\s", ahead[: paren.start()]):
        form = long_form(paren.group(1), ahead[: paren.start()])
        if form is not None and ahead[: paren.start()].strip().startswith(form):
            return paren.group(1)
    if len(words) == 1 or _is_name_like(first, False):
        return first
    if not multiword:
        return None
    words = words[:4]
    while len(words) > 1 and words[-1].lower() in _CONNECTORS:
        words.pop()
    return " ".join(words)


_PAREN_RIGHT_AFTER = re.compile(r"\s*\(\s*(" + _TOKEN + r")\s*\)")


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


def _introduced_at(plain: str, start: int, end: int) -> bool:
    """Is the thing at plain[start:end] being introduced: an introducing verb or "our / novel /
    named" a few words before it in its sentence, or "is proposed" right after it?"""
    sent_start = (
        max(plain.rfind(". ", 0, start), plain.rfind("? ", 0, start), plain.rfind("; ", 0, start)) + 1
    )
    before = plain[sent_start:start]
    last = None
    for m in _INTRO.finditer(before):
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


def _intro_in_clause(prefix: str) -> bool:
    """Does an introducing verb govern what follows `prefix`: "we propose (and analyze) X",
    "we introduce a practical framework X" — but not across a sentence end ("... which we
    term a snippet. Fundamentally, ...") nor after a preposition or article ("we propose
    Alignment across Trees", "Speak to a Protein")?"""
    last = max(_INTRO.finditer(prefix), key=lambda m: m.start(), default=None)
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
    if not any(w in t.low for w in _NAMED_WORDS):
        return
    for m in _NAMED.finditer(t.plain):
        yield Hit("named", _read_name(t.plain, m.end(), multiword=True), m.end(), allow_family=True)


def _our(t: _Text):
    """our framework, X / the proposed method X."""
    for m in _OUR.finditer(t.plain):
        tok = _read_name(t.plain, m.end(), multiword=False)
        if tok:
            after = t.plain[m.end() + len(tok) : m.end() + len(tok) + 2]
            if after[:1] in (",", ")", " ", ".", ":", ";", "", "-", "—", "–") or after[:2] in ("’s", "'s"):
                yield Hit("our", tok, m.end())


def _acronym_defined(t: _Text):
    """Long Form (ACRO) / ComPhy (CP) / ACRO (Long Form)."""
    plain = t.plain
    for m in _PAREN_TOKEN.finditer(plain):
        acro = m.group(1)
        if not any(c.isupper() for c in acro) or acro.lower() in ("e.g", "i.e", "ours"):
            continue
        before = plain[max(0, m.start() - 160) : m.start()]
        cut = max(before.rfind(". "), before.rfind("; "), before.rfind("("))
        before = before[cut + 1 :] if cut >= 0 else before
        form = long_form(acro, before)
        if form is None:
            continue
        cue = _introduced_at(plain, m.start() - len(form) - 1, m.end())
        if " " not in form.strip() and _is_name_like(form.strip(), False):
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
    for m in _PAREN_TEXT.finditer(plain):
        acro, start = _last_token(plain, m.start())
        if (
            acro
            and sum(c.isupper() for c in acro) >= 2
            and len(m.group(1).split()) >= 2
            and long_form(acro, m.group(1)) is not None
        ):
            yield Hit("acronym-intro" if _introduced_at(plain, start, m.end()) else "acronym", acro, start)


def _head_paren(t: _Text):
    """a novel ... architecture (STKAN)."""
    for m in _PAREN_TOKEN.finditer(t.plain):
        if _HEAD_BEFORE_PAREN.search(t.plain, max(0, m.start() - 30), m.start()) and _introduced_at(
            t.plain, m.start(), m.end()
        ):
            yield Hit("head-paren", m.group(1), m.start(1), strong=False)


def _our_attribute(t: _Text):
    """our CogniPair simulation platform / our X achieves ..."""
    if "our " not in t.low:
        return
    for m in _OUR_ATTR.finditer(t.plain):
        yield Hit("our-attr", m.group(1), m.start(1), strong=False)
    for m in _OUR_SUBJECT.finditer(t.plain):
        yield Hit("our-subject", m.group(1), m.start(1), strong=False)


def _name_before_head(t: _Text):
    """the X framework / we propose the Log-To-Leak framework."""
    for m in _NAME_BEFORE_HEAD.finditer(t.plain):
        tok = m.group(2)
        # "the proposed S2L-equations benchmark": the adjective says it is this paper's
        introduced = (m.group(1) or "").lower() in _NEW_ADJECTIVES or _introduced_at(
            t.plain, m.start(), m.end()
        )
        # joined ordinary words count once introduced
        # "we propose a Terrarium framework": a capitalised word inside a sentence, before
        # the head noun of something introduced, is its name
        if (
            _is_name_like(tok, False)
            or (introduced and ("-" in tok or tok[:1].isupper()) and _is_name_like(tok, True))
        ) and not is_known(tok):
            yield Hit("name-head-intro" if introduced else "name-head", tok, m.start(2))


def _appositive(t: _Text):
    """X, a novel framework ... / X is a new benchmark / X — a suite of ..."""
    plain = t.plain
    for m in _APPOSITION_ANCHOR.finditer(plain):
        head = _HEAD_RE.search(plain, m.end(), min(len(plain), m.end() + 70))
        if head is None:
            continue
        between = plain[m.end() : head.start()]
        if len(between.split()) > 6 or re.search(r"[.;]\s", between):
            continue
        # the token right before the anchor, skipping a parenthetical
        left = plain[max(0, m.start() - 120) : m.start()]
        paren = _PAREN_AT_END.search(left) if left.endswith(")") else None
        tm: re.Match[str] | None
        if paren and _is_name_like(paren.group(1), True):
            tm = paren
        else:
            if left.endswith(")"):
                left = _PARENTHETICAL_AT_END.sub("", left)
            tm = _LAST_TOKEN.search(left[-60:])
            if tm:
                left = left[-60:]
        if not tm:
            continue
        prefix = left[: tm.start()]
        ours = plain[m.start() : m.end()].rstrip().lower().endswith("our")  # "X, our new benchmark"
        if (
            not ours
            and _USED_BEFORE.search(prefix[-40:])
            and not _INTRO.search(prefix[-60:])
            and not _ADDRESS_WITH.search(prefix[-80:])
        ):
            if _USING_AT_START.search(prefix[-40:]) and _SUITE_HEAD.match(plain, m.end()):
                # "Using X, a suite of ...": the sentence opens on the thing it describes
                yield Hit("using-suite", tm.group(1), m.start() - len(tm.group(1)))
            continue
        intro = bool(_INTRO.search(prefix[-80:]))
        if tm is not paren and tm.group(1)[:1].isupper():
            run = _CAPITAL_RUN_AT_END.search(prefix[-80:])
            if (
                run
                and not _INTRO.search(run.group(1))
                and not _SENT_START.search(prefix[-80:][: run.start()])
            ):
                words = run.group(1).split()
                while words and (words[0].lower() in _STARTERS or is_known(words[0])):
                    words.pop(0)
                if (
                    not words
                    and not _is_name_like(tm.group(1), False)
                    and _intro_in_clause(prefix[-80:][: run.start()])
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
        right_after_intro = _intro_in_clause(prefix[-80:])
        if not (tm is paren or _is_name_like(tm.group(1), False) or right_after_intro):
            continue
        yield Hit(
            "appositive-intro" if intro else "appositive",
            tm.group(1),
            m.start() - len(tm.group(1)),
            allow_family=intro,
        )


def _window_stop(span: str) -> re.Match[str] | None:
    """Where the words after an introducing verb stop being its object (_WINDOW_STOP), not
    counting a word inside a lower-case compound ("an end-to-end differentiable framework,
    DCTS, ..."): "ANN-to-SNN" and "video-to-4D" still stop, as they always did."""
    for m in _WINDOW_STOP.finditer(span):
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
    for m in _INTRO.finditer(plain):
        span = plain[m.end() : m.end() + 200]
        stop = _window_stop(span)
        window = span[: stop.start()] if stop else span
        set_off_found = False
        first = None
        for i, tm in enumerate(_TOKEN_RE.finditer(window)):
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
            if set_off and _is_name_like(tok, True) and not is_known_exact(tok):
                yield Hit("intro-set-off", tok, m.end() + tm.start(), allow_family=True)
                set_off_found = True
                break
            if first is None and _is_name_like(tok, False) and not is_known(tok):
                first = (i, tm)
        if set_off_found:
            continue
        if stop and stop.group(0).strip() in ("-", "–", "—", "--", "---"):
            # "a unified framework - UEP - to ..." / "a pruning method for SSMs — AIRE-Prune ("
            after = _DASHED_NAME.match(span, stop.end())
            if after and _is_name_like(after.group(1), True) and not is_known_exact(after.group(1)):
                yield Hit("intro-set-off", after.group(1), m.end() + stop.end(), allow_family=True)
                continue
        t0 = _TOKEN_RE.search(window)
        at_verb = t0 is not None and window[: t0.start()].strip() in ("", "the")
        if (
            t0 is not None
            and at_verb
            and window[t0.end() : t0.end() + 2] in (", ", " (", ",", ":", "")  # set off
            and t0.group(0)[:1].isupper()
            and (
                _is_name_like(t0.group(0), True)
                or (_LETTER_DIGIT.fullmatch(t0.group(0)) and _APPOSITION_ANCHOR.match(window, t0.end()))
            )
        ):
            # "we propose Eidolon, ..." / "we introduce J1, a ...": set off right after the verb
            yield Hit("direct", t0.group(0), m.end() + t0.start(), allow_family=True)
        elif (
            t0 is not None
            and at_verb
            and t0.group(0)[:1].isupper()
            and (capital_run := _capital_run_name(window, t0.start()))
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


_DASHED_NAME = re.compile(r"(" + _TOKEN + r")\s*(?:[-–—]+\s|\(|,|$)")
_OUR_WORK = re.compile(
    r"\b(?:our|this)\s+(?:work|paper|contribution|solution|answer|proposal),?\s+"
    r"(" + _TOKEN + r")\s*(?:,|\(|[-–—]\s)",
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
    if not any(w in t.low for w in _PASSIVE_WORDS):
        return
    for m in _PASSIVE.finditer(t.plain):
        left = _PARENTHETICAL_AT_END.sub("", t.plain[max(0, m.start() - 200) : m.start()])
        tm = _PASSIVE_SUBJECT.search(left[-80:])
        if tm:
            yield Hit("passive", tm.group(1), m.start(), strong=False)


def _repository(t: _Text):
    """github.com/org/X where the text also says X."""
    if "/" not in t.plain:
        return
    for m in _REPO_NAME.finditer(t.plain):
        repo = _HASH_SUFFIX.sub("", m.group(1))
        if _is_name_like(repo, False) and repo in t.plain[: m.start()] + t.plain[m.end() :]:
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
        if len(words) > 1 and not all(w[:1].isupper() or w.lower() in _CONNECTORS for w in words):
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
        if len(words) > 1 and not all(w[:1].isupper() or w.lower() in _CONNECTORS for w in words):
            continue
        intro = bool(_INTRO.search(t.plain, max(0, m.start() - 60), m.start())) or bool(
            _NAMED.search(t.plain, max(0, m.start() - 30), m.start() + 2)
        )
        yield Hit("quoted-intro" if intro else "quoted", inner, m.start(1), strong=intro, allow_family=intro)


def _subject(t: _Text):
    """A coined token the abstract keeps using as a subject ("X achieves ...")."""
    plain = t.plain
    for m in _SUBJECT_VERBS.finditer(plain):
        tok, start = _last_token(plain, m.start())
        if not tok or (not _SUBJECT_SLOT.search(plain[max(0, start - 8) : start]) and start > 0):
            continue
        if _is_name_like(tok, False):
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
    token = _strip_token(hit.token or "")
    if not token:
        return None
    if token.lower() in placeholders and not _written_out(token, t.raw):
        return None  # \tool stands for a name the abstract never spells out
    if is_known_exact(token) or (not hit.allow_family and is_known(token)):
        return None
    if " " not in token and (
        (token.lower() in FUNCTION_WORDS and token[1:].islower()) or not _is_name_like(token, hit.strong)
    ):
        return None  # "(termed Ours)": a pronoun or article is never a name
    if " " not in token and names_model.is_descriptive_compound(token):
        return None  # RLHF-aligned, LLM-based: a description, not a name
    if _EN_DASH_PAIR.fullmatch(token):
        return None  # Hamilton–Jacobi, Kullback--Leibler, Vision–Language: a pair, not a coinage
    if hit.cue != "named" and names_model.is_generic_acronym(token):
        return None  # LR, CE, NN: short acronyms many unrelated papers use are terms
    if " " in token and not _multiword_ok(token):
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
        tok, _ = _last_token(plain, m.start())
        if tok:
            out.add(_strip_token(tok))
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
            if hit.cue != "named" and _PLURAL_ACRONYM.fullmatch(token):
                score -= PLURAL_ACRONYM_PENALTY
            out.append(Candidate(token, score, hit.pos, hit.cue))
    return out


_EMPHASIS = re.compile(
    r"\\(?:textbf|textsc|texttt|textit|emph|mathtt|mathsf|textsf|mathbf|mathrm|mathcal|text|"
    r"underline)\s*\{\s*((?:[^{}]|\{[^{}]*\}){2,60}?)\s*\}|\*\*([^*\n]{2,40}?)\*\*|"
    r"(?<![\w*])\*([A-Z][^*\n]{1,30}?)\*(?![\w*])|`([^`\n]{2,30})`|(?<!\w)__([^_\n]{2,40}?)__"
)

MIN_SCORE = 3.0  # hand scoring: the evidence a name needs (used without the learned scorer)
HEADLINE_MARGIN = 0.5


def _key(name: str) -> str:
    k = name.lower()
    return k[:-1] if len(k) > 3 and k.endswith("s") else k


def extract_names(raw: str, plain: str | None = None) -> list[str]:
    """Names the abstract introduces, headline first ([] when it coins none).

    `raw` is the abstract with its markup (emphasis is a cue); `plain` its clean() form.
    """
    raw = raw or ""
    plain = clean(raw) if plain is None else plain
    cands = candidates(raw, plain)
    if not cands:
        return []
    return _rank(cands, plain)


_TITLE_HEAD = re.compile(r"^\s*([^\s:：]{2,40})\s*[:：]\s*\S")
_TITLE_CONVENTIONS = frozenset({"sok"})  # "SoK: ..." says the kind of paper, not its name


def _name_key(name: str) -> str:
    return re.sub(r"[^0-9a-z]", "", name.casefold())


def title_name(title: str | None) -> str | None:
    """The name a title leads with, "NeuralFur: Animal Fur Reconstruction ..." -> NeuralFur:
    one coined-looking word (inner capitals, letters with digits, all capitals) before a colon."""
    m = _TITLE_HEAD.match(title or "")
    if not m:
        return None
    head = m.group(1).strip("*_`'\"“”")
    if head.casefold() in _TITLE_CONVENTIONS or not _is_name_like(head, strong=False):
        return None
    return head


def with_title_name(names: list[str], title: str | None) -> list[str]:
    """`names` with the title's leading name first: the abstract's spelling of it where the
    abstract has one ("FreqCa" for the title's "FREQCA"), the title's otherwise (a dataset the
    abstract names, "ScanNet200", is not the name of "FOLK: Fast Open-Vocabulary ...")."""
    head = title_name(title)
    if head is None:
        return names
    key = _name_key(_SIZE_SUFFIX.sub("", head))  # "Fuyu-8B: ..." is Fuyu at one size
    same = [n for n in names if _name_key(_SIZE_SUFFIX.sub("", n)) == key]
    first = same[0] if same else head
    return [first] + [n for n in names if n != first]


# A model size after a name (AgenTracer-8B); counts such as DeepMath-103K or HSG-12M are
# part of a dataset's name and stay.
_SIZE_SUFFIX = re.compile(r"[-_]\d+(?:\.\d+)?B$")


def _prefer_base_names(kept: list[Candidate]) -> list[Candidate]:
    """`AgenTracer-8B` is one size of `AgenTracer`: size suffixes are dropped, and a name
    that then appears twice keeps its best evidence once."""
    by_key: dict[str, Candidate] = {}
    for c in kept:
        base = _SIZE_SUFFIX.sub("", c.name)
        if base != c.name and len(base) >= 3:
            c.name = base
        k = _key(c.name)
        if k in by_key:
            by_key[k].score = max(by_key[k].score, c.score)
            by_key[k].position = min(by_key[k].position, c.position)
        else:
            by_key[k] = c
    return list(by_key.values())


def merge(cands: list[Candidate], plain: str, df=None) -> list[tuple[Candidate, dict]]:
    """One (Candidate, features) per distinct name: its sightings merged.

    The Candidate carries the hand score (strongest cue plus a little per further cue and
    per mention); the features feed the learned scorer (names_model). `df(token)` gives the
    token's spread across other papers (default: the shipped table)."""
    if df is None:
        table = names_model.term_df()
        df = lambda tok: table.get(tok, 0)  # noqa: E731
    by_key: dict[str, list[Candidate]] = {}
    for c in cands:
        by_key.setdefault(_key(c.name), []).append(c)
    merged = []
    for group in by_key.values():
        best = max(group, key=lambda c: c.score)
        cues = {c.cue for c in group}
        score = best.score + 0.4 * min(len(cues) - 1, 2)
        if " " not in best.name:
            mentions = plain.count(best.name)
            score += 0.3 * min(max(mentions - 1, 0), 4)
        merged.append(
            (Candidate(best.name, score, min(c.position for c in group), best.cue), cues, best.score)
        )
    if not merged:
        return []
    first = min(m[0].position for m in merged)
    top = max(m[0].score for m in merged)
    out = []
    all_names = [m[0].name for m in merged]
    # the first sentence that introduces something ("we propose ..."): the headline is there
    intro = _INTRO.search(plain)
    if intro:
        sent_lo = max(plain.rfind(". ", 0, intro.start()), -1) + 1
        sent_hi = plain.find(". ", intro.end())
        sent_hi = len(plain) if sent_hi < 0 else sent_hi
    counts = {m[0].name: plain.count(m[0].name) for m in merged}
    most = max(counts.values()) if counts else 0
    for cand, cues, best_weight in merged:
        base = _SIZE_SUFFIX.sub("", cand.name)
        feats = names_model.features(
            cand.name,
            cues,
            best_weight,
            cand.position,
            plain,
            cand.position == first,
            cand.score == top,
            len(merged),
            0 if " " in base else df(base),
        )
        others = [n for n in all_names if n != cand.name]
        # RoboInter with RoboInter-VQA: the base of a family of variants is the headline;
        # GS inside GSCV, GSPG inside C2GSPG: a part, not the name
        feats["base_of_variants"] = float(any(n.startswith(cand.name + "-") for n in others))
        feats["inside_other"] = float(
            any(cand.name in n and not n.startswith(cand.name + "-") for n in others)
        )
        feats["in_first_intro"] = float(bool(intro) and sent_lo <= cand.position <= sent_hi)
        feats["most_mentioned"] = float(counts[cand.name] == most and most > 1)
        out.append((cand, feats))
    return out


# an opening sentence about this paper: its voice, or the name itself introducing something
# ("TIPO (Text-to-Image Prompt Optimization) introduces an efficient approach ...")
_SELF_REFERENCE = re.compile(
    r"\b(?:we|our|us|this\s+(?:paper|work|study|article)|introduces|proposes|presents)\b", re.I
)
# cues that say an acronym is defined or used as a subject, never that the paper introduces it
_ONLY_DEFINED = frozenset(("cue=acronym", "cue=subject-acronym", "cue=subject"))


def _background_acronym(cand: Candidate, feats: dict[str, float], plain: str) -> bool:
    """An acronym only ever defined (or used as a subject), and defined in an opening sentence
    that speaks of the field rather than of this paper ("Multivariate time series anomaly
    detection (MTS-AD) is ..."): the topic, not a contribution. On the training papers 21 of
    the 22 such headlines were topics (the other, Acc-MD, is arguable)."""
    cues = {k for k in feats if k.startswith("cue=")}
    if "cue=acronym" not in cues or not cues <= _ONLY_DEFINED:
        return False
    if plain.startswith(cand.name):
        return False  # "SELECT (Sensitivity-based ...) targets ...": the paper opens on its name
    first_end = plain.find(". ")
    first = plain if first_end < 0 else plain[: first_end + 1]
    return cand.position < len(first) and not _SELF_REFERENCE.search(first)


def _rank(cands: list[Candidate], plain: str) -> list[str]:
    """Merge evidence per name and order: headline first.

    With the learned scorer, the headline is the candidate it finds likeliest, when that clears
    its threshold; further names need the hand score. Without it (no model file): a name's
    strength is its strongest cue, plus a little for each further kind of cue and for recurring
    mentions; the headline is the earliest name nearly as strong as the best one.
    """
    merged = [(c, f) for c, f in merge(cands, plain) if not _background_acronym(c, f, plain)]
    if not merged:
        return []
    model = names_model.load_model()
    if model is not None:
        probs = [(names_model.score(model, f), c) for c, f in merged]
        p_best, head = max(probs, key=lambda pc: (pc[0], -pc[1].position))
        if p_best < model["threshold"]:
            return []
        kept = [head] + [
            c for p, c in probs if c is not head and (c.score >= MIN_SCORE or p >= model["threshold"])
        ]
        kept = _prefer_base_names(kept)
        head = kept[0]
        rest = sorted(kept[1:], key=lambda c: (-c.score, c.position))
        return [head.name] + [c.name for c in rest]
    kept = [c for c, _ in merged if c.score >= MIN_SCORE]
    if not kept:
        return []
    kept = _prefer_base_names(kept)
    top = max(c.score for c in kept)
    head = min((c for c in kept if c.score >= top - HEADLINE_MARGIN), key=lambda c: c.position)
    rest = sorted((c for c in kept if c is not head), key=lambda c: (-c.score, c.position))
    return [head.name] + [c.name for c in rest]
