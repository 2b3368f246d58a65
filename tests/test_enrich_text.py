"""Markup stripping, number repair, sentence splitting, placeholders."""

from paperatlas.enrich.text import clean, placeholder_macros, sentences


def test_latex_emphasis_and_math_are_stripped():
    assert (
        clean(r"we propose \textsc{OmniAR}, see $\texttt{DOGe}$ and \textbf{\emph{Nested}}")
        == "we propose OmniAR, see DOGe and Nested"
    )


def test_markdown_emphasis_is_stripped():
    assert (
        clean("We present **TFPI** and __Bold__, *Italic* and `Code` and _Under_.")
        == "We present TFPI and Bold, Italic and Code and Under."
    )


def test_symbols_and_escapes():
    assert (
        clean(r"18.8\% better, 10$\times$ faster, $\sim$3 s, $\geq 5$")
        == "18.8% better, 10× faster, ~3 s, ≥ 5"
    )


def test_broken_numbers_are_mended():
    assert clean("a 12. 5 % gain and 3 × speedup") == "a 12.5% gain and 3× speedup"
    # an ordinary sentence end followed by a number is left alone
    assert clean("We win. 5 of 6 tasks improve.") == "We win. 5 of 6 tasks improve."


def test_font_switches_do_not_glue_words():
    assert clean(r"we call it {\em Frozen} policy iteration") == "we call it Frozen policy iteration"


def test_placeholder_macros_are_reported():
    assert placeholder_macros(r"We propose \tool, and \method beats \textbf{X} by 3$\times$.") == {
        "tool",
        "method",
    }


def test_sentences_keep_abbreviations_inside():
    text = "We use models, e.g. GPT-4, as judges. Results improve by 3.5 points. Done."
    assert sentences(text) == [
        "We use models, e.g. GPT-4, as judges.",
        "Results improve by 3.5 points.",
        "Done.",
    ]


def test_nested_and_unbalanced_latex_leaves_no_command_words():
    assert clean(r"we propose $\textbf{\textit{Lumos{X}}}$, a framework") == "we propose LumosX, a framework"
    assert clean(r"performance. \textbf{RFK and Radan work") == "performance. RFK and Radan work"
    assert clean(r"regret $O(\sqrt{T})$ with step $\frac{1}{2}$") == "regret O(√T) with step 1/2"


def test_latex_accents_become_letters():
    assert (
        clean(r"we propose N\"uwa, after Schr\"{o}dinger and Poincar\'e")
        == "we propose Nüwa, after Schrödinger and Poincaré"
    )


def test_chinese_sentences_end_at_full_width_marks():
    from paperatlas.enrich.text import is_cjk, text_length

    text = clean(
        "近年来，扩散模型取得了显著进展。然而，采样仍然很慢！我们能否加速？我们提出了 FastDiff，一种快速采样方法。"
    )
    assert sentences(text) == [
        "近年来,扩散模型取得了显著进展。",
        "然而,采样仍然很慢!",
        "我们能否加速?",
        "我们提出了 FastDiff,一种快速采样方法。",
    ]
    assert is_cjk(text) and not is_cjk("We propose FastDiff, 一种 method.")
    # lengths in characters for CJK (a word count would call this abstract 4 words long)
    assert text_length(text) > 40
    assert text_length("We propose a fast sampler.") == 5


def test_mixed_sentence_ends_do_not_split_english_inside_chinese():
    text = clean("我们在 ImageNet 上评估了方法，准确率达到 85.3%。代码见 github.com/x/y。")
    assert len(sentences(text)) == 2
