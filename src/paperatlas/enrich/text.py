"""Text clean-up shared by the extractors: LaTeX/Markdown markup out, numbers repaired.

Abstracts arrive as typed by authors: `\\textbf{Name}`, `$\\texttt{Name}$`, `**Name**`,
`18.8\\%`, `10$\\times$`, and copies that broke `12.5 %` into `12. 5 %`. Every extractor
works on the plain text `clean()` returns; names.py also looks at the markup itself
(emphasis marks coined words), via `emphasised_spans()`.
"""

from __future__ import annotations

import re
import unicodedata

# Macros that stand for a symbol; everything else with a {argument} keeps its argument.
_SYMBOLS = {
    "times": "×",
    "cdot": "·",
    "sim": "~",
    "approx": "≈",
    "simeq": "≈",
    "leq": "≤",
    "le": "≤",
    "geq": "≥",
    "ge": "≥",
    "pm": "±",
    "rightarrow": "→",
    "to": "→",
    "leftarrow": "←",
    "uparrow": "↑",
    "downarrow": "↓",
    "infty": "∞",
    "alpha": "α",
    "beta": "β",
    "gamma": "γ",
    "delta": "δ",
    "epsilon": "ε",
    "varepsilon": "ε",
    "theta": "θ",
    "lambda": "λ",
    "mu": "μ",
    "sigma": "σ",
    "tau": "τ",
    "phi": "φ",
    "pi": "π",
    "rho": "ρ",
    "omega": "ω",
    "ell": "ℓ",
    "Delta": "Δ",
    "Omega": "Ω",
    "Theta": "Θ",
    "Sigma": "Σ",
    "Phi": "Φ",
    "Psi": "Ψ",
    "psi": "ψ",
    "eta": "η",
    "kappa": "κ",
    "xi": "ξ",
    "zeta": "ζ",
    "nu": "ν",
    "chi": "χ",
    "Lambda": "Λ",
    "Gamma": "Γ",
    "Pi": "Π",
    "log": "log",
    "exp": "exp",
    "min": "min",
    "max": "max",
    "sqrt": "√",
    "in": "∈",
    "ldots": "…",
    "dots": "…",
    "cdots": "…",
    "neq": "≠",
    "ne": "≠",
    "propto": "∝",
    "partial": "∂",
    "nabla": "∇",
    "forall": "∀",
    "exists": "∃",
    "mid": "|",
    "top": "⊤",
    "star": "*",
    "ast": "*",
    "circ": "∘",
    "%": "%",
    "&": "&",
    "_": "_",
    "#": "#",
    "$": "$",
    "{": "{",
    "}": "}",
    ",": " ",
    ";": " ",
    "quad": " ",
    "qquad": " ",
    "!": "",
    " ": " ",
    "textasciitilde": "~",
    "textendash": "–",
    "textemdash": "—",
    "ie": "i.e.",
    "eg": "e.g.",
    "etal": "et al.",
    "LaTeX": "LaTeX",
    "TeX": "TeX",
}
# Commands whose braced argument is emphasis (a coined word is often set this way).
EMPHASIS_COMMANDS = (
    "textbf",
    "textsc",
    "texttt",
    "textit",
    "emph",
    "mathbf",
    "mathtt",
    "mathsf",
    "textsf",
    "mathit",
    "mathrm",
    "textrm",
    "text",
    "mathcal",
    "mathbb",
    "underline",
    "textsl",
    "boldsymbol",
    "bm",
    "operatorname",
    "mbox",
    "textup",
    "textmd",
    "textnormal",
    "mathbfit",
    "mathscr",
    "mathfrak",
)

_HREF = re.compile(r"\\href\s*\{([^{}]*)\}\s*\{([^{}]*)\}")
_URL_CMD = re.compile(r"\\(?:url|path|nolinkurl)\s*\{([^{}]*)\}")
_FOOTNOTE = re.compile(r"\\(?:footnote|thanks)\s*\{([^{}]*)\}")
_FRAC = re.compile(r"\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}")
_SQRT = re.compile(r"\\sqrt\s*\{([^{}]*)\}")
# A brace group with no braces inside, with the command it is the argument of, if any:
# both go, the text stays (\textbf{X} -> X, {X} -> X).
_GROUP = re.compile(r"(?:\\[A-Za-z]+\*?\s*(?:\[[^\]]*\])?\s*)?\{([^{}]*)\}")
_CMD_BARE = re.compile(r"\\([A-Za-z]+)\b\s?|\\([%&_#${},;! ])")
_MATH = re.compile(r"\$\$(.+?)\$\$|\$(.+?)\$|\\\((.+?)\\\)|\\\[(.+?)\\\]", re.S)
_MD_BOLD = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")
_MD_ITALIC = re.compile(r"(?<![\w*])\*(?=[^\s*])([^*\n]+?)(?<=\S)\*(?![\w*])")
_MD_CODE = re.compile(r"`([^`\n]+)`")
_MD_UNDERSCORE = re.compile(r"(?<![\w\\])_(?=[^\s_])([^_\n]+?)(?<=[^\s_])_(?!\w)")
_MD_LINK = re.compile(r"\[([^\]\n]+)\]\((\S+?)\)")
_WS = re.compile(r"\s+")
_EM_DASH = re.compile(r"\s*(?:---|—)\s*")

