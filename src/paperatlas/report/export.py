"""Write selected papers as JSON Lines, CSV, BibTeX, RIS, CSL-JSON, Markdown, or a folder of
one Markdown file per paper (report/markdown_folder.py).

`export_papers(store, fmt, out, filters, ids=None, collection=None, query=None)` selects
papers like `Atlas.papers` (`Filters`), by an explicit id sequence (`ids`, in that order),
a collection's likes or a search's hits, and writes them to a path or an open text file (the
folder format: to a folder). Returns the number written. Each paper carries what the person
keeps about it (`kept`: state, note, tags), which BibTeX, RIS, CSL-JSON and the folder write
out.
"""

from __future__ import annotations

import csv
import errno
import io
import os
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from functools import lru_cache
from typing import Any, TextIO

from paperatlas.enrich.areas import area_label, top3_text
from paperatlas.filters import ALL_PAPERS, Filters
from paperatlas.paper import finite, json_text, shown_title
from paperatlas.report.links import paper_url, safe_url
from paperatlas.report.reference_formats import keywords_and_tags

FORMATS = ("jsonl", "csv", "bibtex", "ris", "csl-json", "markdown", "markdown-folder")
_CSV_COLUMNS = (
    "id",
    "title",
    "abstract",
    "title_only",
    "authors",
    "keywords",
    "venue",
    "year",
    "date",
    "area",
    "decision",
    "rating",
    "urls",
    "code_urls",
    "identifiers",
    "section",
    "lists",
    "name",
    "kind",
    "has_code",
    "display_title",
    "predicted_area",
    "predicted_area_top3",
    "gist",
    "topic_id",
    "topic",
    "fine_topic",
    "topic_other",
    "reference_topic_id",
    "reference_topic",
)
_FACT_COLUMNS = ("kind", "name", "has_code", "display_title", "predicted_area")


def export_papers(
    store,
    fmt: str,
    out: str | os.PathLike[str] | TextIO,
    filters: Filters = ALL_PAPERS,
    ids: Iterable[str] | None = None,
    collection: str | None = None,
    query: str | None = None,
    query_k: int = 100,
) -> int:
    from paperatlas.errors import PaperatlasError

    writer = _WRITERS.get(fmt)
    if writer is None:
        raise PaperatlasError(f"unknown export format '{fmt}' (choose from {', '.join(FORMATS)})")
    if collection is not None or query is not None:
        ids = _chosen_ids(store, ids, collection, query, query_k, filters)
        filters = ALL_PAPERS
    papers = _selected(store, ids, filters)
    if fmt == "markdown-folder":
        from paperatlas.report.markdown_folder import write_folder

        if not isinstance(out, (str, os.PathLike)):
            raise PaperatlasError("the markdown-folder export writes to a folder: name one (--output DIR)")
        return write_folder(papers, out)
    with _opened(out) as fh:
        return writer(papers, fh)


def _chosen_ids(store, ids, collection, query, query_k, filters: Filters) -> list[str]:
    """Ids of a collection's liked papers (mark order) or of a search's hits (rank order),
    narrowed by `ids`, the list and the filters when given too."""
    from paperatlas.errors import PaperatlasError

    chosen: list[str] = []
    if collection is not None:
        if collection not in store.collections():
            known = ", ".join(sorted(store.collections())) or "none yet"
            raise PaperatlasError(f"no collection named '{collection}' (collections: {known})")
        from paperatlas.recommend import liked_ids

        chosen = liked_ids(store, collection)
    if query is not None:
        from paperatlas.search import search

        hits = [h.id for h in search(store, query, k=query_k, filters=filters).hits]
        hit_set = set(hits)
        chosen = hits if collection is None else [pid for pid in chosen if pid in hit_set]
    if ids is not None:
        keep = set(ids)
        chosen = [pid for pid in chosen if pid in keep]
    if filters.narrows():
        keep = {p["id"] for p in store.iter_papers(filters, ids=chosen, id_only=True)}
        chosen = [pid for pid in chosen if pid in keep]
    return chosen


def paper_bibtex(store, paper_id: str) -> str:
    """One stored paper's BibTeX entry, as the bibtex export writes it (its note and tags
    too); "" for an unknown id. Its topic is not read: BibTeX has no field for it."""
    out = io.StringIO()
    write_bibtex(_selected(store, [paper_id], ALL_PAPERS, topics=False), out)
    return out.getvalue()


