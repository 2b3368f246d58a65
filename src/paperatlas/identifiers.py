"""Paper identifiers in URLs and text (arXiv ids, DOIs, OpenReview ids) and what a link is.

- `arxiv_id("https://arxiv.org/pdf/2501.01234v2")` -> `"2501.01234"` (new style, version
  stripped); old style `cs/0601001`, `math.GT/0309136` too.
- `doi("https://doi.org/10.1145/ABC.123")` -> `"10.1145/abc.123"` (lower-cased: DOIs are
  case-insensitive).
- `openreview_id("https://openreview.net/forum?id=AbC-12_x")` -> `"AbC-12_x"`.
- `find_identifiers(*texts)` -> `{"arxiv": ..., "doi": ..., "openreview": ...}` (first found).
- `link_kind(url)` -> `paper | code | project | data | other`; `split_links(urls)` ->
  `(paper_links, code_links)`.
- `reading_links(identifiers, urls)` -> `[("pdf", url), ("openreview", url), ("arxiv", url),
  ("doi", url)]`: where to read a paper, made from its ids (a PDF link of its own first).

Used by the readers to fill `Paper.identifiers`, and by ingest to deduplicate.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from urllib.parse import quote, unquote

# new style: 0704.0001 .. 2501.01234 (4 or 5 digits after the dot); old: archive[.SUB]/YYMMNNN
_NEW = r"(?:0[7-9]|1\d|2\d)(?:0[1-9]|1[0-2])\.\d{4,5}"
_OLD = r"[a-z][a-z-]*(?:\.[A-Z]{2})?/\d{7}"
ARXIV_BARE = re.compile(rf"^(?:arxiv:\s*)?({_NEW}|{_OLD})(?:v\d+)?$", re.IGNORECASE)
_ARXIV_URL = re.compile(rf"arxiv\.org/(?:abs|pdf|html|format)/({_NEW}|{_OLD})(?:v\d+)?", re.IGNORECASE)
_ARXIV_TEXT = re.compile(rf"\barxiv\s*[:：]?\s*({_NEW}|{_OLD})(?:v\d+)?(?!\d)", re.IGNORECASE)
_ARXIV_ALPHAXIV = re.compile(
    rf"(?:alphaxiv\.org|huggingface\.co/papers|arxiv-sanity[\w.-]*"
    rf"|paperswithcode\.com/paper)/(?:abs/|overview/)?({_NEW})(?:v\d+)?",
    re.IGNORECASE,
)
_DOI = re.compile(r"\b(10\.\d{4,9}/[^\s\"'<>{}\]\[|]+)", re.IGNORECASE)
_URL_PARTS = re.compile(r"^(?:[a-z][a-z0-9+.-]*:)?//([^/?#]*)([^?#]*)")

_CODE_HOSTS = (
    "github.com",
    "gitlab.com",
    "bitbucket.org",
    "codeberg.org",
    "sourceforge.net",
    "gitee.com",
    "colab.research.google.com",
    "pypi.org",
)
_DATA_HOSTS = (
    "kaggle.com",
    "zenodo.org",
    "figshare.com",
    "drive.google.com",
    "huggingface.co/datasets",
    "dataverse",
)
# DOI prefixes of data and software repositories (Zenodo, figshare, Dryad, PANGAEA, the UK
# Data Service, Harvard Dataverse, ICPSR, Mendeley Data, GBIF): what they register is a data
# set or a software release far more often than a paper.
_DATA_DOI = re.compile(r"^10\.(?:5281|6084|5061|1594|5255|5257|7910|3886|17632|15468)/")


def is_data_doi(value: str | None) -> bool:
    """Is this DOI (`10.5281/zenodo.5993329`) one a data or software repository registered?"""
    return bool(value and _DATA_DOI.match(value))


_PAPER_HOSTS = (
    "arxiv.org",
    "openreview.net",
    "doi.org",
    "aclanthology.org",
    "aclweb.org",
    "proceedings.mlr.press",
    "papers.nips.cc",
    "proceedings.neurips.cc",
    "openaccess.thecvf.com",
    "ieeexplore.ieee.org",
    "dl.acm.org",
    "link.springer.com",
    "sciencedirect.com",
    "nature.com",
    "science.org",
    "biorxiv.org",
    "medrxiv.org",
    "pubmed.ncbi.nlm.nih.gov",
    "ncbi.nlm.nih.gov/pmc",
    "semanticscholar.org",
    "jmlr.org",
    "ojs.aaai.org",
    "ijcai.org",
    "aaai.org",
    "academic.oup.com",
    "wiley.com",
    "tandfonline.com",
    "mdpi.com",
    "frontiersin.org",
    "plos",
    "researchgate.net",
    "ssrn.com",
    "hal.science",
    "openalex.org",
    "europepmc.org",
    "alphaxiv.org",
    "huggingface.co/papers",
    "paperswithcode.com/paper",
    "usenix.org",
    "computer.org",
    "jstor.org",
    "cell.com",
    "pnas.org",
    "iopscience",
    "elifesciences",
)


def strip_version(arxiv: str) -> str:
    return re.sub(r"v\d+$", "", arxiv.strip())


def arxiv_id(text: str | None) -> str | None:
    """The arXiv id in a URL, an `arXiv:` mention or a bare id, without its version."""
    if not text:
        return None
    text = str(text).strip()
    if match := ARXIV_BARE.match(text):
        return strip_version(match.group(1))
    lowered = text.lower()
    if "xiv" not in lowered and "huggingface.co/papers" not in lowered and "paperswithcode" not in lowered:
        return None
    for pattern in (_ARXIV_URL, _ARXIV_TEXT, _ARXIV_ALPHAXIV):
        if match := pattern.search(text):
            return strip_version(match.group(1))
    if "arxiv" in text.lower() and (match := re.search(rf"\b({_NEW})(?:v\d+)?\b", text)):
        return match.group(1)
    return None


def doi(text: str | None) -> str | None:
    """The DOI in a URL (`doi.org/...`, `dx.doi.org`, a publisher path) or text, lower-cased."""
    if not text or "10." not in text:
        return None
    text = unquote(str(text))
    match = _DOI.search(text)
    if not match:
        return None
    value = re.split(r"[?#&]", match.group(1))[0].rstrip(".,;:)")  # a URL's query is not the DOI
    if value.count("(") < value.count(")"):  # "(doi: 10.1/x)" -> drop the closing paren
        value = value.rstrip(")")
    for suffix in ("/abstract", "/full", "/pdf", "/epdf", ".pdf", "/meta"):
        if value.lower().endswith(suffix) and "doi.org" not in text.lower():
            value = value[: -len(suffix)]
    return value.lower()


_OPENREVIEW_URL = re.compile(
    r"openreview\.net/(?:forum|pdf|attachment|notes?)/?\?(?:[^#]*?&)?"
    r"(?:id|noteId)=([A-Za-z0-9_-]{6,20})(?:[&#]|$)"
)


def openreview_id(text: str | None) -> str | None:
    """The forum/note id in an OpenReview URL (`forum?id=`, `pdf?id=`)."""
    if not text or "openreview.net" not in text:
        return None
    match = _OPENREVIEW_URL.search(str(text).strip())
    return match.group(1) if match else None


def find_identifiers(*texts: str | None) -> dict[str, str]:
    """{"arxiv", "doi", "openreview"}: the first of each found in the texts (URLs or prose)."""
    found: dict[str, str] = {}
    for text in texts:
        if not text:
            continue
        if "arxiv" not in found and (value := arxiv_id(text)):
            found["arxiv"] = value
        if "doi" not in found and "10." in text and (value := doi(text)):
            found["doi"] = value
        if "openreview" not in found and "openreview" in text and (value := openreview_id(text)):
            found["openreview"] = value
    if "arxiv" not in found and (d := found.get("doi", "")).startswith("10.48550/arxiv."):
        found["arxiv"] = strip_version(d[len("10.48550/arxiv.") :])
    return found


def link_kind(url: str) -> str:
    """What a link points at: paper | code | project | data | other."""
    match = _URL_PARTS.match(url.lower())
    if not match:
        return "other"
    host, path = match.group(1).removeprefix("www."), match.group(2)
    kind = _host_kind(host)
    if kind is not None:
        return kind
    where = host + path
    if any(h in where for h in _DATA_HOSTS) or is_data_doi(doi(url)):
        return "data"
    if "huggingface.co" in host:
        return "paper" if path.startswith("/papers/") else "code"  # models, spaces
    if any(h in where for h in _PAPER_HOSTS) or path.endswith(".pdf") or doi(url):
        return "paper"
    if host.endswith(".github.io") or "/project" in path or host.startswith("sites.google"):
        return "project"
    return "other"


@lru_cache(maxsize=4096)
def _host_kind(host: str) -> str | None:
    """The kind every link on this host has, or None when the path decides."""
    if any(host == h or host.endswith("." + h) for h in _CODE_HOSTS) or host.startswith(("git.", "gitlab.")):
        return "code"
    if any("/" in h and h.split("/", 1)[0] == host for h in _DATA_HOSTS + _PAPER_HOSTS):
        return None  # huggingface.co/datasets, ncbi.nlm.nih.gov/pmc: the path decides
    if host == "huggingface.co":
        return None
    if any(host == h or host.endswith("." + h) for h in _DATA_HOSTS):
        return "data"
    if any(host == h or host.endswith("." + h) for h in _PAPER_HOSTS if "/" not in h):
        return "paper"
    return None


def split_links(urls: Iterable[str]) -> tuple[list[str], list[str]]:
    """(paper and other links, code/project/data links), order kept, duplicates dropped."""
    papers: list[str] = []
    code: list[str] = []
    seen: set[str] = set()
    for url in urls:
        url = url.strip()
        if not url or url.lower() in seen:
            continue
        seen.add(url.lower())
        (code if link_kind(url) in ("code", "project", "data") else papers).append(url)
    return papers, code


def reading_links(identifiers: dict[str, str], urls: Iterable[str] = ()) -> list[tuple[str, str]]:
    """Where to read a paper, as (kind, https URL): its PDF (a PDF link of its own, else
    OpenReview's or arXiv's), its OpenReview forum, its arXiv page and its DOI resolver.
    Only ids that parse as ids become links, so no link can carry a script or a quote."""
    links: list[tuple[str, str]] = []
    given = identifiers.get("openreview")
    forum = openreview_id(f"openreview.net/forum?id={given}") if given else None
    arxiv = arxiv_id(identifiers["arxiv"]) if identifiers.get("arxiv") else None
    found_doi = doi(identifiers["doi"]) if identifiers.get("doi") else None
    own_pdf = next(
        (u for u in urls if u.lower().startswith("https://") and link_kind(u) == "paper" and _is_pdf(u)), None
    )
    if own_pdf:
        links.append(("pdf", own_pdf))
    elif forum:
        links.append(("pdf", f"https://openreview.net/pdf?id={forum}"))
    elif arxiv:
        links.append(("pdf", f"https://arxiv.org/pdf/{arxiv}"))
    if forum:
        links.append(("openreview", f"https://openreview.net/forum?id={forum}"))
    if arxiv:
        links.append(("arxiv", f"https://arxiv.org/abs/{arxiv}"))
    if found_doi:
        links.append(("doi", "https://doi.org/" + quote(found_doi, safe="/;:()._-")))
    return links


def _is_pdf(url: str) -> bool:
    """A link to a PDF: `….pdf`, or a server's PDF route (`openreview.net/pdf?id=`, `arxiv.org/pdf/…`)."""
    match = _URL_PARTS.match(url.lower())
    path = match.group(2) if match else ""
    return path.endswith(".pdf") or path == "/pdf" or path.startswith("/pdf/")
