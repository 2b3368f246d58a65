"""What a server process readies again after another process commits papers.

The start's preload (warmup.py) writes the keyword index's postings file beside the
atlas (search/postings_file.py) for the indexed text of that moment. An `add` while
serving changes that text, and the file answers only for the version it was written at:
from the add's commit on, every search read its words' postings and counts out of FTS5
(~2 µs a posting, ~0.8 ms a word at 1,700 papers) for as long as the server ran. Here a
background thread watches the store's commit counter and readies the postings of the
index as it is now (the file for the new version, which one process of the machine writes
and the others open, or the same read into memory where no file may be written) once

- the store has been unchanged for `SETTLE_SECONDS` (an add commits its papers, then its
  facts), and
- this process's searches have spent, since the text changed, as much CPU reading FTS5 as
  the last readying cost (`WebContext.postings_seconds`; the start's preload the first
  time): readying costs what the start's preload costs (~0.8 s at 1,700 papers), which a
  server answering a person now and then would never earn back. Waiting until the reads
  have cost as much bounds the CPU at twice the better of "never" and "at once".

Pages are the same either way: only where their postings come from changes.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from paperatlas.api import web_reads
from paperatlas.web.context import WebContext

SETTLE_SECONDS = 2.0  # the store unchanged this long: the add's commits are over
POLL_SECONDS = 0.5  # how often the commit counter is read (one PRAGMA)


class PostingsRefresh:
    """The watching thread of one app: `start()` once the start's preload is under way,
    `stop()` at shutdown; `tick()` is one look at the store."""

    def __init__(
        self,
        web: WebContext,
        settle: float | None = None,
        poll: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.web, self.clock = web, clock
        self.settle = SETTLE_SECONDS if settle is None else settle
        self.poll = POLL_SECONDS if poll is None else poll
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._seen: object = None  # the commit counter at the last look
        self._readied: object = None  # ... when the postings were last readied
        self._changed_at = 0.0

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="paperatlas-postings-refresh", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=30)

    def _run(self) -> None:
        while not self.web.warm.wait(self.poll):  # the start's preload readies the first version
            if self._stop.is_set():
                return
        self._seen = self._readied = self.web.generation()
        self._changed_at = self.clock()
        while not self._stop.wait(self.poll):
            self.tick()

    def tick(self) -> bool:
        """Ready the postings when the store changed since they were last readied, has
        been unchanged for `settle` seconds and searches have paid the price of readying
        in reads out of FTS5; True when it did."""
        now, at = self.web.generation(), self.clock()
        if now != self._seen:
            self._seen, self._changed_at = now, at
            return False
        if now == self._readied or at - self._changed_at < self.settle:
            return False
        if web_reads.postings_read_seconds(self.web.atlas) < self.web.postings_seconds:
            return False
        self._readied = now
        try:
            seconds = web_reads.ready_postings(self.web.atlas)
        except Exception:  # a speed-up only: searches read FTS5 without it
            logging.getLogger("paperatlas.web").exception("postings refresh failed")
            return True
        # a readying that found the file written (by another process) or the text as it was
        # costs next to nothing: the price stays what building costs
        self.web.postings_seconds = max(self.web.postings_seconds, seconds)
        return True
