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


@pytest.mark.slow  # Chinese terms: the multilingual model's real weights
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


@pytest.mark.slow  # Chinese terms: the multilingual model's real weights
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
    # 违规 for "violations" rests on one source: the measure stays English beside its number
    assert card.number == "attribute-level violations：14%"
    assert card.keyphrases[1] == "语言模型" and card.keyphrases[2] == "CIMemories"
    assert card.note == "机器释义"


@pytest.mark.slow  # Chinese terms: the multilingual model's real weights
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


@pytest.mark.slow  # Chinese terms: the multilingual model's real weights
def test_show_prints_the_chinese_card(cli):
    from paperatlas import Atlas

    assert cli("add", str(SAMPLE))[0] == 0 and cli("enrich")[0] == 0
    with Atlas(cli.db) as atlas:
        pid = next(p["id"] for p in atlas.papers(limit=50) if (atlas.paper(p["id"]).facts or {}).get("name"))
    code, out, _ = cli("show", pid, "--lang", "zh")
    assert code == 0 and "中文卡片（机器释义）" in out and "主题词" in out and "类型" in out
    assert "中文卡片" not in cli("show", pid)[1]
    code, _, err = cli("show", pid, "--lang", "fr")
    assert code == 2 and "--lang must be en or zh" in err


@pytest.mark.slow  # Chinese terms: the multilingual model's real weights
def test_map_view_labels_in_chinese_keep_the_english():
    view = {
        "topics": {"broad": [{"id": 0, "label": "Policy & reinforcement learning"}], "fine": []},
        "layer": {
            "topics": {"broad": [{"id": 1, "label": "LLM CoT"}], "fine": [{"id": 2, "label": "Proteins"}]}
        },
    }
    out = zh_card.localise_map_view(view)
    assert out["topics"]["broad"][0] == {
        "id": 0,
        "label": "策略与强化学习",
        "label_en": "Policy & reinforcement learning",
    }
    assert out["layer"]["topics"]["broad"][0]["label"] == "LLM CoT"  # every word kept
    assert out["layer"]["topics"]["fine"][0]["label"] == "蛋白质"
