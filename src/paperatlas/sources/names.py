"""Person names in the records people write: a list of names told from a title, split into
names (`Ann Lee, Bo Chen and C. Wu`, `Palmblad, M., Lamprecht, A-L`), and the names a
reference opens with (`Kerr CC, Stuart RM (2021)`)."""

from __future__ import annotations

import re

from paperatlas.sources.entry import YEAR
from paperatlas.sources.mdlines import strip_symbols
from paperatlas.sources.text import looks_like_authors

ET_AL = re.compile(r",?\s*\bet\.?\s*al\.?|,?\s+and\s+others\b\.?", re.IGNORECASE)  # BibTeX's "and others" too
# APA's "Lee, A., Chen, B., … & Wu, C.": names left out between the first ones and the last
_ELLIPSIS = re.compile(r",?\s*(?:…|\.\.\.)\s*(?:&|and\b)?\s*(?=[A-Z])")
_SURNAME = re.compile(r"(?:[A-Z]\.\s?)*[A-Z][^\W\d_]+(?:[-'’][A-Z]?[^\W\d_]+)?")  # He, O'Neil, A. Lee

# `Niu Z, Wang H, Chen Y w, Lin L. Title`: Vancouver names (surname, then initials) first
_VANCOUVER_NAME = r"[A-Z][\w'’-]+(?: [A-Z][\w'’-]+)? [A-Z]{1,3}(?: [A-Z]{1,2})*(?: [a-z])?"
VANCOUVER_FIRST = re.compile(
    rf"^(?P<names>(?:{_VANCOUVER_NAME}[#*†]*,\s*)*{_VANCOUVER_NAME}[#*†]*(?:,?\s+et\s+al)?)\.\s+(?=[A-Z\d])"
)
# a sentence's end: not an initial's full stop ("A. Lee") nor "et al."
STOP = re.compile(r"(?<!\b[A-Z])(?<!\bal)\.\s+")
INITIAL = re.compile(r"\b[A-Z]\.")

# "Ann Lee (University of California, Riverside)": an affiliation, commas and all
_AFFILIATION = re.compile(r"\s*[(（][^()（）]*[)）]")


_AUTHOR_SPLIT = re.compile(r"\s*[,;，；、]\s*(?:and\s+)?|\s+and\s+|\s+&\s+|\s+和\s+")


_ET_AL_END = re.compile(r"\s*\bet\.?\s*al\.?$")


def _initials(text: str) -> bool:
    """ "J.", "K.H.", "A-L", "M": one to three capital letters and nothing but dots, hyphens."""
    letters = [c for c in text if c.isalpha()]
    rest = [c for c in text if not c.isalpha()]
    return 1 <= len(letters) <= 3 and all(c.isupper() for c in letters) and all(c in ". -" for c in rest)


def split_names(text: str) -> list[str]:
    """Names split at commas, semicolons, 'and', '&' and their CJK forms, surname-first pairs
    joined again, markers and `et al.` dropped."""
    names = []
    for name in _surname_first(_AUTHOR_SPLIT.split(text)):
        name = _ET_AL_END.sub("", strip_symbols(name))  # "Ann Lee et.al."
        name = re.sub(r"[\d*†‡§¶⭐✉#]+$", "", name).strip()
        name = re.sub(r"\s*\([^)]*\)$", "", name)  # "Ann Lee (MIT)"
        if name and re.search(r"[^\W\d_]", name) and name.lower() not in ("et al", "et al.", "others"):
            names.append(name)
    return names


def _surname_first(parts: list[str]) -> list[str]:
    """`Palmblad, M., Lamprecht, A-L and Ison, J.`: surnames and their initials split apart by
    the commas, joined again (`Palmblad, M.`) when every other part is initials alone."""
    parts = [_ET_AL_END.sub("", p).strip() for p in parts if p and p.strip()]
    parts = [p for p in parts if p]
    if len(parts) < 2 or len(parts) % 2:
        return parts
    surnames, initials = parts[0::2], parts[1::2]
    if not all(map(_initials, initials)) or any(map(_initials, surnames)):
        return parts
    return [f"{s}, {i}" for s, i in zip(surnames, initials, strict=True)]


def split_authors(text: str) -> list[str]:
    """Person names, with a reference's first author written surname first joined again:
    `Joshi, Pratik, Sebastin Santy, and Kalika Bali` (a surname alone, given names, then whole names)."""
    text = _AFFILIATION.sub("", text)
    parts = re.split(r"\s+and\s+", text)
    if len(parts) >= 2 and all(part.count(",") == 1 for part in parts):
        # BibTeX's name list: `Gao, Kaifeng and Shi, Jiaxin`, each name surname first
        return [name for part in parts if (name := " ".join(part.split()).strip(" ."))]
    names = split_names(text)
    if (
        len(names) >= 3
        and len(names[0].split()) == 1
        and names[0][:1].isupper()
        and all(len(n.split()) >= 2 for n in names[2:])
    ):
        return [f"{names[0]}, {names[1]}", *names[2:]]
    return names


_NAMES_DATE = re.compile(r":\s*(?:[A-Z][a-z]+\.?\s+)?(?:19|20)\d\d\b\W*$")


