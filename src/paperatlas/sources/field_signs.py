"""What one paper's fields look like, seen without the truth: a first author that is a
person's name, a title still in its dress (`[Lee 18] Title`, `Title (CVPR 2024)`), holding
markup, cut before its end, or that is a heading, navigation or a venue line; a link that is
no web address. The self-check (`sources.selfcheck`) counts them over a reading: a list
read whole has few of them, and a reading that got the right count with a wrong field in
some papers shows them.
"""

from __future__ import annotations

import re

from paperatlas.sources.text import looks_like_authors

# a bracketed label before the title, or a venue/year in brackets after it
_DRESS = re.compile(
    r"^\s*[\[(【][^\])】]{1,40}[\])】]\s*[:.\-–]?\s*\S|[\[(【][^\])】]*\b(?:19|20)\d\d\b[^\])】]*[\])】]\s*$"
)
# markup that puts words of its own in a title: TeX commands, HTML tags and entities, a
# Markdown link's target (braces and emphasis add none)
_MARKUP = re.compile(r"\\[a-zA-Z]{2,}|</?[a-zA-Z][^>]*>|&[a-z]+;|&#\d+;|\]\(|\[\[")
# a title never ends on these: its last line went to another field
_DANGLING = frozenset(
    "a an the of in on for with and or to via from by at into as is are under over towards toward".split()
)
# the words of headings, navigation and section labels, and venue abbreviations, lower-cased
_HEADING_WORDS = frozenset(
    """
    table contents content papers paper publications publication references reference bibliography
    accepted list lists overview introduction intro news home about contact back top citation cite
    license contributing acknowledgements acknowledgments acknowledgement related work works survey
    surveys benchmark benchmarks dataset datasets tools tool resources resource workshop workshops
    tutorial tutorials talks talk slides code codes projects project other others misc miscellaneous
    more links link section sections chapter appendix index main track tracks session sessions oral
    orals poster posters spotlight spotlights highlights long short full demo demos findings
    proceedings conference conferences journal journals preprint preprints arxiv year years topic
    topics category categories part updates update recent latest new star history contributors
    awesome reading notes note method methods application applications theory analysis
    and of the in on for to a an &
    """.split()
)
_YEAR = re.compile(r"^(?:(?:19|20)\d\d(?:[-–/]\d{2,4})?|'\d\d)$")
_VENUE = re.compile(r"^(?:[A-Z]{2,8}|NeurIPS|arXiv)(?:'?\d\d(?:\d\d)?)?$")  # CVPR, ICLR'24, NeurIPS2023
_NOT_A_NAME = re.compile(r"\d|https?:|www\.|[{}\[\]<>|@/\\]")
_CJK_NAME = re.compile(r"^[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af·・]{2,8}$")
_SURNAME = re.compile(r"[A-Z][^\W\d_]+(?:[-'’][A-Z]?[^\W\d_]+)?")  # `Vaswani`, `O'Neil` (… et al.)
# what a link holds: a path or an address (`/`, `:`), or an arXiv id
_LINK_LIKE = re.compile(r"[/:]|^\d{4}\.\d{4,5}(?:v\d+)?$")
WORD = re.compile(r"[^\W\d_]{2,}")


def dressed(title: str) -> bool:
    """`[Kondylakis 18] Coconut: …`, `(ICCV 2019) Title`, `Title [NeurIPS'23]`."""
    return bool(_DRESS.search(title))


def marked_up(title: str) -> bool:
    """`Klippel\\textendash Trenaunay`, `{B}ayesian`, `**Title**`, `<b>Title</b>`."""
    return bool(_MARKUP.search(title))


def cut(title: str) -> bool:
    """A title ending on `of`, `in`, `for`, a hyphen or a comma: its end was read elsewhere."""
    words = title.rstrip().split()
    return len(words) >= 2 and (words[-1].lower() in _DANGLING or title.rstrip().endswith(("-", ",", "–")))


def heading(title: str) -> bool:
    """A heading, navigation or venue line: `Table of Contents`, `Accepted Papers`, `CVPR 2024`,
    `Surveys:` — a few words, each a section word, a venue or a year."""
    stripped = title.strip().strip("#*_:：-–— ")
    words = stripped.split()
    if not words or len(words) > 5:
        return False
    if title.rstrip().endswith((":", "：")):
        return True
    words = [w.strip(".,;:()'\"") for w in words]
    named = [w.lower() in _HEADING_WORDS or bool(_YEAR.match(w)) for w in words]
    # a venue alone is a paper's name as often as a heading ("ADAPT"): a section word or a year with it
    return any(named) and all(n or bool(_VENUE.match(w)) for w, n in zip(words, named, strict=True))


def person(name: str) -> bool:
    """A first author that is a person's name (`Kaiming He`, `He, Kaiming`, `F. Elsheimy`,
    `张伟`), not a venue, a link, a phrase or a title's end."""
    name = name.strip()
    if not name or len(name) > 80 or _NOT_A_NAME.search(name):
        return False
    return bool(_CJK_NAME.match(name) or _SURNAME.fullmatch(name)) or looks_like_authors(name)


def link_like(url: str) -> bool:
    """An address, a path or an arXiv id; not a word or a bare file name read as a link
    (`Unmasking`, `Lee2021_notes.pdf`: a reference manager's file field)."""
    return bool(_LINK_LIKE.search(url.strip()))