# "12. 5 %" (a copy broke the number) -> "12.5%"; "18.8 %" -> "18.8%"
_BROKEN_DECIMAL = re.compile(r"(?<![\w.])(\d+)\.\s(\d+)(?=\s*(?:%|×|x\b|times\b|pp\b|points?\b))")
_SPACE_PERCENT = re.compile(r"(\d)\s+(%)")
_SPACE_TIMES = re.compile(r"(\d)\s*(×)")


def placeholder_macros(text: str) -> set[str]:
    """Bare macros an author left undefined (`\\tool`, `\\method`): names stand-ins, not names."""
    found = set()
    for m in re.finditer(r"\\([A-Za-z]+)\b(?!\s*\{)", text):
        word = m.group(1)
        if (
            word not in _SYMBOLS
            and word not in EMPHASIS_COMMANDS
            and word not in _SWITCHES
            and word not in ("url", "href", "footnote", "cite", "citep", "citet", "ref", "label")
        ):
            found.add(word)
    return found


# Font switches ({\em X}, {\bf X}) and spacing/size commands: no text of their own.
_SWITCHES = frozenset(
    """em bf it sc tt rm sf sl small large Large LARGE huge tiny footnotesize
scriptsize normalsize bfseries itshape scshape ttfamily rmfamily sffamily mdseries upshape
noindent newline linebreak par centering hfill vfill smallskip medskip bigskip xspace
displaystyle textstyle left right big Big bigg Bigg""".split()
)


def _symbol(match: re.Match) -> str:
    word = match.group(1) or match.group(2)
    trailing = " " if match.group(0).endswith((" ", "\n", "\t")) else ""
    if word in _SYMBOLS:
        return _SYMBOLS[word] + trailing
    if word in _SWITCHES or word in EMPHASIS_COMMANDS:
        return trailing  # a formatting command left without its argument
    return word + trailing  # an unknown bare macro (a placeholder such as \tool): keep its word


def _strip_commands(text: str) -> str:
    text = _HREF.sub(
        lambda m: f"{m.group(2)} ({m.group(1)})" if m.group(2) != m.group(1) else m.group(1), text
    )
    text = _URL_CMD.sub(r"\1", text)
    text = _FOOTNOTE.sub(r" (\1)", text)
    text = _FRAC.sub(r"\1/\2", text)
    text = _SQRT.sub(r"√\1", text)
    for _ in range(4):  # innermost groups first: \textbf{\textit{Lumos{X}}}
        new = _GROUP.sub(r"\1", text)
        if new == text:
            break
        text = new
    text = _CMD_BARE.sub(_symbol, text)
    return text.replace("{", "").replace("}", "")


def _math(match: re.Match) -> str:
    inner = next(g for g in match.groups() if g is not None).replace("~", " ")
    inner = _strip_commands(inner)
    inner = inner.replace("^", "") if not re.search(r"\d\^", inner) else inner
    return inner.strip()


# LaTeX accents: N\\"uwa -> Nüwa, \\'{e} -> é (letter + combining mark, composed by NFC).
_ACCENT = re.compile(r"\\([\"'`^~=.])\s*(?:\{\s*([A-Za-z])\s*\}|([A-Za-z]))")
_COMBINING = {
    '"': "\u0308",
    "'": "\u0301",
    "`": "\u0300",
    "^": "\u0302",
    "~": "\u0303",
    "=": "\u0304",
    ".": "\u0307",
}


def _accent(match: re.Match) -> str:
    letter = match.group(2) or match.group(3)
    return unicodedata.normalize("NFC", letter + _COMBINING[match.group(1)])