def names_in(text: str, surname_first: bool = False) -> list[str] | None:
    """The person names a reference opens with (`Kerr CC, Stuart RM (2021)`, `A. Lee, B. Chen,
    and C. Wu,`), up to its year or its title, or None. `surname_first`: before a quoted title,
    where MLA writes `He, Kaiming, et al.` (one name, surname first), not two surnames."""
    text = _ELLIPSIS.sub(
        ", ", _NAMES_DATE.sub("", text)
    )  # "(Lillicrap, Kording: July 2019)": names, then the date
    head = re.split(
        r"\s*[(\[](?:19|20)\d\d|[,.]\s*(?:19|20)\d\d\b|\s[-–—]\s|,?\s*\bet\.?\s*al\b\.?", text, maxsplit=1
    )[0]
    head = ET_AL.sub("", head).strip(" ,;:([")  # "(Kipf and Welling, 2017)"
    head = re.sub(r"(?<!\b[A-Z])\.+$", "", head)  # a full stop, not an initial's ("Lee, A.")
    if ET_AL.search(text) and _SURNAME.fullmatch(head):
        return [head]  # "Vaswani et al., NeurIPS 2017": the first author's surname
    if (
        surname_first
        and ET_AL.search(text)
        and re.fullmatch(rf"{_SURNAME.pattern},\s*[A-Z][^\W\d_]+(?:[- ][A-Z][^\W\d_]*\.?)*", head)
    ):
        return [head]  # "He, Kaiming, et al.": the first author, surname first
    head = re.sub(r"^[^\s:]+(?:\s[^\s:]+)?:\s+", "", head)  # "NEureka: A. Lee, ...": a name first
    head = re.sub(r",\s+(?:and|&)\s+", ", ", head)  # the serial comma
    if head and not YEAR.search(head) and looks_like_authors(head):
        return split_authors(head)
    # "D. Blei. Communications of the ACM 2012.": the names end at the first full stop
    first = STOP.split(head, maxsplit=1)[0].strip(" ,.")
    if first != head and INITIAL.search(first) and not YEAR.search(first) and looks_like_authors(first):
        return split_authors(first)
    return None


# `HunyuanWorld Team`, `University of Michigan Research Team`, `The ATLAS Collaboration`: a group
# that signs a paper as its author
_GROUP = re.compile(
    r"(?:The\s+)?(?:[A-Z][\w&'’.-]*\s+(?:(?:of|for|and|the)\s+)?){1,6}(?:Team|Collaboration|Consortium)"
)


def group_author(text: str) -> bool:
    return bool(_GROUP.fullmatch(" ".join(text.split()).strip(" .,;")))


def authorish(text: str) -> bool:
    """A list of person names, or a group that signs as one (`Chameleon Team`); `·` and `|`
    separate names too. One "name" of four or more capitalised words is a title in Title Case
    more often than a person."""
    if group_author(text):
        return True
    text = without_affiliation(text)
    text = _SERIAL_AND.sub(", ", SEPARATORS.sub(", ", text))  # "Ann Lee, Bo Chen, and C. Wu"
    bare = re.sub(r"\s*[(（][^()（）]*[)）]", "", text)  # "Ann Lee (ICMC - USP - Brazil)": one name
    # ... unless an affiliation follows it: "Paulo Augusto de Lima Medeiros (UFRN - Brazil)"
    if not re.search(r",|;|\band\b|&", text) and len(bare.split()) > 3 and not _affiliated_name(text, bare):
        return False
    return looks_like_authors(text)


SEPARATORS = re.compile(r"\s+[·•|]\s+")
# `Ann Lee and Bo Chen | Seoul National University`: the names' affiliation after a bar
_AFFILIATION_AFTER = re.compile(
    r"\s+[|｜]\s+(?=[^|｜]*\b(?:Universit|Institut|College|School|Laborator|Lab\b|Cent(?:er|re)|Academ|"
    r"Research|Hospital|Foundation|Technolog|Tecnolog))[^|｜]*$"
)
_SERIAL_AND = re.compile(r",\s+(?:and|&)\s+")
_PARTICLES = frozenset("de da do dos das di del della van von der den la le du".split())


def without_affiliation(text: str) -> str:
    return _AFFILIATION_AFTER.sub("", text)


def _affiliated_name(text: str, bare: str) -> bool:
    """One long name with a particle (`de`, `van`), its affiliation in brackets at the end; a
    title in Title Case has no particle."""
    words = bare.split()
    return (
        bool(re.search(r"[)）][\s;,.]*$", text))
        and len(words) <= 7
        and any(word in _PARTICLES for word in words)
        and all(word[:1].isupper() or word in _PARTICLES for word in words)
    )


def names_field(value: str) -> list[str]:
    """An authors field: `Ann Lee, Bo Chen`; BibTeX's `Hwu, Wen-Mei W and Mahlke, Scott A and
    others` and `Fisher, Joseph A` (one name, surname first) kept whole."""
    if re.search(r"\w,\s*\w[^,]*\sand\s", value):
        names = [n.strip() for n in re.split(r"\s+and\s+", value) if n.strip()]
        return [n for n in names if n.lower() != "others"]
    if value.count(",") == 1 and " and " not in value and len(value.split(",")[0].split()) == 1:
        return [value.strip()]
    return split_authors(value)
