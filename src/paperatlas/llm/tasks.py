"""What the user's model is asked for each paper, and the check its answer must pass.

Each task has a prompt version: results are kept per (paper, task, model, version), so a
changed prompt asks again and an unchanged one never does. An answer is rejected (kept,
with the reason, and counted) when it is not in the task's language, is too long, or names
a number or a Latin-script name (in a Chinese answer any Latin word; in an English one an
acronym or a mixed-case or numbered name: a method, a dataset) that
the paper's text does not hold: a summary must not invent results."""

from __future__ import annotations

import re
from dataclasses import dataclass

_CJK = re.compile("[\u3400-\u9fff]")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_LATIN = re.compile(r"[A-Za-z][A-Za-z0-9\-+.]*[A-Za-z0-9+]|[A-Za-z]")
# an English word that names something: a capital past its first letter or a digit
# (CoDeC, LLaMA, GPT-5); a title's capitalised words ("Detection") are ordinary words
_NAMEISH = re.compile(r".[A-Z]|\d")
MIN_CHINESE_SHARE = 0.3  # of an answer's non-space characters


@dataclass(frozen=True)
class Task:
    name: str
    version: str
    system: str
    instruction: str
    chinese: bool  # the answer must be Chinese
    max_chars: int
    max_tokens: int
    untitled_only: bool = False  # asked only for papers whose list gives no title


TASKS = {
    "summarize": Task(
        "summarize",
        "v1",
        "You summarise machine-learning papers for Chinese readers. Answer in Simplified Chinese only.",
        "用一句中文概括这篇论文的贡献（不超过 80 个字）。只写这一句，不要编造摘要中没有的数字或名称。",
        chinese=True,
        max_chars=200,
        max_tokens=160,
    ),
    "title": Task(
        "title",
        "v1",
        "You translate machine-learning paper titles into Simplified Chinese.",
        "给这篇论文写一个中文标题（不超过 40 个字），术语按中文机器学习文献的惯用译法，"
        "模型名和缩写保留英文。只写标题。",
        chinese=True,
        max_chars=80,
        max_tokens=80,
    ),
    "title-en": Task(
        "title-en",
        "v1",
        "You write concise English titles for machine-learning papers.",
        "Write an English title (at most 15 words) for this paper. Answer with the title only.",
        chinese=False,
        max_chars=160,
        max_tokens=60,
        untitled_only=True,
    ),
}


def prompt(task: Task, title: str | None, abstract: str) -> str:
    """The user message of one paper."""
    head = f"Title: {title}\n" if title and not task.untitled_only else ""
    return f"{task.instruction}\n\n{head}Abstract: {abstract}"


def check(task: Task, answer: str, source: str) -> str | None:
    """Why the answer is rejected, or None when it is accepted. `source`: the paper's
    title and abstract, what the answer may draw on."""
    text = " ".join(answer.split()).strip("\"'“”「」 ")
    if not text:
        return "empty"
    if len(text) > task.max_chars:
        return "too long"
    if task.chinese:
        letters = [c for c in text if not c.isspace()]
        if len(_CJK.findall(text)) < MIN_CHINESE_SHARE * len(letters):
            return "not Chinese"
    source_words = {w.lower() for w in _LATIN.findall(source)}
    for word in _LATIN.findall(text):
        names_something = task.chinese or _NAMEISH.search(word)
        if (
            names_something
            and word.lower() not in source_words
            and word.lower().rstrip("s") not in source_words
        ):
            return f"name not in the abstract: {word}"  # (before numbers: "GPT-5" is a name)
    known_numbers = {_plain_number(n) for n in _NUMBER.findall(source)}
    for number in _NUMBER.findall(text):
        if _plain_number(number) not in known_numbers:
            return f"number not in the abstract: {number}"
    return None


def cleaned(answer: str) -> str:
    """The answer as shown: one line, without the quotes models like to add."""
    return " ".join(answer.split()).strip("\"'“”「」 ")


def _plain_number(text: str) -> str:
    return text.replace(",", "").rstrip(".").removesuffix(".0")
