"""What a server process readies again after another process commits papers.

The start's preload (warmup.py) writes the keyword index's postings file beside the
atlas (search/postings_file.py) for the indexed text of that moment. An `add` while
serving changes that text, and the file answers only for the version it was written at:
from the add's commit on, every search read its words' postings and counts out of FTS5
(~2 µs a posting, ~0.8 ms a word at 1,700 papers) for as long as the server ran. Here a
background thread watches the store's commit counter and, once the store has been
unchanged for `SETTLE_SECONDS` (an add commits its papers, then its facts), readies the
postings of the index as it is now: the file for the new version (one process of the
machine writes it, the others open it), or the same read into memory where no file may
be written. A commit that left the indexed text alone (a like, a note, an add's facts)
costs one look at the index's version record. Pages are the same either way: only where
their postings come from changes.
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
# After readying took T seconds, the next waits GAP_FACTOR * T: an add of many files
# (a commit each) at a million papers keeps a core at most 1/GAP_FACTOR busy with it.
GAP_FACTOR = 10


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
        self._changed_at = self._not_before = 0.0

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
        # once settled, a first look: a commit during the start's preload is caught too
        self._seen, self._changed_at = self.web.generation(), self.clock()
        while not self._stop.wait(self.poll):
            self.tick()

    def tick(self) -> bool:
        """Ready the postings when the store changed since they were last readied and has
        been unchanged for `settle` seconds; True when it did."""
        now, at = self.web.generation(), self.clock()
        if now != self._seen:
            self._seen, self._changed_at = now, at
            return False
        if now == self._readied or at - self._changed_at < self.settle or at < self._not_before:
            return False
        self._readied = now
        try:
            web_reads.ready_postings(self.web.atlas)
        except Exception:  # a speed-up only: searches read FTS5 without it
            logging.getLogger("paperatlas.web").exception("postings refresh failed")
        done = self.clock()
        self._not_before = done + GAP_FACTOR * (done - at)
        return True
