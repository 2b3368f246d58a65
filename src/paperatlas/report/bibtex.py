"""BibTeX entries for exported papers: the entry type read from the venue, LaTeX-safe field
text (untrusted titles and abstracts cannot run commands or break the entry), unique keys.

`write_bibtex(papers, fh)` writes them; `bibtex_type(paper)` is shared with RIS and CSL-JSON.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Any, TextIO

from paperatlas.paper import shown_title
from paperatlas.report.links import paper_url
from paperatlas.report.reference_formats import keywords_and_tags

_TEXT_SPECIALS = {
    "&": r"\&",
    "%": r"\%",
    "#": r"\#",
    "_": r"\_",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}
_MATH = re.compile(r"(?<!\\)\$[^$]+(?<!\\)\$")
_COMMAND = re.compile(r"\\[A-Za-z]+")
# a run of characters `_escape_plain` writes as they are (ASCII, no special, no start of a
# ligature), taken in one step: character by character, an abstract cost ~2 ms
_PLAIN_RUN = re.compile(r"[^\\{}$&%#_~^\-'`!?\x80-\U0010ffff]+")
_BRACE = re.compile(r"[{}]")
_OPEN, _CLOSE = "\x00", "\x01"  # a literal brace, spelled out once the whole text is seen
# The only commands a field keeps as written: formatting, symbols, accents and math that
# only typeset. Any other (\input, \openin, \write18, \def, \catcode, \csname, \begin{...})
# could read or write files, run programs or redefine what follows: its backslash is
# written as text (\textbackslash{}), so compiling the .bib prints its name instead.
SAFE_COMMANDS = frozenset(
    """
    textbf textit emph texttt textsc textsf textrm textup textsl textmd textnormal
    textsuperscript textsubscript underline mbox LaTeX TeX BibTeX ldots dots textendash
    textemdash S P dag ddag copyright pounds i j o O l L ss ae AE oe OE aa AA v u H c k r b d t
    text mathrm mathbf mathit mathsf mathtt mathcal mathbb mathfrak mathscr boldsymbol bm
    operatorname mathop limits nolimits frac dfrac tfrac binom sqrt hat tilde bar vec dot ddot
    overline widehat widetilde left right big Big bigg Bigg mid
    alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu
    xi pi varpi rho varrho sigma varsigma tau upsilon phi varphi chi psi omega
    Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega
    log exp ln sin cos tan sinh cosh tanh max min arg sup inf lim det Pr deg dim ker
    sum prod int iint oint coprod cdot times div pm mp circ ast star otimes oplus odot cup cap
    bigcup bigcap wedge vee neg lnot setminus partial nabla infty emptyset varnothing forall
    exists nexists in notin ni subset subseteq supset supseteq le leq ge geq ne neq approx
    sim simeq cong equiv propto ll gg to rightarrow leftarrow Rightarrow Leftarrow
    leftrightarrow Leftrightarrow longrightarrow mapsto uparrow downarrow cdots vdots ddots
    prime ell hbar top bot perp parallel langle rangle lceil rceil lfloor rfloor lVert rVert
    lvert rvert Vert vert quad qquad dagger triangleq coloneqq models vdash aleph Re Im wp
    sharp flat natural pmod bmod mod over choose intercal preceq succeq prec succ lesssim
    gtrsim leqslant geqslant checkmark
    """.split()
)
_MATH_SYMBOLS = frozenset(",;:!{}|\\ %#&_$")  # \, \; \{ ...: spacing and escaped characters
_MATH_TOKEN = re.compile(r"\\([A-Za-z]+|.)|\^\^|(?<!\\)[%#]", re.DOTALL)


def _inert_math(math: str) -> bool:
    """Does this $...$ only typeset? Its commands all safe, no ^^ (TeX's way of writing any
    character, a backslash too), no bare % or # (a comment that could hide the field's end)."""
    for token in _MATH_TOKEN.finditer(math):
        name = token.group(1)
        if name is None:
            return False
        if not (name in SAFE_COMMANDS if name[0].isalpha() else name in _MATH_SYMBOLS):
            return False
    return True


# what makes `bibtex_escape` write anything but the text itself: a special character, a
# non-ASCII one, or a pair LaTeX reads as a ligature (-- '' `` ?` !`)
_NEEDS_ESCAPING = re.compile(r"[\\{}$&%#_~^]|[^\x00-\x7f]|--|''|``|[!?]`")


