"""Line recognisers for lists written by people (Markdown, plain text, Chinese posts).

Each recogniser is a small function over one line (or a run of lines, for the noise
blocks); `sources.entries` assembles what they recognise into entries. The recognisers:

- noise blocks: code fences, HTML comments, `<details>` (kept only when its summary names
  an abstract), YAML front matter;
- noise in a line: images and badges, HTML tags (`<br>` splits table cells), entities;
- `heading`: `#`..`######` (a heading whose text is a field label, `#### Abstract`, is a
  field instead);
- `rule`: `---`, `***`, `___`;
- `table`: a `| a | b |` row, or the `|---|:--:|` separator under a header;
- `field`: a labelled value in English or Chinese in its real dress (`**Authors**:`,
  `- **作者**：`, `<font ...>摘要：</font>`, `Abstract:`, a label alone on its line);
- `item`: a bulleted or numbered list item (`-`, `*`, `+`, `1.`, `1)`, `[1]`);
- `quote`: `> text`;
- `text`: anything else; `blank`.

Links are read out of a line with `links(text)` -> [(label, url)], and `plain(text)` gives
the text without Markdown markup.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

# -- labels ------------------------------------------------------------------------------

_LABELS: dict[str, tuple[str, ...]] = {
    "title": ("title", "paper title", "标题", "题目", "论文标题", "论文题目", "论文名称"),
    "authors": ("authors", "author", "author list", "作者", "作者列表", "作者们", "authors list"),
    "affiliation": (
        "affiliation",
        "affiliations",
        "institution",
        "institutions",
        "organization",
        "单位",
        "机构",
        "主要机构",
        "作者单位",
        "所属机构",
        "研究机构",
    ),
    "abstract": (
        "abstract",
        "摘要",
        "中文摘要",
        "英文摘要",
        "论文摘要",
        "原文摘要",
        "abstract zh",
        "abstract en",
    ),
    "summary": ("summary", "简介", "概要", "paper summary", "内容简介"),
    "tldr": (
        "tl;dr",
        "tldr",
        "tl dr",
        "one sentence summary",
        "一句话总结",
        "一句话摘要",
        "核心贡献",
        "ai summary",
        "ai 总结",
        "ai总结",
        "论文总结",
        "中文总结",
        "总结",
    ),
    "url": (
        "url",
        "link",
        "links",
        "paper link",
        "paper url",
        "pdf",
        "arxiv",
        "arxiv link",
        "openreview",
        "doi",
        "abs",
        "论文链接",
        "链接",
        "原文链接",
        "论文地址",
        "地址",
        "原文",
        "paper page",
        "page",
    ),
    "code": (
        "code",
        "github",
        "repo",
        "repository",
        "project",
        "project page",
        "homepage",
        "website",
        "demo",
        "代码",
        "开源",
        "项目主页",
        "代码链接",
        "代码地址",
        "开源代码",
        "项目",
    ),
    "date": (
        "date",
        "published",
        "publish date",
        "publication date",
        "submitted",
        "发表日期",
        "发布日期",
        "日期",
        "发表时间",
        "发布时间",
        "提交日期",
        "时间",
        "updated",
    ),
    "venue": (
        "venue",
        "conference",
        "journal",
        "published in",
        "会议",
        "期刊",
        "发表于",
        "来源",
        "会议期刊",
        "收录",
    ),
    "year": ("year", "年份"),
    "keywords": ("keywords", "keyword", "tags", "关键词", "匹配关键词", "标签", "topics"),
    "category": ("category", "categories", "subjects", "分类", "类别", "领域", "primary area", "area"),
    "arxiv_id": ("arxiv id", "arxiv 编号", "arxiv号", "arxiv编号", "id"),
}
LABELS: dict[str, str] = {label: name for name, labels in _LABELS.items() for label in labels}
# `Label: value` without bold/HTML dress is a field only for these (prose says "Note: ...").
_PLAIN_OK = {
    "title",
    "authors",
    "abstract",
    "summary",
    "tldr",
    "url",
    "code",
    "keywords",
    "venue",
    "date",
    "affiliation",
    "category",
    "arxiv_id",
}

# -- patterns ----------------------------------------------------------------------------

_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s*(.*?)\s*#*\s*$")
_RULE = re.compile(r"^\s{0,3}([-*_])(?:\s*\1){2,}\s*$")
_TABLE_SEP = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
_ITEM = re.compile(
    r"^(\s*)(?:([-*+•])\s+|(\d{1,4})[.)]\s+|(\d{1,4})[、．]\s*|\[(\d{1,4})\]\s+|"
    r"[(（](\d{1,4})[)）]\s*)(\S.*)$"
)
_CN_DIGITS = {c: i for i, c in enumerate("零一二三四五六七八九")}
_QUOTE = re.compile(r"^\s{0,3}>\s?(.*)$")
_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")
_BADGE_LINK = re.compile(r"\[\s*(?:<img[^>]*>|!\[[^\]]*\]\([^)]*\))\s*\]\([^)]*\)")
_IMG_TAG = re.compile(r"<img\b[^>]*>", re.IGNORECASE)
_BR = re.compile(r"<br\s*/?>", re.IGNORECASE)
_TAG = re.compile(r"</?[A-Za-z][\w:-]*(?:\s+[^<>]*?)?\s*/?>|<[A-Za-z][\w:-]*\s[^<>]*$")
# no scan runs past the next `<` (in the tag) or the next `<a`/`</a` (in its text): with `[^>]*`
# and `.*?`, a line of many `<a` and no `>` was scanned to its end from each (quadratic)
_HTML_LINK = re.compile(
    r"<a\b[^<>]*?\bhref\s*=\s*[\"']([^\"'<>]+)[\"'][^<>]*>((?:[^<]|<(?!/?a\b))*?)</a>",
    re.IGNORECASE | re.DOTALL,
)
_MD_LINK = re.compile(
    r"\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\(\s*<?([^()\s>]+(?:\([^()\s]*\))?[^()\s>]*)>?"
    r"(?:\s+\"[^\"]*\")?\s*\)"
)
_BARE_URL = re.compile(r"(?<![(\[<\"'=])\bhttps?://[^\s<>\"'`）)\]，。]+")
_EMPHASIS = re.compile(r"(\*\*|__|(?<!\w)\*(?=\S)|(?<=\S)\*(?!\w)|(?<!\w)_(?=\S)|(?<=\S)_(?!\w)|`)")
_LEADING_SYMBOLS = re.compile(r"^[\s\W_]*?(?=[\w\[(\"'“‘「《$*])", re.UNICODE)
# A label starts at a letter, not a space, and one run of spaces is matched one way only: each
# space a label could start or end with made a run of 4,000 spaces 7 s of backtracking.
_FIELD = re.compile(
    r"^(?P<open>\*\*|__|\*|<b>|<strong>)?\s*(?P<label>[^:：*_<>\[\]()|`\s][^:：*_<>\[\]()|`]{0,39}?)\s*"
    r"(?:(?P<close1>\*\*|__|\*|</b>|</strong>)\s*[:：]|[:：]\s*(?P<close2>\*\*|__|\*|</b>|</strong>)?)"
    r"\s*(?P<value>.*)$"
)
_LABEL_ALONE = re.compile(
    r"^(?:\*\*|__|<b>|<strong>)\s*(?P<label>[^:：*_<>\s][^:：*_<>]{0,39}?)\s*(?:[:：]\s*)?"
    r"(?:\*\*|__|</b>|</strong>)\s*(?:[:：]\s*)?$"
)
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")
_EMOJI = re.compile(
    "[\u2190-\u2bff\u2300-\u23ff\u2600-\u27bf\U0001f000-\U0001faff\ufe0f\u200d\u2b50\u2705\u274c]"
)


@dataclass
class Line:
    """One recognised line: `kind` is heading | rule | table | tablesep | field | item |
    quote | text | blank."""

    lineno: int
    kind: str
    text: str = ""  # the content (heading text, item text, field value, ...)
    level: int = 0  # heading level; item indent
    number: int | None = None  # numbered item / heading number
    label: str | None = None  # field name (LABELS value)
    raw_label: str | None = None
    cells: list[str] = field(default_factory=list)
    raw: str = ""


def chinese_number(text: str) -> int | None:
    """一 .. 九十九 -> 1 .. 99."""
    if "十" in text:
        tens, _, ones = text.partition("十")
        value = (_CN_DIGITS.get(tens, 0) if tens else 1) * 10 + (_CN_DIGITS.get(ones, 0) if ones else 0)
        return value if all(c in _CN_DIGITS for c in tens + ones) else None
    return _CN_DIGITS.get(text) if len(text) == 1 else None


def label_name(text: str) -> str | None:
    """The field a label names (`**Authors**` -> authors, `中文摘要` -> abstract), or None."""
    key = _EMOJI.sub("", plain(text)).strip(" \t:：-*_#>").lower()
    key = re.sub(r"\s+", " ", key)
    return LABELS.get(key)


def cjk_count(text: str) -> int:
    return len(_CJK.findall(text))


def clean_html(text: str) -> str:
    """Badges, images and HTML tags out (links in `<a href>` kept as Markdown), entities
    decoded."""
    if "<" in text:
        text = _HTML_LINK.sub(lambda m: f"[{m.group(2)}]({m.group(1)})", text)
        text = _IMG_TAG.sub("", text)
    text = _BADGE_LINK.sub("", text)
    text = _IMAGE.sub("", text)
    if "<" in text:
        text = _TAG.sub("", text)
    if "&" in text:
        text = html.unescape(text)
    return text


def links(text: str) -> list[tuple[str, str]]:
    """(label, url) of every Markdown link and bare URL in a line, in order."""
    found: list[tuple[int, str, str]] = []
    for match in _MD_LINK.finditer(text):
        found.append((match.start(), plain(match.group(1)), match.group(2)))
    rest = _MD_LINK.sub(" ", text)
    for match in _BARE_URL.finditer(rest):
        found.append((10**9 + match.start(), "", match.group(0).rstrip(".,;:")))
    return [(label, url) for _, label, url in sorted(found)]


def without_links(text: str) -> str:
    """The line with links dropped (their labels too) and bare URLs removed."""
    return _BARE_URL.sub(" ", _MD_LINK.sub(" ", text))


def plain(text: str) -> str:
    """Markdown markup out: links become their text, emphasis and code marks dropped."""
    text = _MD_LINK.sub(lambda m: m.group(1), text)
    text = _EMPHASIS.sub("", text)
    return " ".join(text.split())


def strip_symbols(text: str) -> str:
    """Leading emoji and list symbols off (`🌟 Title` -> `Title`), trailing ones too."""
    text = _EMOJI.sub(" ", text)
    text = _LEADING_SYMBOLS.sub("", text, count=1)
    return " ".join(text.split()).strip(" |•·-–—:：")


def split_cells(row: str) -> list[str]:
    row = row.strip()
    if row.startswith("|"):
        row = row[1:]
    if row.endswith("|") and not row.endswith("\\|"):
        row = row[:-1]
    return [c.replace("\\|", "|").strip() for c in re.split(r"(?<!\\)\|", row)]


def noise_blocks(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """Lines outside code fences, HTML comments, front matter and `<details>` blocks. A
    `<details>` whose `<summary>` names an abstract keeps its content, under an `Abstract:`
    field line."""
    out: list[tuple[int, str]] = []
    fence: str | None = None
    comment = False
    details = 0  # depth of skipped <details>
    i = 0
    if lines and lines[0][1].strip() == "---":  # YAML front matter
        for j in range(1, min(len(lines), 200)):
            if lines[j][1].strip() in ("---", "..."):
                i = j + 1
                break
    while i < len(lines):
        lineno, line = lines[i]
        i += 1
        stripped = line.strip()
        if fence is not None:
            if stripped.startswith(fence):
                fence = None
            continue
        if comment:
            if "-->" in line:
                comment = False
            continue
        if match := _FENCE.match(line):
            fence = match.group(1)
            continue
        if "<!--" in line:
            before, _, after = line.partition("<!--")
            if "-->" not in after:
                comment = True
                line = before
            else:
                line = before + after.split("-->", 1)[1]
            if not line.strip():
                continue
        lowered = stripped.lower()
        if details:
            details += lowered.count("<details") - lowered.count("</details")
            continue
        if lowered.startswith("<details"):
            summary = re.search(r"<summary[^>]*>(.*?)</summary>", stripped, re.IGNORECASE)
            if summary is None and i < len(lines) and "<summary" in lines[i][1].lower():
                summary = re.search(r"<summary[^>]*>(.*?)</summary>", lines[i][1], re.IGNORECASE)
                i += 1 if summary else 0
            if summary and label_name(clean_html(summary.group(1))) in ("abstract", "summary"):
                out.append((lineno, "Abstract:"))
                continue  # the content follows; </details> is dropped below
            details = 1 + lowered.count("<details", 8) - lowered.count("</details")
            continue
        if lowered.startswith("</details") or lowered.startswith("</summary"):
            continue
        out.append((lineno, line))
    return out


def classify(lineno: int, raw: str) -> Line:
    """What one (noise-free) line is."""
    if not raw.strip():
        return Line(lineno, "blank", raw=raw)
    if _RULE.match(raw) and "|" not in raw:
        return Line(lineno, "rule", raw=raw)
    stripped = raw.strip()
    if stripped.startswith("|") or (stripped.count("|") >= 2 and stripped.endswith("|")):
        if _TABLE_SEP.match(stripped):
            return Line(lineno, "tablesep", raw=raw)
        cells = [clean_html(_BR.sub(" \u2028 ", c)) for c in split_cells(stripped)]
        return Line(lineno, "table", cells=cells, raw=raw)
    if match := _HEADING.match(raw):
        level, text = len(match.group(1)), clean_html(match.group(2))
        if name := label_name(text):
            return Line(lineno, "field", label=name, raw_label=plain(text), text="", raw=raw)
        if field_line := _field(lineno, text, raw, heading=True):
            return field_line
        number = None
        if num := re.match(
            r"^(?:\*\*)?\s*(?:(?:No\.\s*|#)(\d{1,4})[.)、:：]?|(\d{1,4})[.)、:：．]|"
            r"([一二三四五六七八九十]{1,3})[、.．])(?:\*\*)?(?:\s+|$|(?<=[、．]))(.*)$",
            text,
        ):
            number = int(num.group(1) or num.group(2)) if not num.group(3) else chinese_number(num.group(3))
            text = num.group(4)
        return Line(lineno, "heading", text=text, level=level, number=number, raw=raw)
    if match := _QUOTE.match(raw):
        inner = clean_html(match.group(1))
        if field_line := _field(lineno, inner, raw):
            return field_line
        return Line(lineno, "quote", text=inner, raw=raw)
    line = clean_html(raw)
    if not line.strip():
        return Line(lineno, "blank", raw=raw)
    if match := _ITEM.match(line):
        indent = len(match.group(1).expandtabs(4))
        number = next((int(g) for g in match.group(3, 4, 5, 6) if g), None)
        text = match.group(7)
        if field_line := _field(lineno, text, raw):
            field_line.level = indent
            return field_line
        return Line(lineno, "item", text=text, level=indent, number=number, raw=raw)
    if field_line := _field(lineno, line.strip(), raw):
        return field_line
    return Line(lineno, "text", text=line, raw=raw)


def _field(lineno: int, text: str, raw: str, heading: bool = False) -> Line | None:
    text = text.strip()
    if match := _LABEL_ALONE.match(text):
        name = label_name(match.group("label"))
        if name:
            return Line(lineno, "field", label=name, raw_label=match.group("label").strip(), text="", raw=raw)
        return None
    match = _FIELD.match(text)
    if not match:
        return None
    label = match.group("label")
    dressed = bool(match.group("open")) or bool(match.group("close1") or match.group("close2"))
    name = label_name(label)
    if name is None:
        # an unknown bold label (`**Score**: 11.0`) is a field we do not keep
        if dressed and match.group("open") and len(plain(label).split()) <= 4 and not heading:
            return Line(
                lineno, "field", label="other", raw_label=plain(label), text=match.group("value"), raw=raw
            )
        return None
    if not dressed and name not in _PLAIN_OK:
        return None
    value = match.group("value").strip()
    if value.startswith(("**", "__")) and value.endswith(("**", "__")) and value.count("**") == 2:
        value = value.strip("*_ ")
    return Line(lineno, "field", label=name, raw_label=plain(label), text=value, raw=raw)
