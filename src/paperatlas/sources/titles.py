"""What a title line is, and the title it holds once its dress is taken off: Markdown marks,
list symbols, a venue and year before it (`(ICCV 2019) Title`, `arXiv 2024.04, Title`), a submission
number after it (`Title (#1443)`), a citation key before it (`lee2017deep: Title`), a time slot before it (`11:30 -
12:00 Title`) and a closing full stop. Both readers of lists written
by people (`sources.entries`, `sources.fields`) use it."""

from __future__ import annotations

import re

from paperatlas.sources.mdlines import plain, strip_symbols

FILE_NAME = re.compile(
    r"^`?[\w.-]+\.(?:jsonl|json|csv|tsv|md|txt|py|ya?ml|toml|bib|ris|html?|sh|"
    r"ipynb|gz|zip|tar|cfg|ini|lock)`?$",
    re.IGNORECASE,
)
_VENUE_FIRST = re.compile(
    r"^[(\[（【][^()\[\]（）【】]{0,30}?(?:19|20)\d\d[^()\[\]（）【】]{0,10}[)\]）】]\s*(?=\S)"
)
# `arXiv 2024.04, Title`, `CVPR 2023, Title`: a venue and date written before the title
_VENUE_COMMA = re.compile(r"^[A-Za-z][\w-]{1,15}\s+(?:19|20)\d\d(?:\.\d{1,2})?,\s+(?=\S)")
_NUMBER_AFTER = re.compile(r"\s*[(\[]\s*#\s*\d{1,6}\s*[)\]]$")
# `11:30 - 12:00 Title`, `09:15 Title`: a programme's time slot before the title
_TIME_FIRST = re.compile(
    r"^(?:[01]?\d|2[0-3])[:.][0-5]\d(?:\s*(?:am|pm))?(?:\s*[-–—]\s*(?:[01]?\d|2[0-3])[:.][0-5]\d(?:\s*(?:am|pm))?)?\s+(?=\S)",
    re.IGNORECASE,
)
# `ramezani2017biomimetic: Title`: a reference manager's citation key before the title
_CITATION_KEY = re.compile(r"^[a-z][a-z_-]*(?:19|20)\d\d[a-z_-]*\d?:\s+(?=\S)")


def is_title_like(text: str) -> bool:
    text = text.strip()
    if not text or len(text) > 400 or text.startswith(("http://", "https://")):
        return False
    if FILE_NAME.match(text):
        return False  # a data README's "## truth.jsonl", "### config.yaml": a file, not a paper
    if not re.search(r"[^\W\d_]", text):
        return False
    return len(text.split()) <= 60


def clean_title(text: str) -> str:
    text = strip_symbols(plain(text)).replace("\u2028", " ")
    text = " ".join(text.split())
    text = _TIME_FIRST.sub("", _CITATION_KEY.sub("", text, count=1), count=1)
    text = _NUMBER_AFTER.sub("", _VENUE_COMMA.sub("", _VENUE_FIRST.sub("", text, count=1), count=1))
    if text.endswith(".") and not text.endswith(("..", "et al.", " al.")):
        text = text[:-1]
    return text
