"""Is a record a paper? Decided from the type its format gives it (BibTeX entry type, RIS
`TY`, CSL `type`, a program's item `type`) and, for generic types, from a paper signal.

- paper types (journal article, conference paper, report, thesis, chapter, preprint, ...)
  are papers;
- a web page (CSL `webpage`, BibLaTeX `online`, RIS `ELEC`) is a paper only with a paper's
  identifier (a DOI, arXiv or OpenReview id), a link to a publications page or an abstract
  of a paper's length;
- other generic types (`misc`, RIS `GEN`, `document`) are papers only with a paper signal: a DOI
  (not one of a data or software repository: `10.5281/zenodo...`),
  arXiv or OpenReview id, a link to a paper (arXiv, a publisher, a PDF, a publications
  page), a scholarly venue/publisher (`Proceedings of ...`, `... Press`, `IEEE`), or, where
  the format gives one, an abstract of a paper's length with no blog or news page about it
  (paperatlas' own BibTeX export writes a conference program's papers as such @misc);
- book, software (a code repository), data set, blog post, press (newspaper and magazine
  articles), legal (a court case, a bill, a statute, a hearing), talk and event types (a presentation, keynote, panel,
  tutorial, workshop, exhibitor talk, meeting) are never papers of a list.

`not_a_paper(kind, ...)` gives the skip reason, or None for a paper. A list written by people
gives no types, but a program puts its talks under headings saying so: `not_paper_section`
names a record under a heading that is the name of talks or events (`Tutorials`, `Workshops`,
`Keynotes`, `Panels`) as no paper.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from paperatlas.identifiers import find_identifiers, is_data_doi, link_kind

_NEVER = {
    # books and other non-article publications
    "book",
    "ebook",
    "edbook",
    "manual",
    "booklet",
    "proceedings",
    "periodical",
    "collection",
    "mvbook",
    "bookinbook",
    "reference",
    "encyclopedia",
    "dictionary",
    "standard",
    "patent",
    "pat",
    # software, data, media
    "software",
    "repository",  # Hayagriva's (a code repository)
    "comp",
    "computerprogram",
    "dataset",
    "data",
    "video",
    "audio",
    "sound",
    "music",
    "song",
    "image",
    "graphic",
    "map",
    "artwork",
    "art",
    "motionpicture",
    "mpct",
    "film",
    "movie",
    "podcast",
    "radiobroadcast",
    "tvbroadcast",
    "broadcast",
    "figure",
    # the web and the press
    "postweblog",
    "blog",
    "blogpost",
    "articlenewspaper",
    "news",
    "newspaperarticle",
    "newspaper",
    "thread",
    "mgzn",
    "magazinearticle",
    "articlemagazine",
    "forumpost",
    "email",
    # the law
    "case",
    "legalcase",
    "bill",
    "statute",
    "stat",
    "hear",
    "legislation",
    "hearing",
    "regulation",
    "treaty",
    "personalcommunication",
    "interview",
    "pcomm",
    # talks and program items that are not papers
    "presentation",
    "conferencepresentation",
    "speech",
    "keynote",
    "panel",
    "tutorial",
    "workshop",
    "exhibitor",
    "exhibitorforum",
    "networking",
    "meeting",
    "break",
    "lunch",
    "reception",
    "social",
    "ceremony",
    "award",
    "sponsor",
    "other",
    "plenary",
    "invitedtalk",
    "townhall",
    "opening",
    "closing",
}
_GENERIC = {
    "misc",
    "gen",
    "generic",
    "webpage",
    "online",
    "www",
    "electronic",
    "elec",
    "web",
    "post",
    "document",
}
_SCHOLARLY = re.compile(
    r"\b(proceedings|proc\.|conference|symposium|workshop|journal|transactions|letters|review|"
    r"press|arxiv|biorxiv|medrxiv|ieee|acm|aaai|pmlr|springer|elsevier|neurips|nips|icml|iclr|"
    r"cvpr|iccv|eccv|acl|emnlp|naacl|ijcai|kdd|sigir|www|university|institute)\b",
    re.IGNORECASE,
)
_WEB_ADDRESS = re.compile(r"\b(?:https?://|www\.)\S+", re.IGNORECASE)
_BLOG = re.compile(r"blog|medium\.com|substack\.com|/news/|newsroom|press release", re.IGNORECASE)
_ABSTRACT_LENGTH = 300  # characters: a paper's abstract, not a teaser line
_LIST_PAGE = r"pubs?|publications?|papers?"  # a page of a publications list: `/pubs/pub37631/`
# a page of a paper: one of a publications list, an abstract, an article or a DOI page
_PUBLICATION_PAGE = re.compile(rf"/(?:{_LIST_PAGE}|abs|articles?|doi)/", re.IGNORECASE)


def normalise_kind(kind: str | None) -> str:
    return re.sub(r"[^a-z]", "", (kind or "").lower())


def has_paper_signal(
    links: Iterable[str] = (), texts: Iterable[str | None] = (), venues: Iterable[str | None] = ()
) -> bool:
    links = [u for u in links if u]
    if has_identifier(links, texts):
        return True
    if any(link_kind(u) == "paper" or _PUBLICATION_PAGE.search(u) for u in links):
        return True
    # a venue's words, not a web address's ("www" names a conference, not www.who.int)
    return any(v and _SCHOLARLY.search(_WEB_ADDRESS.sub(" ", v)) for v in venues)


def has_paper_abstract(
    abstract: str | None, links: Iterable[str] = (), venues: Iterable[str | None] = ()
) -> bool:
    """An abstract of a paper's length, with no link or venue saying blog post or news."""
    if not abstract or len(" ".join(abstract.split())) < _ABSTRACT_LENGTH:
        return False
    return not any(_BLOG.search(x) for x in (*links, *venues) if x)


