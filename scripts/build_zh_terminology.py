"""Build models/zh-terminology-v1.tsv (English machine-learning terms and the Chinese that
published bilingual term tables of the field give them) and models/zh-field-frequency-v1.tsv
(how often Chinese words occur in a Chinese textbook of the field).

    .venv/bin/python scripts/build_zh_terminology.py --google GOOGLE_ZH_CSV --d2l D2L_ZH_CHECKOUT \
        --cheatsheets CHEATSHEET_TRANSLATION_CLONE --aisystem AISYSTEM_GLOSSARY_MD

Sources (each allows redistribution; the output files name them and their licenses; they were
chosen for what they are, published English-Chinese term tables of the field, before looking
at which terms they hold):

- Google's Machine Learning Glossary in simplified Chinese ("Google 的机器学习术语表",
  https://developers.google.com/machine-learning/glossary/?hl=zh-CN), licensed CC BY 4.0 by
  Google, as collected in github.com/darigovresearch/Google-Machine-Learning-Glossary-Flashcards
  (the file "Google 的机器学习术语表.csv": one card a line, `中文 (english) (deck name)|definition`).
- "Dive into Deep Learning" in Chinese (《动手学深度学习》,
  github.com/d2l-ai/d2l-zh), licensed Apache-2.0 (the repository's LICENSE): its term table
  (TERMINOLOGY.md: `中文，english` a line) and the terms its chapters introduce in emphasis
  with the English beside them (`*自注意力*（self-attention）`, source d2l-book).

- Stanford's CS 229 / CS 230 cheatsheets in simplified Chinese (Afshine and Shervine Amidi,
  github.com/shervinea/cheatsheet-translation), MIT License (the repository's LICENSE): each
  file pairs a numbered English line with its translation (`N. **English**` then
  `&#10230; Chinese`). Kept: lists written as `[a, b, c]` whose translation has as many items
  (item by item), short lines (at most MAX_HEADING_WORDS words: headings, terms), and the
  term before "―" of a "term ― definition" line whose translation has a separator there
  (source cheatsheet). The Chinese files were merged into the cheatsheets and later removed
  from the repository's tip, so each is read from the last commit that holds it
  (`CHEATSHEETS`, read with git from a clone of the repository).

- "AI System" (《AI 系统》, ZOMI, github.com/chenzomi12/AISystem), licensed Apache-2.0 (the
  repository's LICENSE): its term table (00Others/03Glossary.md: `| English | 中文 | 缩写 |`
  rows; source aisystem). A book of AI systems: a single word there is often taken in its
  systems sense (Image -> 镜像, Kernel -> 内核), so only its terms of two or more words are
  kept (`AISYSTEM_MIN_WORDS`).

Words the book writes in English inside its Chinese prose (code, inline code and
parenthesised glosses left out) at least MIN_KEPT times are written as kept terms, their
Chinese being the English as the book most often spells it ("transformer" -> Transformer,
"adam" -> Adam; source d2l-kept): Chinese writing keeps them in English.

The field frequency counts every run of two to four Chinese characters in the book's
Markdown that jieba's dictionary holds as a word, kept where it occurs at least MIN_COUNT
times (a single character is in too many words for its count to tell a sense): which of a
word's dictionary senses the field writes (策略 56 times against 战略 0, 噪声 75 against
噪音 3). Counts only, no text.

Only the term pairs are kept (no definitions). An acronym beside a term ("SGD, mini-batch
stochastic gradient descent") is left out (`zh_terms` keeps acronyms in English);
alternatives written with "/" are each kept. Terms whose Chinese holds no Chinese character (names such as TensorBoard)
are left out: `zh_terms` keeps those in English anyway. Where several sources give a term,
they are written in the order above (Google's glossary first), and the first is used; a
word the book keeps in English stays kept though a cheatsheet translates it (tanh).

Line formats: english (lower case)<TAB>chinese<TAB>source (google, d2l, d2l-book, cheatsheet,
aisystem, d2l-kept);
chinese<TAB>count.

The shipped files were built (2026-12-07) from the Flashcards repository at f4a3c5c9,
d2l-zh at e6b18cce, cheatsheet-translation at the commits in `CHEATSHEETS` and AISystem's
00Others/03Glossary.md at 6ffde993. Rebuild models/zh-lexicon-v2.tsv (scripts/build_zh_lexicon.py) after
these: it aligns its words over the term tables.
"""

from __future__ import annotations

