"""Code, data, project and paper links written in an abstract, with or without scheme."""

from __future__ import annotations

import re

# A URL with a scheme, or a bare host from the hosts authors link to, with its path.
_HOSTS = (
    r"(?:www\.)?(?:github\.com|gitlab\.com|bitbucket\.org|huggingface\.co|hf\.co|"
    r"zenodo\.org|figshare\.com|osf\.io|kaggle\.com|dataverse\.\w+(?:\.\w+)?|"
    r"anonymous\.4open\.science|codeocean\.com|drive\.google\.com|sites\.google\.com|"
    r"colab\.research\.google\.com|arxiv\.org|doi\.org|openreview\.net|paperswithcode\.com|"
    r"[\w-]+\.github\.io(?![\w-])|[\w-]+\.gitlab\.io(?![\w-])|pypi\.org|modelscope\.cn|docs\.google\.com|"
    r"[\w.-]+\.(?:com|org|net|io|ai|dev|edu|app|page|site|xyz)(?=/))"
)
_URL = re.compile(
    rf"(?:https?://|ftp://)[^\s<>\"'{{}}\\\[\]]+|(?<![\w@/.-]){_HOSTS}(?:/[^\s<>\"'{{}}\\\[\]]*)?", re.I
)
# Hosts whose bare name is already a page (a project site), path or not.
_PAGE_HOSTS = re.compile(r"^[\w-]+\.(?:github|gitlab)\.io$|^[\w.-]+\.(?:github|gitlab)\.io$", re.I)
_MAYBE_URL = re.compile(
    r"://|www\.|\.(?:com|org|net|io|ai|dev|edu|app|page|site|xyz|co|cn|"
    r"science)\b",
    re.I,
)
_TRAIL = ".,;:!?*_'\"`~"


def _trim(url: str) -> str:
    """Trailing punctuation and unbalanced closing brackets are the sentence's, not the URL's."""
    while url:
        last = url[-1]
        if last in _TRAIL or (
            last in ")]}>" and url.count({")": "(", "]": "[", "}": "{", ">": "<"}[last]) < url.count(last)
        ):
            url = url[:-1]
        else:
            break
    return url


def classify_url(url: str) -> str:
    u = url.lower()
    u = re.sub(r"^(?:https?|ftp)://", "", u)
    u = u.removeprefix("www.")
    if (
        re.match(r"(?:huggingface\.co|hf\.co)/datasets/", u)
        or re.match(
            r"(?:zenodo\.org|figshare\.com|osf\.io|kaggle\.com|dataverse\.|drive\.google\.com|"
            r"docs\.google\.com)",
            u,
        )
        or "/dataset" in u
    ):
        return "data"
    if re.match(
        r"(?:github\.com|gitlab\.com|bitbucket\.org|anonymous\.4open\.science|"
        r"codeocean\.com|colab\.research\.google\.com|pypi\.org|huggingface\.co|hf\.co|"
        r"modelscope\.cn)",
        u,
    ):
        return "code"
    if re.match(r"(?:arxiv\.org|doi\.org|openreview\.net|aclanthology\.org|proceedings\.)", u) or u.endswith(
        ".pdf"
    ):
        return "paper"
    return "project"


def extract_links(text: str) -> list[dict]:
    """[{url, type}] in order of appearance, deduplicated; `text` may still hold markup."""
    if not _MAYBE_URL.search(text or ""):
        return []  # most abstracts have no link: skip the costly scan
    text = re.sub(r"\\(?:url|href)\s*\{([^{}]*)\}", r" \1 ", text or "")
    text = text.replace("\\_", "_").replace("\\%", "%").replace("\\#", "#").replace("\\~", "~")
    out, seen = [], set()
    for m in _URL.finditer(text):
        url = _trim(m.group(0))
        host_path = re.sub(r"^(?:https?|ftp)://", "", url, flags=re.I)
        if (
            "/" not in host_path.strip("/")
            and not m.group(0).lower().startswith(("http", "ftp"))
            and not _PAGE_HOSTS.match(host_path.strip("/"))
        ):
            continue  # a bare domain without a path is a mention, not a link
        key = host_path.lower().removeprefix("www.").rstrip("/")
        if len(key) < 6 or key in seen:
            continue
        seen.add(key)
        out.append({"url": url, "type": classify_url(url)})
    return out
