"""`/api/status` and the search page's status line: which signals search answers with now,
and about how long until the rest. `paperatlas open` serves as soon as the fast model's
vectors are stored and computes the heavier search models in the background; the server
sees their vectors land in the store (search picks them up as they do) and estimates the
time left from how fast they have landed since it first looked."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from fastapi import Request

from paperatlas.api import Atlas, web_reads
from paperatlas.results import SearchStatus
from paperatlas.web.routes import Routes

routes = Routes()


class SignalWatch:
    """The search status of one app's atlas, with the time left (`seconds_left`) from the
    pace at which vectors of the pending models were stored since the first look."""

    def __init__(self, atlas: Atlas, clock: Callable[[], float] = time.monotonic) -> None:
        self.atlas = atlas
        self.clock = clock
        self._first: tuple[float, int] | None = None  # (when, vectors stored) at the first look
        self._lock = threading.Lock()
        # every search page shows the status: its counts are read again only after a commit
        self._generation = web_reads.generation(atlas)
        self._state: tuple[int, SearchStatus] | None = None  # (generation, counts)

    def _search_status(self) -> SearchStatus:
        at = self._generation.current()
        kept = self._state
        if kept is not None and kept[0] == at:
            return kept[1]
        state = self.atlas.search_status()
        self._state = (at, state)
        return state

    def status(self) -> dict[str, Any]:
        state = self._search_status()
        stored = sum(min(m.vectors, m.papers) for m in state.models)
        wanted = sum(m.papers for m in state.models)
        now = self.clock()
        with self._lock:
            if self._first is None or stored < self._first[1]:  # papers removed: start again
                self._first = (now, stored)
            start, start_stored = self._first
        seconds_left = None
        if stored < wanted and stored > start_stored and now > start:
            seconds_left = (wanted - stored) * (now - start) / (stored - start_stored)
        return {
            "papers": state.papers,
            "models": [
                {"model": m.model, "vectors": m.vectors, "papers": m.papers, "done": m.done}
                for m in state.models
            ],
            "vocabulary": state.vocabulary,
            "answering": ["keywords", *(m.model for m in state.models if m.done)],
            "pending": state.pending,
            "complete": state.complete,
            # the models' vectors only: the Chinese terms after them take a minute or so more
            "seconds_left": None if seconds_left is None else round(seconds_left),
        }


def watch(request: Request) -> SignalWatch:
    """The app's SignalWatch (web/app.py puts one on app.state)."""
    signals: SignalWatch = request.app.state.signals
    return signals


@routes.get("/api/status")
async def api_status(request: Request) -> dict[str, Any]:
    """Which signals search answers with now (`answering`: keywords and the models whose
    vectors every paper has), what is still being computed (`pending`: models, then
    "vocabulary", the English terms for Chinese queries), each model's vectors, and
    `seconds_left` (None while unknown)."""
    return watch(request).status()


def status_line(status: dict[str, Any], t: Callable[[str], str]) -> str | None:
    """The search page's one line while search is not yet at full quality (None when it is)."""
    if status["complete"]:
        return None
    shares = {m["model"]: m["vectors"] / max(m["papers"], 1) for m in status["models"]}
    pending = [
        t("status_vocabulary") if name == "vocabulary" else f"{name} ({shares[name]:.0%})"
        for name in status["pending"]
    ]
    answering = [t("signal_keywords") if name == "keywords" else name for name in status["answering"]]
    line = t("status_line").format(answering=", ".join(answering), pending=", ".join(pending))
    seconds = status["seconds_left"]
    if seconds is not None:
        line += " " + t("status_left").format(minutes=max(1, round(seconds / 60)))
    return line
