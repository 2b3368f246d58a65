"""Chinese text cut into words by jieba (precise mode), the dictionary loaded once, on the
first Chinese query."""

from __future__ import annotations

import functools
import logging


@functools.cache
def _jieba():
    import jieba

    jieba.setLogLevel(logging.WARNING)
    return jieba


def tokens(text: str) -> list[str]:
    """`text` as jieba cuts it, in order: Chinese words, and the other scripts' runs and
    punctuation as their own tokens (joined back, they are `text`)."""
    return _jieba().lcut(text, HMM=True)