import argparse
import csv
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from paperatlas.text import STOPWORDS  # noqa: E402

MODELS = ROOT / "src/paperatlas/models"
OUT = MODELS / "zh-terminology-v1.tsv"
FREQUENCY_OUT = MODELS / "zh-field-frequency-v1.tsv"
MIN_COUNT = 2
MIN_KEPT = 5
MAX_RUN = 4
_CJK = re.compile("[\u3400-\u9fff]")
_CJK_RUN = re.compile("[\u3400-\u9fff]+")
# a term the book introduces: *中文*（english）
_INTRODUCED = re.compile(r"\*([\u3400-\u9fff]{1,12})\*\s*[（(]\s*([A-Za-z][A-Za-z \-]{1,60}?)\s*[）)]")
# "中文 (english, more) (deck name)": the Chinese, then the English in the first parentheses
_GOOGLE_HEAD = re.compile(r"^(?P<zh>[^()]+?)\s*\((?P<en>[^()]+)\)\s*\([^()]*术语表\)\s*$")


def _english_forms(text: str) -> list[str]:
    """The English forms of a source's English cell: alternatives ("/", ","), each lower case,
    a parenthesised note dropped ("momentum (method)"), acronyms left out (kept in English)."""
    text = re.sub(r"\([^)]*\)", " ", text)
    out = []
    for part in re.split(r"[/,]", text):
        part = " ".join(part.split()).strip(" .")
        if any(c.isalpha() for c in part) and part.upper() != part:
            out.append(part.lower())
    return out


def _chinese(text: str) -> str:
    """The Chinese cell cleaned: a parenthesised alternative dropped (迭代周期（周期) -> 迭代周期),
    spaces only where Latin script stays (ROC 曲线下面积)."""
    text = re.sub(r"[（(][^）)]*[）)]", "", text).strip()
    return " ".join(text.split())


def google_terms(path: Path) -> list[tuple[str, str]]:
    pairs = []
    with path.open(encoding="utf-8", newline="") as fh:
        for row in csv.reader(fh, delimiter="|"):
            match = _GOOGLE_HEAD.match(row[0].strip()) if row else None
            if match:
                zh = _chinese(match["zh"])
                pairs += [(en, zh) for en in _english_forms(match["en"])]
    return pairs


def book_pages(checkout: Path) -> list[str]:
    """The book's Markdown pages (chapters), in path order."""
    return [p.read_text(encoding="utf-8") for p in sorted(checkout.glob("chapter_*/**/*.md"))]


def book_terms(pages: list[str]) -> list[tuple[str, str]]:
    """(English, Chinese) of the terms the chapters introduce; where a term is introduced
    with several Chinese words, the most frequent (then the first)."""
    found: dict[str, Counter[str]] = {}
    for page in pages:
        for zh, en in _INTRODUCED.findall(page):
            for form in _english_forms(en):
                found.setdefault(form, Counter())[zh] += 1
    return [(en, counts.most_common(1)[0][0]) for en, counts in found.items()]


_EMBEDDED = re.compile(
    r"(?<=[\u3400-\u9fff，。、])\s*([A-Za-z][A-Za-z\-]*[A-Za-z])\s*(?=[\u3400-\u9fff，。、])"
)


def _prose(page: str) -> str:
    """A page's prose: code blocks, inline code, roles and parenthesised glosses taken out."""
    page = re.sub(r"```.*?```", " ", page, flags=re.S)
    page = re.sub(r"(:[a-z]+:)?`[^`]*`", " ", page)
    return re.sub(r"[（(][^）)]*[）)]", "，", page)


def kept_terms(pages: list[str], leave_out: set[str]) -> list[tuple[str, str]]:
    """(English, as the book spells it) of the words its Chinese prose keeps in English."""
    spellings: dict[str, Counter[str]] = {}
    for page in pages:
        for word in _EMBEDDED.findall(_prose(page)):
            spellings.setdefault(word.lower(), Counter())[word] += 1
    return [
        (word, forms.most_common(1)[0][0])
        for word, forms in spellings.items()
        if sum(forms.values()) >= MIN_KEPT and word not in leave_out
    ]


