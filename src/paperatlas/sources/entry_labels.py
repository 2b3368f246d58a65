"""What the words of a list written by people say about the lines they stand on: section
headings that hold no papers (usage, licence, 目录), link labels that name what a link is
(paper, code, or neither), and table headers that name a column's role."""

from __future__ import annotations

import re

from paperatlas.sources.mdlines import links, plain, strip_symbols, without_links
from paperatlas.sources.titles import is_title_like

# Sections that hold no papers, whatever is under them.
USAGE_SECTIONS = re.compile(
    r"^(usage|how to use|how to|installation|install|setup|set up|getting started|quick ?start|"
    r"configuration|config|customi[sz]ation|schedule|license|licence|contributing|contribute|"
    r"contributors?|contact|citation|cite|cite us|citing|acknowledge?ments?|star history|faq|"
    r"deployment|deploy|statistics|stats|todo|to do|changelog|change log|updates?|news|"
    r"manual trigger|requirements|development|features|table of contents|contents|toc|"
    r"related (lists|repos|projects)|sponsors?|support|about|footnotes|"
    r"使用|使用方法|使用说明|安装|配置|统计|许可|许可证|致谢|引用|更新日志|更新|新闻|目录|联系|贡献|"
    r"声明|免责声明|说明|运行|部署|关于)\b",
    re.IGNORECASE,
)
# Link labels that name what a link is, never a paper's title.
LINK_LABELS = {
    "paper": "paper",
    "pdf": "paper",
    "arxiv": "paper",
    "abs": "paper",
    "openreview": "paper",
    "doi": "paper",
    "论文": "paper",
    "paper page": "paper",
    "论文链接": "paper",
    "原文": "paper",
    "acl": "paper",
    "ieee": "paper",
    "acm": "paper",
    "semantic scholar": "paper",
    "alphaxiv": "paper",
    "hf paper": "paper",
    "code": "code",
    "github": "code",
    "gitlab": "code",
    "repo": "code",
    "project": "code",
    "project page": "code",
    "homepage": "code",
    "website": "code",
    "demo": "code",
    "local demo": "code",
    "dataset": "code",
    "data": "code",
    "model": "code",
    "models": "code",
    "huggingface": "code",
    "hugging face": "code",
    "hf": "code",
    "代码": "code",
    "项目": "code",
    "主页": "code",
    "项目主页": "code",
    "leaderboard": "code",
    "eval tool": "code",
    "checkpoint": "code",
    "weights": "code",
    "blog": "code",
    "video": "code",
    "slides": "code",
    "poster": "code",
    "bib": "skip",
    "bibtex": "skip",
    "citation": "skip",
    "cite": "skip",
    "star": "skip",
    "stars": "skip",
    "wechat": "skip",
}
TABLE_ROLES = {
    "title": (
        "title",
        "paper",
        "paper title",
        "papers",
        "论文",
        "标题",
        "题目",
        "论文标题",
        "publication",
        "article",
    ),
    "name": ("name", "dataset", "benchmark", "model", "method", "名称", "数据集", "模型", "方法"),
    "venue": (
        "venue",
        "conference",
        "journal",
        "pub",
        "publication venue",
        "会议",
        "期刊",
        "会议期刊",
        "source",
    ),
    "date": (
        "date",
        "year",
        "time",
        "published",
        "publish date",
        "publication date",
        "pub date",
        "submitted",
        "updated",
        "日期",
        "时间",
        "年份",
        "发表日期",
        "发布日期",
    ),
    "code": ("code", "github", "repo", "repository", "demo", "project", "homepage", "代码", "项目"),
    "authors": ("authors", "author", "作者"),
    "abstract": ("abstract", "摘要", "summary", "tl;dr", "tldr"),
}
ROLE_OF = {name: role for role, names in TABLE_ROLES.items() for name in names}


def link_label(label: str) -> str | None:
    return LINK_LABELS.get(strip_symbols(label).lower().strip("[]() "))


def title_cell(cells: list[str], columns: list[str]) -> int | None:
    for role in ("title", "name"):
        if role in columns:
            index = columns.index(role)
            if index < len(cells) and cells[index].strip():
                if role == "name":  # a dataset table: the paper is the linked title elsewhere
                    for j, cell in enumerate(cells):
                        title, url = cell_title(cell)
                        if (
                            url
                            and j != index
                            and is_title_like(title or "")
                            and len((title or "").split()) >= 3
                        ):
                            return j
                return index
    for j, cell in enumerate(cells):
        title, url = cell_title(cell)
        if url and title and is_title_like(title) and len(title.split()) >= 3:
            return j
    return None


def cell_title(cell: str) -> tuple[str | None, str | None]:
    for label, url in links(cell):
        if url.startswith("#") or label.lower() in LINK_LABELS or not label:
            continue
        return label, url
    text = plain(without_links(cell)).replace("\u2028", " ")
    return (strip_symbols(text) or None), None