def _selected(store, ids, filters: Filters, topics: bool = True) -> Iterator[dict[str, Any]]:
    """Each selected paper with its lists and facts (and its topics), fetched a page at a time."""
    from paperatlas.atlas import TopicLookup

    # each paper's map topic and field topic (the first look-up reads the stored maps whole)
    lookup = TopicLookup(store, filters.list_name) if topics else None
    pages: Iterable[list[dict[str, Any]]]
    if ids is not None:
        wanted = list(dict.fromkeys(ids))
        pages = (store.get_papers(wanted[i : i + 500]) for i in range(0, len(wanted), 500))
    else:
        rows = store.iter_papers(filters)
        pages = _pages(rows, 500)
    for page in pages:
        page_ids = [p["id"] for p in page]
        facts = store.facts_for(page_ids)
        kept = store.kept_for(page_ids)
        for paper in page:
            for column in _FACT_COLUMNS:  # iter_papers adds these from facts; facts has them all
                paper.pop(column, None)
            paper["lists"] = store.lists_of(paper["id"])
            paper["facts"] = facts.get(paper["id"], {})
            if lookup is not None:
                paper.update(lookup(paper["id"]))
            if paper["id"] in kept:
                state, note, tags = kept[paper["id"]]
                paper["kept"] = {"state": state, "note": note, "tags": tags}
            yield paper


def _pages(rows: Iterator[dict[str, Any]], size: int) -> Iterator[list[dict[str, Any]]]:
    page: list[dict[str, Any]] = []
    for row in rows:
        page.append(row)
        if len(page) >= size:
            yield page
            page = []
    if page:
        yield page


@contextmanager
def _opened(out) -> Iterator[TextIO]:
    if not isinstance(out, (str, os.PathLike)):
        yield out
        return
    try:
        with open(out, "w", encoding="utf-8", newline="") as fh:
            yield fh
    except OSError as exc:  # a full disk: no half-written export is left, and the error names it
        if exc.errno != errno.ENOENT:
            with suppress(OSError):
                os.unlink(out)
        raise OSError(exc.errno, exc.strerror, os.fspath(out)) from None


def _title_only(paper: dict[str, Any]) -> bool:
    """Known by its title (links, authors, ...) but not by an abstract."""
    return not (paper.get("abstract") or "").strip()


# -- JSON Lines: every stored field, id first ------------------------------------------------


def write_jsonl(papers: Iterable[dict[str, Any]], fh: TextIO) -> int:
    count = 0
    for paper in papers:
        record = {
            "id": paper["id"],
            **{k: v for k, v in paper.items() if k != "id"},
            "title_only": _title_only(paper),
        }
        fh.write(json_text(record, ensure_ascii=False) + "\n")
        count += 1
    return count


# -- CSV: one row a paper, lists joined by "; " -------------------------------------------------

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def spreadsheet_safe(value: Any) -> Any:
    """A text cell a spreadsheet would run as a formula (it starts with = + - @, a tab or a
    carriage return) gets a leading ' (OWASP CSV injection advice); numbers, "-3" too, stay numbers."""
    if isinstance(value, str) and value.startswith(_FORMULA_START) and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


def write_csv(papers: Iterable[dict[str, Any]], fh: TextIO) -> int:
    writer = csv.writer(fh)
    writer.writerow(_CSV_COLUMNS)
    count = 0
    for paper in papers:
        facts = paper.get("facts") or {}
        row = []
        grouping = {
            "topic_id": (paper.get("topic") or {}).get("id"),
            "topic": (paper.get("topic") or {}).get("label"),
            "fine_topic": (paper.get("topic") or {}).get("fine_label"),
            # 1 when shown in its topic's "other" part, empty where the map does not say
            "topic_other": (paper.get("topic") or {}).get("other"),
            "reference_topic_id": (paper.get("reference_topic") or {}).get("id"),
            "reference_topic": (paper.get("reference_topic") or {}).get("label"),
            "title_only": _title_only(paper),
            "identifiers": [f"{k}:{v}" for k, v in (paper.get("identifiers") or {}).items()],
        }
        for column in _CSV_COLUMNS:
            value = (
                grouping[column]
                if column in grouping
                else paper.get(column)
                if column in paper
                else facts.get(column)
            )
            if column == "predicted_area_top3":  # "A 62%; B 20%; C 8%"
                value = top3_text(facts.get("predicted_area"), sep="; ") or None
            if isinstance(value, dict):  # predicted_area {label, prob, top3, tie}: "A or B" on a tie
                value = area_label(value)
            if isinstance(value, (list, tuple)):
                value = "; ".join(str(v) for v in value)
            if isinstance(value, bool):
                value = int(value)
            value = finite(value)  # a rating of 1e999 is no number to write
            row.append("" if value is None else spreadsheet_safe(value))
        writer.writerow(row)
        count += 1
    return count