def field_frequency(pages: list[str]) -> Counter[str]:
    """Occurrences of each Chinese word of two or more characters (jieba's dictionary)."""
    import jieba

    frequency = jieba.dt.gen_pfdict(jieba.dt.get_dict_file())[0]  # every prefix of a word too, at 0
    words = {w for w, n in frequency.items() if n > 0}
    counts: Counter[str] = Counter()
    for page in pages:
        for run in _CJK_RUN.findall(page):
            for n in range(2, MAX_RUN + 1):
                counts.update(run[i : i + n] for i in range(len(run) - n + 1))
    return Counter({w: n for w, n in counts.items() if n >= MIN_COUNT and w in words})


def d2l_terms(path: Path) -> list[tuple[str, str]]:
    pairs = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if "，" in line and not line.startswith("#"):
            zh, en = line.split("，", 1)
            pairs += [(form, _chinese(zh)) for form in _english_forms(en)]
    return pairs


# each Chinese cheatsheet and the last commit of shervinea/cheatsheet-translation that holds it
CHEATSHEETS = {
    "zh/cheatsheet-deep-learning.md": "0a39b73",
    "zh/cheatsheet-machine-learning-tips-and-tricks.md": "f221efa",
    "zh/cheatsheet-supervised-learning.md": "5a42c15",
    "zh/cheatsheet-unsupervised-learning.md": "c179461",
    "zh/cs-229-supervised-learning.md": "823a3de",
    "zh/cs-230-convolutional-neural-networks.md": "13f6e03",
    "zh/cs-230-recurrent-neural-networks.md": "9b95bda",
    "zh/refresher-linear-algebra.md": "a16933a",
    "zh/refresher-probability.md": "6d87550",
}
MAX_HEADING_WORDS = 5  # a longer line is a sentence: its words do not align one to one
_ARROW = re.compile(r"^\s*(?:&#10230;|⟶)\s*(.*)$")
_NUMBERED = re.compile(r"^\s*\**\s*\d+\.\s*")
_DEFINITION = re.compile(r"\s*―\s*")
_ZH_DEFINITION = re.compile(r"\s*(?:―|—|–|:|：|-)\s*")
_NOTATION = re.compile(r"[=()|{}$\\<>0-9?'\"“”‘’？]")  # formulas, questions, quoted words


def _english_line(line: str) -> str:
    return " ".join(_NUMBERED.sub("", line).replace("**", " ").split())


def cheatsheet_lines(text: str) -> list[tuple[str, str]]:
    """(English line, its translation) of a cheatsheet file: each arrow line and the
    numbered line before it."""
    pairs, english = [], ""
    for line in text.splitlines():
        arrow = _ARROW.match(line)
        if arrow:
            if english:
                pairs.append((english, " ".join(arrow[1].split())))
            english = ""
        elif line.strip() and line.strip() != "<br>":
            english = _english_line(line)
    return pairs


def _term_pair(en: str, zh: str) -> list[tuple[str, str]]:
    """Aligned (English, Chinese) terms, or none: both sides short, no notation; where
    either side lists several ("a, b" / "a/b"), both must list as many, paired in order."""
    en, zh = en.strip(" .:;*"), zh.strip(" 。.：:；;*")
    if not en or not zh or _NOTATION.search(en) or _NOTATION.search(zh) or not _CJK.search(zh):
        return []
    if len(en.split()) > MAX_HEADING_WORDS or set(en.lower().split()) <= STOPWORDS:
        return []  # a sentence, or a line's connective ("where" -> 其中)
    en_items, zh_items = re.split(r"\s*[,/]\s*", en), re.split(r"\s*[，,、/]\s*", zh)
    if len(en_items) != len(zh_items):
        return []
    return [
        (form, _chinese(z))
        for e, z in zip(en_items, zh_items)
        if _CJK.search(z)
        for form in _english_forms(e)
    ]


def cheatsheet_terms(text: str) -> list[tuple[str, str]]:
    """The terms a Chinese cheatsheet pairs: list items, short lines, defined terms."""
    pairs = []
    for en, zh in cheatsheet_lines(text):
        if en.startswith("[") and en.endswith("]"):  # a table's cells, the translation's too
            en_items = en[1:-1].split(",")
            zh_items = re.split(r"[，,、]", zh.strip(" []【】"))
            if len(en_items) == len(zh_items):
                for e, z in zip(en_items, zh_items):
                    pairs += _term_pair(e, z)
            continue
        head, *rest = _DEFINITION.split(en, maxsplit=1)
        if rest:
            zh_head = _ZH_DEFINITION.split(zh, maxsplit=1)[0]
            if zh_head != zh:
                pairs += _term_pair(head, zh_head)
        else:
            pairs += _term_pair(en, zh)
    return pairs


