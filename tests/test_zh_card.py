"""The offline Chinese card of a paper and the Chinese digest (report/zh_card.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from paperatlas.report import zh_card

SAMPLE = Path(__file__).parents[1] / "examples" / "iclr2026_sample_list.txt"
CJK = re.compile("[\u3400-\u9fff]")


@pytest.mark.parametrize(
    ("decision", "chinese"),
    [
        ("Accept (Poster)", "录用（海报）"),
        ("Accept (Oral)", "录用（口头报告）"),
        ("Accept (Conditional Poster)", "有条件录用（海报）"),
        ("Not accepted", "未录用"),
        ("Withdrawn", "已撤稿"),
        ("Reject", "拒稿"),
        ("Oral", "口头报告"),
        ("Major revision", "Major revision"),  # words outside the table stay as written
    ],
)
def test_decisions_in_chinese(decision, chinese):
    assert zh_card.decision_zh(decision) == chinese


def test_every_iclr_area_has_its_chinese():
    areas = (Path(zh_card.__file__).parents[1] / "models" / "iclr2026_primary_areas.txt").read_text()
    for area in filter(None, areas.splitlines()):
        assert CJK.search(zh_card.area_zh(area) or ""), area
        assert zh_card.area_zh(area) == zh_card.AREAS[area]


def test_a_headline_number_says_what_it_measures():
    item = {
        "text": "up to 6.7x",
        "value": 6.7,
        "unit": "×",
        "what": "inference acceleration",
        "role": "result",
    }
    assert zh_card.number_zh(item) == "推理加速：最高 6.7 倍"
    assert zh_card.number_zh({"text": "12.5%", "what": None}) == "12.5%"
    assert zh_card.number_zh(None) is None


def test_card_of_a_paper():
    facts = {
        "name": "CIMemories",
        "kind": "benchmark",
        "numbers": [{"text": "14%", "what": "attribute-level violations", "role": "result", "unit": "%"}],
        "keyphrases": ["persistent memory", "language models", "CIMemories"],
        "predicted_area": {"label": "datasets and benchmarks", "prob": 0.8},
    }
    card = zh_card.card({"id": "x", "decision": "Accept (Poster)"}, facts, topic="LLM reasoning")
    assert card.name == "CIMemories" and card.kind == "基准" and card.area == "数据集与基准"
    assert card.decision == "录用（海报）" and card.topic == "LLM 推理"
    assert card.number is not None and card.number.endswith("：14%") and CJK.search(card.number)
    assert card.keyphrases[1] == "语言模型" and card.keyphrases[2] == "CIMemories"
    assert card.note == "机器释义"


def test_chinese_digest_lines_are_chinese(cli):
    assert cli("add", str(SAMPLE))[0] == 0
    assert cli("enrich")[0] == 0
    code, english, _ = cli("digest")
    assert code == 0
    code, text, _ = cli("digest", "--lang", "zh")
    assert code == 0 and "机器释义" in text
    bullets = [line for line in text.splitlines() if line.startswith("- ")]
    assert len(bullets) >= 19
    # every paper line holds Chinese terms; the English digest's lines hold none
    assert all(CJK.search(line) for line in bullets)
    assert not any(CJK.search(line) for line in english.splitlines() if line.startswith("- "))