def bibtex_escape(text: str) -> str:
    r"""Make text safe inside a braced BibTeX field and valid LaTeX that reads back as the
    same Unicode text.

    Inline math ($...$) is kept as written where it only typesets (see `_inert_math`; else
    it is text, its $ escaped), and so is a command of SAFE_COMMANDS with its {argument}
    (\textbf{bold}); outside them & % # _ ~ ^ are escaped, a backslash that starts no
    safe command becomes \textbackslash{} (so no field can run \input, \write18, \def...),
    and other braces are text: \{ and \} where they pair up, else \textbraceleft{} /
    \textbraceright{} (BibTeX counts even escaped braces).
    Non-ASCII letters and symbols become LaTeX (R{\"u}gamer, {\v{S}}ari{\'c}); characters
    LaTeX has no name for (CJK) are kept as UTF-8.
    """
    text = " ".join(text.split())
    if not _NEEDS_ESCAPING.search(text):
        return text  # most titles and abstracts: nothing below would change a character
    if (text.count("$") - text.count(r"\$")) % 2:
        text = re.sub(r"(?<!\\)\$", r"\\$", text)  # an unpaired $ is a dollar sign
    out, last = [], 0
    for match in _MATH.finditer(text):
        out.append(_escape_plain(text[last : match.start()]))
        if _inert_math(match.group(0)):
            out.append(match.group(0))
        else:
            out.append(r"\$" + _escape_plain(match.group(0)[1:-1], groups=False) + r"\$")
        last = match.end()
    out.append(_escape_plain(text[last:]))
    result = _spell_braces("".join(out))
    # BibTeX counts every brace, bibtexparser only bare ones: both must pair up. Math or a
    # command's {argument} left open breaks that: then all of it is written as text.
    if not (_balanced(result) and _balanced(re.sub(r"\\[{}]", "", result))):
        result = _spell_braces(_escape_plain(text, groups=False))
    return result


def _spell_braces(text: str) -> str:
    if _OPEN not in text and _CLOSE not in text:
        return text
    if _balanced(text.replace(_OPEN, "{").replace(_CLOSE, "}")):
        return text.replace(_OPEN, r"\{").replace(_CLOSE, r"\}")
    return text.replace(_OPEN, r"\textbraceleft{}").replace(_CLOSE, r"\textbraceright{}")


def _escape_plain(text: str, groups: bool = True) -> str:
    out: list[str] = []
    opened: list[bool] = []  # open braces: True = a command's argument, False = literal text
    i = 0
    while i < len(text):
        if plain := _PLAIN_RUN.match(text, i):
            out.append(plain.group(0))
            i = plain.end()
            continue
        ch = text[i]
        if ch == "\\":
            command = _COMMAND.match(text, i)
            if command and command.group(0)[1:] in SAFE_COMMANDS:
                out.append(command.group(0))
                i = command.end()
                if groups and i < len(text) and text[i] == "{":
                    opened.append(True)
                    out.append("{")
                    i += 1
                elif not groups:
                    out.append("{}")  # \alpha x: the command ends here
                continue
            if i + 1 < len(text) and text[i + 1] in "&%#_$":
                out.append(text[i : i + 2])  # already escaped
                i += 2
                continue
            if i + 1 < len(text) and text[i + 1] in "{}":
                out.append(_OPEN if text[i + 1] == "{" else _CLOSE)  # \{ is a literal brace
                i += 2
                continue
            out.append(r"\textbackslash{}")
        elif ch == "{":
            opened.append(False)
            out.append(_OPEN)
        elif ch == "}":
            out.append("}" if opened and opened.pop() else _CLOSE)
        elif ch == "$" and not groups:
            out.append(r"\$")
        elif ch in _TEXT_SPECIALS:
            out.append(_TEXT_SPECIALS[ch])
        elif (ch in "-'`" and text[i + 1 : i + 2] == ch) or (ch in "!?" and text[i + 1 : i + 2] == "`"):
            out.append(ch + "{}")  # not a LaTeX ligature: -- is an en dash, '' and `` quotes, ?` ¿
        elif ord(ch) > 127:
            out.append(_latex_char(ch))
        else:
            out.append(ch)
        i += 1
    return "".join(out)


@lru_cache(maxsize=4096)
def _latex_char(ch: str) -> str:
    """One non-ASCII character as LaTeX ({\"u}, {\textemdash}), or itself where LaTeX has
    no name for it."""
    return _encoder().unicode_to_latex(ch)