# -- BibTeX --------------------------------------------------------------------------------------

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
    for ch in text:
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

_BLOCK_START = re.compile(r"^(\d{1,9})([.)])|^([-+=>])")  # a line that would start a list/quote


def _md(text: str) -> str:
    """Paper text as Markdown that renders as that text: syntax characters and "<" are
    backslash-escaped (no tag or autolink can start), never HTML entities (no `&amp;`)."""
    from paperatlas.report.markdown import md_text

    return _BLOCK_START.sub(
        lambda m: f"{m.group(1)}\\{m.group(2)}" if m.group(1) else f"\\{m.group(3)}", md_text(text)
    )


def _code(text: str) -> str:
    """`text` as a Markdown code span that ends where it should: fenced by more backticks
    than any run inside it (an id holding a backtick cannot close the span early and start
    markup or HTML), on one line (a blank line would end the paragraph)."""
    text = " ".join(str(text).split())
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def write_markdown(papers: Iterable[dict[str, Any]], fh: TextIO) -> int:
    count = 0
    for paper in papers:
        facts = paper.get("facts") or {}
        title = shown_title(paper, facts) or paper["id"]
        fh.write(f"## {_md(title)}\n\n")
        meta = [_code(paper["id"])]
        for value in (paper.get("area"), paper.get("decision"), facts.get("kind")):
            if value:
                meta.append(_md(value))
        if not paper.get("area") and facts.get("predicted_area"):  # top 3 with probabilities
            meta.append(_md(f"predicted area: {top3_text(facts['predicted_area'], sep=', ')}"))
        url = safe_url(paper_url(paper))
        if url:
            meta.append(f"<{url}>")
        code = next(filter(None, map(safe_url, paper.get("code_urls") or [])), None)
        if code:
            meta.append(f"code: <{code}>")
        if paper.get("section"):
            meta.append(f"section: {_md(paper['section'])}")
        fh.write(" · ".join(meta) + "\n\n")
        topic, field = paper.get("topic"), paper.get("reference_topic")
        if topic or field:
            parts = []
            if topic:
                fine = topic.get("fine_label")
                shown = topic["label"] or ""
                if fine and fine != shown:
                    shown = f"{shown} › {fine}"
                parts.append(f"topic {topic['id']}: {_md(shown)}")
            if field and (not topic or field["label"] != topic["label"]):
                parts.append(
                    f"field topic ({_md(field['reference'] or '')}) {field['id']}: "
                    f"{_md(field['label'] or '')}"
                )
            fh.write(" · ".join(parts) + "\n\n")
        if facts.get("gist"):
            fh.write(f"*{_md(facts['gist'])}*\n\n")
        if (paper.get("abstract") or "").strip():
            fh.write(_md(paper["abstract"]) + "\n\n")
        else:
            fh.write("*(title only: no abstract in the list it came from)*\n\n")
        count += 1
    return count


def _write_ris(papers: Iterable[dict[str, Any]], fh: TextIO) -> int:
    from paperatlas.report.reference_formats import write_ris

    return write_ris(papers, fh, bibtex_type)


def _write_csl(papers: Iterable[dict[str, Any]], fh: TextIO) -> int:
    from paperatlas.report.reference_formats import write_csl_json

    return write_csl_json(papers, fh, bibtex_type)


_WRITERS: dict[str, Callable[[Iterable[dict[str, Any]], TextIO], int]] = {
    "jsonl": write_jsonl,
    "csv": write_csv,
    "bibtex": write_bibtex,
    "ris": _write_ris,
    "csl-json": _write_csl,
    "markdown": write_markdown,
    "markdown-folder": write_markdown,  # (export_papers sends it to report/markdown_folder.py)
}
