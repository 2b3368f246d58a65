"""Chinese query text made ready for lookup: traditional characters written as simplified
(OpenCC), and the text cut into words (jieba, precise mode). Each library is loaded once,
on the first Chinese query."""

from __future__ import annotations

import functools
import logging


@functools.cache
def _jieba():
    import jieba

    jieba.setLogLevel(logging.WARNING)
    return jieba


@functools.cache
def _traditional_to_simplified():
    import opencc

    return opencc.OpenCC("t2s")


def tokens(text: str) -> list[str]:
    """`text` as jieba cuts it, in order: Chinese words, and the other scripts' runs and
    punctuation as their own tokens (joined back, they are `text`)."""
    return _jieba().lcut(text, HMM=True)


def to_simplified(text: str) -> str:
    """`text` with traditional Chinese written in simplified characters, phrase by phrase
    (OpenCC's t2s: 乾淨 -> 干净, 幹細胞 -> 干细胞); other scripts as they are. The glossary,
    jieba's dictionary and the vocabulary lookups are simplified, so a query typed in
    traditional characters (Taiwan, Hong Kong) is searched as its simplified twin."""
    return _traditional_to_simplified().convert(text)