@lru_cache(maxsize=1)
def _encoder():
    from pylatexenc.latexencode import UnicodeToLatexEncoder

    return UnicodeToLatexEncoder(
        non_ascii_only=True,
        replacement_latex_protection="braces-all",
        unknown_char_policy="keep",
        unknown_char_warning=False,
    )


def _balanced(text: str) -> bool:
    depth = 0
    for ch in _BRACE.findall(text):  # the braces alone: a loop over every character cost more
        depth += ch == "{"
        depth -= ch == "}"
        if depth < 0:
            return False
    return depth == 0


def _bibtex_key(paper_id: str, used: set[str]) -> str:
    key = re.sub(r"[^A-Za-z0-9_:.\-]", "_", paper_id) or "paper"
    candidate, n = key, 2
    while candidate in used:
        candidate, n = f"{key}_{n}", n + 1
    used.add(candidate)
    return candidate


# Where a paper appeared, from its venue's words: a journal, a conference, or a preprint
# server; a decision that says it was not accepted makes a submission no publication.
_JOURNAL = re.compile(
    r"journal|transactions|\btrans\.|letters|magazine|annals|bulletin|\bacta\b|review[s]?\b|"
    r"national academy|\b(nature|science|cell|pnas|jmlr|tmlr|plos|elife|bioinformatics|"
    r"neurocomputing|patterns|database|frontiers|ieee access|scientific reports|"
    r"neural computation|machine learning|artificial intelligence)\b",
    re.IGNORECASE,
)
_CONFERENCE = re.compile(
    r"conference|proceedings|\bproc\b|workshop|symposium|congress|colloquium|meeting|summit|"
    r"findings of|\b(iclr|neurips|nips|icml|cvpr|iccv|eccv|acl|emnlp|naacl|eacl|aacl|coling|aaai|"
    r"ijcai|kdd|sigir|sigmod|vldb|www|chi|uist|uai|aistats|colt|corl|icra|iros|miccai|wacv|bmvc|"
    r"interspeech|icassp|wsdm|cikm|recsys|mlsys|osdi|sosp|nsdi|usenix|isca|asplos|hpca|dac|"
    r"iccad|ppopp|pldi|popl|icse|fse|lics|stoc|focs|soda|icde|siggraph|3dv|rss|lrec|pmlr)\b",
    re.IGNORECASE,
)
_JOURNAL_NAME = re.compile(
    r"journal|transactions|letters|national academy|magazine|annals", re.IGNORECASE
)  # outweighs "Proceedings of" (PNAS) or "Conference"
_PREPRINT = re.compile(r"^\s*(arxiv|corr|biorxiv|medrxiv|chemrxiv|ssrn|preprint)\b", re.IGNORECASE)
_UNPUBLISHED = re.compile(r"reject|withdr[ae]w|not accepted|desk|submitted to|under review", re.IGNORECASE)
_SOURCE_TYPES = {
    "article": "article",
    "inproceedings": "inproceedings",
    "conference": "inproceedings",
    "incollection": "incollection",
    "phdthesis": "phdthesis",
    "mastersthesis": "mastersthesis",
    "techreport": "techreport",
    "unpublished": "unpublished",
}
_VENUE_FIELD = {
    "article": "journal",
    "inproceedings": "booktitle",
    "incollection": "booktitle",
    "phdthesis": "school",
    "mastersthesis": "school",
    "techreport": "institution",
    "misc": "howpublished",
    "unpublished": "note",
}


def bibtex_type(paper: dict[str, Any]) -> str:
    """@article (a journal), @inproceedings (a conference or workshop, or an accepted
    submission), @misc (a preprint, a rejected or withdrawn submission, nothing known); a
    BibTeX source's own type is kept where it names a venue."""
    venue = paper.get("venue") or ""
    decision = paper.get("decision") or ""
    source_type = _SOURCE_TYPES.get(str((paper.get("extra") or {}).get("entry_type") or "").lower())
    if _UNPUBLISHED.search(decision) or _UNPUBLISHED.search(venue):
        return "misc"
    if venue and _PREPRINT.match(venue):
        return "misc"
    if source_type and venue:
        return source_type
    if venue:
        if _JOURNAL_NAME.search(venue) or (
            _JOURNAL.search(venue) and not _CONFERENCE.search(venue.split(" of ")[0])
        ):
            return "article"
        if _CONFERENCE.search(venue):
            return "inproceedings"
        return "article" if _JOURNAL.search(venue) else "misc"
    if decision.lower().startswith("accept"):
        return "inproceedings"
    return "misc"


