"""Chinese abstracts end to end: read from a plain list (none dropped), then real facts."""

from paperatlas import sources
from paperatlas.enrich.pipeline import extract_facts

LIST = """我的论文列表

近年来，三维高斯泼溅取得了显著进展，但训练速度仍然较慢。我们提出了 FastGS，一种快速训练框架。FastGS 在多个数据集上将训练速度提升了 10 倍。

大语言模型的推理成本很高。为了解决这一问题，本文提出一种名为 SpecKV 的缓存压缩方法，在保持准确率的同时显著降低显存占用，并在多个长文本基准上验证了其有效性和通用性。

现有评测难以衡量多模态模型的空间推理能力。我们构建了一个新的基准 SpatialEval，包含 5000 个问题。实验表明最强模型的准确率仅为 45%。

我们研究了大语言模型在数学推理中的表现。我们发现其在长链推理中存在系统性错误。结果表明规模并不能解决该问题。
"""


def test_a_chinese_list_is_read_whole(tmp_path):
    path = tmp_path / "zh.txt"
    path.write_text(LIST, encoding="utf-8")
    papers = list(sources.read(path))
    assert len(papers) == 4
    assert all(p.abstract and p.abstract.endswith("。") for p in papers)


def test_chinese_facts_kind_gist_title_name():
    facts = extract_facts(None, LIST.split("\n\n")[1])
    assert facts["name"] == "FastGS"
    assert facts["kind"] == "method"
    assert facts["gist"] == "我们提出了 FastGS,一种快速训练框架。"
    assert facts["display_title"] == "FastGS: 快速训练框架"
    speed = next(n for n in facts["numbers"] if n["value"] == 10.0)
    assert speed["unit"] == "×" and speed["role"] == "result"


def test_chinese_gist_is_one_sentence_and_title_is_short():
    for block in LIST.split("\n\n")[1:]:
        facts = extract_facts(None, block)
        gist = facts["gist"]
        assert len(gist) <= 80 and gist.count("。") <= 1
        assert 0 < len(facts["display_title"]) <= 45
        assert not facts["display_title"].endswith("。")
    bench = extract_facts(None, LIST.split("\n\n")[3])
    assert (bench["name"], bench["kind"]) == ("SpatialEval", "benchmark")
    study = extract_facts(None, LIST.split("\n\n")[4])
    assert (study["name"], study["kind"]) == (None, "analysis")
    named = extract_facts(None, LIST.split("\n\n")[2])
    assert named["display_title"] == "SpecKV: 缓存压缩方法"