def strip_markup(text: str) -> str:
    """LaTeX and Markdown markup removed, their content kept (`\\textbf{X}` -> `X`)."""
    if (
        "\\" not in text
        and "$" not in text
        and "*" not in text
        and "`" not in text
        and "_" not in text
        and "[" not in text
    ):
        return text
    if "\\" in text:
        text = _ACCENT.sub(_accent, text)
    text = _MD_LINK.sub(r"\1 (\2)", text)
    text = _MATH.sub(_math, text)
    text = _strip_commands(text)
    text = _MD_BOLD.sub(r"\2", text)
    text = _MD_ITALIC.sub(r"\1", text)
    text = _MD_CODE.sub(r"\1", text)
    text = _MD_UNDERSCORE.sub(r"\1", text)
    return text


def fix_numbers(text: str) -> str:
    """Repair quantities broken by copying or typesetting: `12. 5 %` -> `12.5%`, `3 ×` -> `3×`.
    Each pattern runs only where the text has what it cannot match without (most abstracts
    have no "12. 5", many no % or ×)."""
    if _DIGIT_DOT_SPACE.search(text):
        text = _BROKEN_DECIMAL.sub(r"\1.\2", text)
    if "%" in text:
        text = _SPACE_PERCENT.sub(r"\1\2", text)
    if "×" in text:
        text = _SPACE_TIMES.sub(r"\1\2", text)
    return text


_DIGIT_DOT_SPACE = re.compile(r"\d\.\s\d")  # inside every _BROKEN_DECIMAL match


# Thin/non-breaking spaces to spaces; typographic hyphens (T2I‐ConBench) to "-".
_UNIFORM = str.maketrans(
    {"\u2009": " ", "\u00a0": " ", "\u202f": " ", "\u2010": "-", "\u2011": "-", "\u00ad": ""}
)


def clean(text: str) -> str:
    """Plain text for the extractors: NFKC, markup stripped, numbers repaired, spaces collapsed."""
    text = unicodedata.normalize("NFKC", text or "")
    if not text.isascii():  # _UNIFORM maps only non-ASCII characters
        text = text.translate(_UNIFORM)
    text = strip_markup(text)
    text = fix_numbers(text)
    if "—" in text or "---" in text:
        text = _EM_DASH.sub(" — ", text)  # "Qronos---a new method" / "Xolver—a framework"
    # runs of whitespace to one space, ends stripped (str.split's whitespace is re's \s)
    return " ".join(text.split())


# Sentence ends: ". " + capital/digit/quote, not after common abbreviations or initials;
# a Chinese (full-width) 。！？ ends a sentence wherever it stands, spaces or not.
# (clean() has turned ！？ into !?, so a ! or ? right before a CJK character ends one too).
_SENT_END = re.compile(
    r"(?<=[.!?])[\"')\]]?\s+(?=[A-Z0-9\"'(\[])|(?<=[。！？])[”’」』）)]?\s*(?=\S)|"
    r"(?<=[!?])[”’」』)]?\s*(?=[\u3400-\u4dbf\u4e00-\u9fff])"
)
_ABBREV = re.compile(
    r"(?:\b(?:e\.g|i\.e|et al|etc|vs|Fig|Eq|Sec|approx|resp|cf|Dr|Mr|Ms|No|al)\.|\b[A-Z]\.)$"
)


def sentences(text: str) -> list[str]:
    """Split clean text into sentences (abbreviations such as e.g. and et al. kept inside)."""
    parts, start = [], 0
    for m in _SENT_END.finditer(text):
        chunk = text[start : m.start()].rstrip()
        if _ABBREV.search(chunk[-8:] if len(chunk) > 8 else chunk):
            continue
        if chunk:
            parts.append(chunk)
        start = m.end()
    tail = text[start:].strip()
    if tail:
        parts.append(tail)
    return parts


def words(text: str) -> list[str]:
    return text.split()


_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af]")
_LETTER = re.compile(r"[^\W\d_]")


def is_cjk(text: str) -> bool:
    """True when most letters of the text are Chinese/Japanese/Korean characters (a Chinese
    abstract with Latin names inside, "我们提出了 FastGS", is CJK)."""
    sample = text[:400]
    if not _CJK.search(sample):  # no CJK character: never most of the letters (the common case)
        return False
    letters = len(_LETTER.findall(sample))
    return letters > 0 and len(_CJK.findall(sample)) >= 0.3 * letters


def text_length(text: str) -> int:
    """Length for "too short" / "too long" checks: characters for CJK text (which has no
    spaces between words), words otherwise."""
    if is_cjk(text):
        return len(_CJK.findall(text)) + len(re.findall(r"[A-Za-z0-9]+", text))
    return len(text.split())