# a list named for a conference and its year: "iclr2026", "ICLR 2026", "neurips-2025"
_CONFERENCE_LIST = re.compile(r"^\s*([A-Za-z]{2,12})[\s_-]?((?:19|20)\d\d)\s*$")


def list_venue(paper: dict[str, Any]) -> str | None:
    """'ICLR 2026' for a paper of a list named for a known conference and year (its
    year, where it gives one, agreeing): an accepted paper's booktitle where the list's
    records name no venue (OpenReview exports, review trackers)."""
    for name in paper.get("lists") or ():
        match = _CONFERENCE_LIST.match(name)
        if not match or not _CONFERENCE.fullmatch(match.group(1)):
            continue
        if paper.get("year") and str(paper["year"]) != match.group(2):
            continue
        return f"{match.group(1).upper()} {match.group(2)}"
    return None


def _month(date: str | None) -> str | None:
    match = re.match(r"^\d{4}-(\d{2})", date or "")
    if match and 1 <= int(match.group(1)) <= 12:
        return ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")[
            int(match.group(1)) - 1
        ]
    return None


def _bibtex_name(name: str) -> str:
    """A `First Last` author as BibTeX reads it back: a name with a comma or an `and` in it
    (an organisation) is braced whole."""
    escaped = bibtex_escape(name)
    if "," in name or re.search(r"\band\b", name, re.IGNORECASE):
        return "{" + escaped + "}"
    return escaped


def _url_field(url: str) -> str:
    """A URL or DOI as a field: braces, spaces, backslashes and ^ percent-encoded (no TeX
    command or ^^ character can be spelled in it)."""
    for ch, code in (("{", "%7B"), ("}", "%7D"), (" ", "%20"), ("\\", "%5C"), ("^", "%5E")):
        url = url.replace(ch, code)
    return url


def bibtex_entry(paper: dict[str, Any], key: str) -> str:
    """One paper as a BibTeX entry (see `bibtex_type` for the type chosen)."""
    facts = paper.get("facts") or {}
    extra = paper.get("extra") or {}
    ids = paper.get("identifiers") or {}
    abstract = paper.get("abstract") or ""
    title = shown_title(paper, facts) or paper["id"]
    entry_type = bibtex_type(paper)
    fields: list[tuple[str, str]] = [("title", "{" + bibtex_escape(title) + "}")]
    if paper.get("authors"):
        fields.append(("author", " and ".join(_bibtex_name(a) for a in paper["authors"])))
    venue = paper.get("venue")
    if not venue and entry_type == "inproceedings":
        venue = list_venue(paper)
    if venue and not (entry_type == "misc" and _PREPRINT.match(venue) and ids.get("arxiv")):
        fields.append((_VENUE_FIELD.get(entry_type, "howpublished"), bibtex_escape(venue)))
    if paper.get("year"):
        fields.append(("year", str(paper["year"])))
    if month := _month(paper.get("date")):
        fields.append(("month", month))
    if ids.get("doi"):
        fields.append(("doi", _url_field(ids["doi"])))
    if ids.get("arxiv"):
        fields.append(("eprint", bibtex_escape(ids["arxiv"])))
        fields.append(("archivePrefix", "arXiv"))
        categories = str(extra.get("categories") or "").split()
        if categories:
            fields.append(("primaryClass", bibtex_escape(categories[0])))
    url = paper_url(paper)
    if url and re.match(r"(?i)^(https?|ftp)://", url):  # never a javascript: or data: link
        fields.append(("url", _url_field(url)))
    if abstract.strip():
        fields.append(("abstract", bibtex_escape(abstract)))
    kept = paper.get("kept") or {}
    keywords = keywords_and_tags(paper)
    if keywords:
        fields.append(("keywords", bibtex_escape(", ".join(keywords))))
    notes = [str(paper["decision"])] if paper.get("decision") else []
    if not abstract.strip():
        notes.append("title only")
    if kept.get("note"):
        notes.append(kept["note"])
    if notes and entry_type != "unpublished":
        fields.append(("note", bibtex_escape("; ".join(notes))))
    if paper.get("area"):
        fields.append(("primary_area", bibtex_escape(str(paper["area"]))))
    body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields)
    return f"@{entry_type}{{{key},\n{body}\n}}\n\n"


def write_bibtex(papers: Iterable[dict[str, Any]], fh: TextIO) -> int:
    used: set[str] = set()
    count = 0
    for paper in papers:
        fh.write(bibtex_entry(paper, _bibtex_key(paper["id"], used)))
        count += 1
    return count


# -- Markdown ------------------------------------------------------------------------------------
