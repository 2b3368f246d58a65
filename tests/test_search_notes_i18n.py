"""A search's notes beside the hits are English for the terminal and the library, and carry
what a Chinese page needs to word them in Chinese (search/notes.py, web/i18n.py)."""

from __future__ import annotations

import ast
import copy
import json
import re
from pathlib import Path

import pytest

from paperatlas.search.engine import (
    _framing_note,
    _keywords_cannot_match_note,
    _no_minilm_note,
    _no_vectors_note,
)
from paperatlas.search.notes import Note
from paperatlas.web.i18n import SEARCH_NOTES_ZH, search_note, search_notes
from source_ast import parse

SEARCH = Path(__file__).parents[1] / "src" / "paperatlas" / "search"
CJK = re.compile("[\u3400-\u9fff]")
ENGLISH_WORDS = re.compile(r"\b(this|atlas|vectors|query|searched|ranked|alone|matches)\b")


def test_a_note_is_its_english_text_everywhere_a_string_goes():
    note = Note("no paper matches the filters", "no_match_filters")
    assert note == "no paper matches the filters" and isinstance(note, str)
    assert json.dumps({"notes": [note]}) == '{"notes": ["no paper matches the filters"]}'
    kept = copy.deepcopy(note)  # SearchResult.to_dict deep-copies its fields
    assert kept == note and kept.key == "no_match_filters"


@pytest.mark.parametrize(
    ("note", "values"),
    [
        (_framing_note("找關於擴散模型的論文", "找关于扩散模型的论文", "扩散模型"), ["扩散模型"]),
        (_framing_note("扩散模型", "扩散模型", "扩散"), ["扩散"]),
        (_framing_note("擴散模型", "扩散模型", "扩散模型"), ["扩散模型"]),
        (_no_vectors_note("zh", "diffusion model", True, True), ["diffusion model", "use-multilingual"]),
        (_no_vectors_note("zh", None, True, True), ["use-multilingual"]),
        (_no_vectors_note("ja", None, False, True), ["use-multilingual", "日文"]),
        (_no_vectors_note("en", None, True, True), ["paperatlas embed"]),
        (_no_vectors_note("en", None, True, False), ["paperatlas embed"]),
        (_no_minilm_note("static"), ["minilm-int8", "static"]),
        (_keywords_cannot_match_note("zh"), ["中文"]),
    ],
)
def test_the_engines_notes_read_in_chinese_with_their_names_and_numbers(note, values):
    english = search_note(note, "en")
    assert english == str(note) and ENGLISH_WORDS.search(english)
    chinese = search_note(note, "zh")
    assert CJK.search(chinese) and not ENGLISH_WORDS.search(chinese), chinese
    assert all(v in chinese for v in values), (chinese, values)


def test_a_plain_string_note_keeps_its_text_and_notes_join_per_language():
    assert search_note("something only in English", "zh") == "something only in English"
    notes = [Note("no paper matches this query", "no_match_query"), "plain"]
    assert search_notes(notes, "en") == "no paper matches this query; plain"
    assert search_notes(notes, "zh") == "没有论文与此查询匹配；plain"


def _note_keys(tree: ast.Module) -> set[str]:
    """The keys written as text in the `Note(text, key, ...)` calls of a module (either
    branch of a conditional key counts)."""
    keys = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Note" and len(node.args) > 1:
            key = node.args[1]
            for part in (key.body, key.orelse) if isinstance(key, ast.IfExp) else (key,):
                if isinstance(part, ast.Constant):
                    keys.add(part.value)
    return keys


def test_every_note_the_search_layer_writes_has_a_chinese_wording():
    keys = set().union(*(_note_keys(parse(path)) for path in sorted(SEARCH.glob("*.py"))))
    # the ones every search can give, so the scan itself is checked
    assert {"no_minilm", "no_match_filters", "query_cut", "model_failed", "text_cut"} <= keys
    assert keys <= SEARCH_NOTES_ZH.keys(), keys - SEARCH_NOTES_ZH.keys()