def cheatsheets(clone: Path) -> list[tuple[str, str]]:
    """Every Chinese cheatsheet's terms, read from its commit in a clone of the repository."""
    pairs = []
    for path, commit in CHEATSHEETS.items():
        text = subprocess.run(
            ["git", "-C", str(clone), "show", f"{commit}:{path}"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        pairs += cheatsheet_terms(text)
    return pairs


AISYSTEM_MIN_WORDS = 2
_TABLE_ROW = re.compile(r"^\|\s*([^|]*?)\s*\|\s*([^|]*?)\s*\|")


def aisystem_terms(path: Path) -> list[tuple[str, str]]:
    """(English, Chinese) of the AI System book's term table: its rows of at least
    AISYSTEM_MIN_WORDS English words; of alternatives ("、"), the first."""
    pairs = []
    for line in path.read_text(encoding="utf-8").splitlines():
        row = _TABLE_ROW.match(line)
        if not row or not _CJK.search(row[2]) or len(row[1].split()) < AISYSTEM_MIN_WORDS:
            continue
        zh = _chinese(row[2].split("、")[0])
        pairs += [(form, zh) for form in _english_forms(row[1])]
    return pairs


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--google", type=Path, required=True, help="Google 的机器学习术语表.csv")
    parser.add_argument("--d2l", type=Path, required=True, help="a checkout of d2l-ai/d2l-zh")
    parser.add_argument(
        "--cheatsheets", type=Path, required=True, help="a clone of shervinea/cheatsheet-translation"
    )
    parser.add_argument(
        "--aisystem", type=Path, required=True, help="00Others/03Glossary.md of chenzomi12/AISystem"
    )
    args = parser.parse_args()
    pages = book_pages(args.d2l)
    seen: set[tuple[str, str]] = set()
    lines = []
    sources = (
        ("google", google_terms(args.google)),
        ("d2l", d2l_terms(args.d2l / "TERMINOLOGY.md")),
        ("d2l-book", book_terms(pages)),
        ("cheatsheet", cheatsheets(args.cheatsheets)),
        ("aisystem", aisystem_terms(args.aisystem)),
    )
    translated: set[str] = set()  # what the glossary and the book translate
    for source, pairs in sources:
        for en, zh in pairs:
            if _CJK.search(zh) and (en, zh) not in seen:
                seen.add((en, zh))
                lines.append(f"{en}\t{zh}\t{source}")
                if source in ("google", "d2l", "d2l-book"):  # a word the book keeps stays kept (tanh)
                    translated.add(en)
    for en, written in kept_terms(pages, translated | STOPWORDS):
        if written.upper() != written:  # an acronym is kept anyway
            lines.append(f"{en}\t{written}\td2l-kept")
    OUT.write_text(
        "# English term<TAB>Chinese<TAB>source; built by scripts/build_zh_terminology.py from:\n"
        "# google: Google's Machine Learning Glossary, simplified Chinese"
        " (https://developers.google.com/machine-learning/glossary/?hl=zh-CN), (c) Google, CC BY 4.0"
        " (https://creativecommons.org/licenses/by/4.0/); term pairs only, definitions left out\n"
        "# d2l, d2l-book: Dive into Deep Learning in Chinese, its TERMINOLOGY.md and the terms its"
        " chapters introduce or keep in English (https://github.com/d2l-ai/d2l-zh), Apache License 2.0\n"
        "# cheatsheet: Stanford CS 229 / CS 230 cheatsheets in simplified Chinese, (c) Afshine and"
        " Shervine Amidi and the translators (https://github.com/shervinea/cheatsheet-translation),"
        " MIT License; term pairs only\n"
        "# aisystem: the term table of AI System (https://github.com/chenzomi12/AISystem), (c) ZOMI,"
        " Apache License 2.0\n" + "\n".join(lines) + "\n",
        encoding="utf-8",
    )
    print(f"{len(lines)} term pairs -> {OUT}")
    counts = field_frequency(pages)
    FREQUENCY_OUT.write_text(
        "# Chinese word<TAB>occurrences in the chapters of Dive into Deep Learning in Chinese"
        " (https://github.com/d2l-ai/d2l-zh, Apache License 2.0); built by"
        " scripts/build_zh_terminology.py\n"
        + "".join(f"{w}\t{n}\n" for w, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))),
        encoding="utf-8",
    )
    print(f"{len(counts)} Chinese words -> {FREQUENCY_OUT}")


if __name__ == "__main__":
    main()
