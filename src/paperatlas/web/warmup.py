"""What a server process loads before and just after it starts taking requests, so that
no page waits for it: the map, the vector index and query model (before), the map page's
data, every word's postings, every paper's similar papers (for its page) and the overview's
counts (after, in the background; `/healthz` says "warm" once done)."""

from __future__ import annotations

import contextlib
import gc
import logging
import threading

from paperatlas.api import web_reads
from paperatlas.errors import PaperatlasError
from paperatlas.web.api_routes import FULL_MAP, full_map_body
from paperatlas.web.context import WebContext
from paperatlas.web.pages.papers import SIMILAR

PRELOAD_THREAD = "paperatlas-preload"  # the background preload's thread, by name


def warm_up(web: WebContext, freeze: bool) -> None:
    """Load what the first pages would otherwise wait for (the map, the vector index,
    the query model: ~2 s on 15k papers), before this process takes requests."""
    web.maps.get(None)
    with contextlib.suppress(PaperatlasError, ImportError):  # no vectors yet: pages say so themselves
        web.atlas.search("warm up", k=1)
    # every word's postings and every paper's similar papers, in the background: pages
    # before it is done work out their own
    threading.Thread(target=preload, args=(web, freeze), name=PRELOAD_THREAD, daemon=True).start()
    freeze_memory(freeze)


def preload(web: WebContext, freeze: bool) -> None:
    try:
        # the map page's data, when the map goes to the page whole (a second or more at 15k)
        stored = web.maps.get(None)
        if stored is not None and stored["points"].n <= FULL_MAP:
            full_map_body(web, stored, False)
        # the overview's counts: aggregates over every paper (seconds at 1M papers)
        web.overview_counts(None)
        web.postings_seconds = web_reads.preload(web.atlas, similar=SIMILAR)
    except Exception:  # a speed-up only: searches and paper pages work without it
        logging.getLogger("paperatlas.web").exception("preload failed")
    freeze_memory(freeze)
    web.warm.set()


def freeze_memory(freeze: bool) -> None:
    # What is loaded by now lives as long as a server process. Python's full
    # collections would walk all of it (modules, map, caches) again and again,
    # pausing every page in flight for ~100 ms; frozen objects are left out of them.
    if freeze:
        gc.freeze()