def not_a_paper(
    kind: str | None,
    links: Iterable[str] = (),
    texts: Iterable[str | None] = (),
    venues: Iterable[str | None] = (),
    label: str | None = None,
    abstract: str | None = None,
) -> str | None:
    """The skip reason for a record of this type, or None when it is a paper."""
    norm = normalise_kind(kind)
    shown = label or kind
    if norm in _NEVER:
        return f"not a paper ({shown})"
    links = list(links)
    venues = list(venues)
    if (
        norm in _WEB_PAGE
        and not has_identifier(links, texts)
        and not any(_PUBLICATIONS_LIST.search(u) for u in links if u)
        and not has_paper_abstract(abstract, links, venues)
    ):
        return f"not a paper ({shown} without a DOI, arXiv or OpenReview id or publications page)"
    if (
        norm in _GENERIC
        and not has_paper_signal(links, texts, venues)
        and not has_paper_abstract(abstract, links, venues)
    ):
        return f"not a paper ({shown} without a DOI, arXiv id, paper link or venue)"
    return None


# A web page saved to a reference manager: a news story, a blog post, an institute's report
# has an article's link, a PDF and a name like a journal's ("ABA Journal") as a paper has;
# only a paper's identifier, or a page of a publications list (`/pubs/pub37631/`), tells a
# paper saved as a web page.
_WEB_PAGE = {"webpage", "online", "www", "web", "electronic", "elec"}
_PUBLICATIONS_LIST = re.compile(rf"/(?:{_LIST_PAGE})/", re.IGNORECASE)  # not a news `/articles/`


def has_identifier(links: Iterable[str] = (), texts: Iterable[str | None] = ()) -> bool:
    """A DOI (not a data set's), arXiv or OpenReview id in the links or texts."""
    found = find_identifiers(*[u for u in links if u], *texts)
    if is_data_doi(found.get("doi")):
        del found["doi"]  # a data set's or a software release's DOI says nothing of a paper
    return bool(found)


# a heading that names talks or events, whole: "Workshops" (not "Workshop Papers")
_EVENT_HEADING = re.compile(
    r"(?:keynotes?|keynote talks?|invited talks?|tutorials?|workshops?|panels?|panel discussions?|"
    r"exhibitors?|exhibitor talks?|sponsors?)",
    re.IGNORECASE,
)


def not_paper_section(section: str | None) -> str | None:
    """The skip reason for a record of a list written by people under a heading naming talks
    or events (its innermost heading), or None."""
    if not section:
        return None
    heading = re.split(r"\s+[>/›»]\s+", section)[-1].strip(" :")
    return f"not a paper (under the heading {heading!r})" if _EVENT_HEADING.fullmatch(heading) else None


# a blog's or a newsroom's page: a post about a paper or a product, not the paper
_BLOG_PAGE = re.compile(
    r"^https?://(?!(?:www\.)?github\.com/)"  # (a repository named `blog` is code)
    r"(?:[^/]*\bblogs?\b[^/]*(?:/|$)|[^/]+/(?:[^?#]*/)?blogs?(?:/|$)|[^/]*(?:wordpress|medium|substack)\.com(?:/|$)"
    r"|[^/]+/(?:[^?#]*/)?(?:news|newsroom)/)",
    re.IGNORECASE,
)


def only_blog_links(urls: Iterable[str], identifiers: Mapping[str, str] | None = None) -> str | None:
    """The skip reason for a record of a list written by people whose every link is a blog
    post or a news page (and which names no paper's identifier), or None."""
    urls = [u for u in urls if u]
    if not urls or identifiers or not all(_BLOG_PAGE.match(u) for u in urls):
        return None
    return "not a paper (its only links are blog posts or news pages)"
