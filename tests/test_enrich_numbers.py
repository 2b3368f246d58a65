"""Headline quantities: normalised values, units, what they measure, noise skipped."""

from paperatlas.enrich.numbers import extract_numbers
from paperatlas.enrich.text import clean


def numbers(raw: str):
    return extract_numbers(clean(raw))


def by_value(items, value):
    return next(n for n in items if n["value"] == value)


def test_percent_with_what_it_measures():
    items = numbers("Frontier models leak up to 71% private attributes in our audits.")
    item = by_value(items, 71.0)
    assert item["unit"] == "%"
    assert item["text"] == "up to 71%"
    assert item["what"] == "private attributes"


def test_latex_escaped_percent_and_times():
    items = numbers(r"The pruned model keeps 97.4\% accuracy and runs 8$\times$ faster.")
    assert by_value(items, 97.4)["unit"] == "%"
    assert by_value(items, 8.0)["unit"] == "×"


def test_number_broken_by_copying_is_mended():
    items = numbers("Our method improves the success rate by 12. 5 % on average.")
    assert by_value(items, 12.5)["unit"] == "%"


def test_ranges_keep_both_ends():
    items = numbers("Agents violate constraints in 21%-48% of episodes and decode 1.5–3.2× faster.")
    pct = by_value(items, 21.0)
    assert pct["value_to"] == 48.0 and pct["unit"] == "%"
    speed = by_value(items, 1.5)
    assert speed["value_to"] == 3.2 and speed["unit"] == "×"


def test_counts_with_separators_and_plus():
    items = numbers("The benchmark has 2,318 questions written by 40+ annotators.")
    assert by_value(items, 2318.0)["what"] == "questions"
    assert by_value(items, 40.0)["unit"] == "+"


def test_sizes_and_x_suffix():
    items = numbers("We pretrain models up to 13B parameters on 2T tokens, a 4.5x larger budget.")
    assert by_value(items, 13.0)["unit"] == "B"
    assert by_value(items, 2.0)["unit"] == "T"
    assert by_value(items, 4.5)["unit"] == "×"


def test_spelled_out_counts_of_things():
    items = numbers("We evaluate eleven models on nine datasets.")
    assert by_value(items, 9.0)["what"] == "datasets"


def test_years_model_versions_and_enumerations_are_not_quantities():
    items = numbers("Since 2021, GPT-4 and Qwen2.5 have dominated (1) reasoning and (2) coding.")
    assert items == []


def test_model_versions_written_apart_are_not_quantities():
    items = numbers("On Llama 3.1 and Qwen 2.5 our method gains 4.2 points.")
    assert [n["value"] for n in items] == [4.2]


def test_results_say_what_they_measure_and_against_what():
    items = numbers(
        "Our model needs 35% fewer inference steps than Transformer++ while matching its quality."
    )
    item = by_value(items, 35.0)
    assert item["role"] == "result"
    assert item["context"] == "Our model needs 35% fewer inference steps than Transformer++"


def test_model_and_data_sizes_are_setup_not_results():
    items = numbers(
        "We train a 17B parameter model on 350B tokens and find it is 6.7x more "
        "sample efficient than dense baselines."
    )
    assert by_value(items, 17.0)["role"] == "setup"
    assert "parameter model" in by_value(items, 17.0)["context"]
    assert by_value(items, 350.0)["role"] == "setup"
    gain = by_value(items, 6.7)
    assert gain["role"] == "result"
    assert gain["context"].endswith("more sample efficient than dense baselines")
    # results come first
    assert items[0]["value"] == 6.7


def test_counts_of_tasks_and_annotators_are_setup():
    items = numbers(
        "The benchmark has 2,318 questions written by 40+ annotators across 12 "
        "languages, and the best model answers 61.2% of them."
    )
    assert by_value(items, 2318.0)["role"] == "setup"
    assert by_value(items, 12.0)["role"] == "setup"
    assert by_value(items, 61.2)["role"] == "result"


def test_a_share_of_the_training_data_is_setup():
    items = numbers(
        "Using only 10% of the training data, our method improves accuracy by "
        "4.2 points over the strongest baseline."
    )
    assert by_value(items, 10.0)["role"] == "setup"
    gain = by_value(items, 4.2)
    assert gain["role"] == "result"
    assert gain["context"] == "our method improves accuracy by 4.2 points over the strongest baseline"


def test_chinese_numbers_with_context():
    items = numbers(
        "FastGS 在多个数据集上将训练速度提升了 10 倍，并且只需 5000 张图像。三维高斯泼溅（3DGS）很慢。"
    )
    speed = by_value(items, 10.0)
    assert speed["unit"] == "×" and speed["role"] == "result"
    assert "训练速度提升了" in speed["context"]
    assert by_value(items, 5000.0)["role"] == "setup"
    assert all(n["value"] != 3.0 for n in items)  # the 3 of 3DGS is part of a name


def test_percent_or_more_is_a_percentage_result():
    items = numbers(
        "Evaluated on two model families, the defence keeps 89%+ defense success "
        "rates against 20+ jailbreak methods."
    )
    rate = by_value(items, 89.0)
    assert rate["unit"] == "%" and rate["role"] == "result"
    assert by_value(items, 20.0)["unit"] == "+"
