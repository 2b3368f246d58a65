"""The web app: `create_app(db_path)` returns a FastAPI app over one atlas database.

This module only wires the app: the middleware, the static files, the page groups'
routers (web/pages/, web/api_routes.py), the error pages (error_pages.py) and the start
(warmup.py). What every page shares (the atlas, the loaded map, the renderer) is one
`WebContext` (context.py) on `app.state.web`. Pages render with Jinja2, autoescape on
(render.py); scripts and styles are served from the package's static folder only (in
paperatlas.assets: atlas.html inlines the same files); the map data comes from the stored
map as JSON. Page handlers run on the server process's
event loop, one at a time (why: the note above WRITE_THREADS); only writes (likes) go
to a thread. Readers never wait for a writer in SQLite's WAL mode, so pages keep
answering while `paperatlas add` writes to the same file.

Speed (see `serving.py`): rendered pages are kept while the store is unchanged, the
security headers come from a plain ASGI middleware, cards are written by `cards.py`, and
after start a background thread reads every word's postings (`/healthz` says "warm" once
done), and reads them again once another process's add has changed the indexed text
(`refresh.py`).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from paperatlas.api import Atlas, web_reads
from paperatlas.assets import static_dir
from paperatlas.web import api_routes, error_pages, kept_api, status
from paperatlas.web.compression import Gzip
from paperatlas.web.context import WebContext
from paperatlas.web.guard import RequestGuard
from paperatlas.web.maps import MAP_CACHE_SECONDS, MapCache
from paperatlas.web.pages import (
    compare,
    downloads,
    follows,
    keep,
    overview,
    papers,
    recommend,
    search,
    topics,
)
from paperatlas.web.pages import map as map_page
from paperatlas.web.refresh import PostingsRefresh
from paperatlas.web.render import JSON
from paperatlas.web.serving import PageCache, SecurityHeaders, tune_process
from paperatlas.web.warmup import warm_up

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
# Pages are CPU work under the GIL, so threads add no speed, only
# hand-offs: with many threads in flight (anyio's default is 40) locks taken per call
# formed convoys (46-77 pages/s with multi-second tails, against 96/s on one thread).
# Handlers are therefore `async def` and run on the event loop itself, which costs ~18%
# less CPU per page than one page thread (web_load.py, 4 alternating runs: 3.2-3.6 ms
# against 3.9-4.4 ms; p95 128-148 ms against 203-219 ms). An earlier try on the loop
# starved some connections for seconds; the pauses behind that (full garbage
# collections, the map re-read every 30 s, postings read on first use) are gone now.
# More processes (`serve --workers`) are what use more cores. Threads are left for
# writes and static files: PAPERATLAS_WEB_THREADS of them (default 1).
WRITE_THREADS = 1
# each with its `routes`
PAGE_GROUPS = (
    overview,
    map_page,
    papers,
    search,
    topics,
    keep,
    follows,
    recommend,
    compare,
    downloads,
    api_routes,
    kept_api,
    status,
)


def create_app(
    db_path: str | Path | None = None,
    page_cache: bool = True,
    freeze_after_start: bool = False,
    allow_hosts: tuple[str, ...] = (),
    read_only: bool = False,
) -> FastAPI:
    """The app over one atlas. `freeze_after_start`: for a server process, leave what the
    start loaded out of Python's garbage collections (see warmup.freeze_memory). `allow_hosts`:
    host names it answers besides 127.0.0.1, localhost and [::1]; `read_only`: every
    state-changing request is refused and the store is opened read-only (web/guard.py)."""
    atlas = open_atlas(db_path, read_only)
    read_only = atlas.read_only  # also when the file cannot be written
    generation = web_reads.generation(atlas).current  # commits of every thread and process
    maps = MapCache(atlas, generation)
    web = WebContext(atlas=atlas, generation=generation, maps=maps)
    threads = int(os.environ.get("PAPERATLAS_WEB_THREADS", "") or WRITE_THREADS)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        import anyio.to_thread

        anyio.to_thread.current_default_thread_limiter().total_tokens = threads
        await anyio.to_thread.run_sync(warm_up, web, freeze_after_start)
        refresh = PostingsRefresh(web)  # after another process's add (refresh.py)
        refresh.start()
        yield
        refresh.stop()

    app = FastAPI(
        title="paperatlas",
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
        lifespan=lifespan,
        default_response_class=JSON,
    )
    app.state.web = web
    app.state.signals = status.SignalWatch(atlas)  # /api/status, the search page's status line
    # Innermost first. Defence in depth behind escaping: pages may run only the app's own
    # scripts (CSP). The map's JSON shrinks ~4x with gzip. Pages are kept, compressed,
    # while the store and the loaded map stay the same.
    app.add_middleware(SecurityHeaders, headers=SECURITY_HEADERS)
    app.add_middleware(Gzip, minimum_size=4096)  # web/compression.py: ISA-L's deflate
    if page_cache:
        app.add_middleware(PageCache, version=lambda: (generation(), maps.serial), max_age=MAP_CACHE_SECONDS)
    # outermost: a refused request never reaches the page cache (its key has no Host)
    app.add_middleware(RequestGuard, allow_hosts=allow_hosts, read_only=read_only)

    app.mount("/static", StaticFiles(directory=static_dir()), name="static")
    for module in PAGE_GROUPS:
        module.routes.add_to(app)
    error_pages.install(app)
    return app


def open_atlas(db_path: str | Path | None, read_only: bool) -> Atlas:
    """The app's atlas; read-only: nothing of the file is written, not even a migration."""
    return Atlas(db_path, read_only=True if read_only else None)


def app_from_env() -> FastAPI:
    """The app of one server process, for `uvicorn --factory
    paperatlas.web.app:app_from_env` (what `paperatlas serve` runs): the atlas named by
    $PAPERATLAS_DB, served as web/server.py's worker_settings say (allowed hosts,
    read-only); PAPERATLAS_PAGE_CACHE=0 turns the page cache off. A worker process of
    `serve` ends with its parent (server.die_with_parent)."""
    from paperatlas.web.server import die_with_parent, worker_settings

    die_with_parent()
    tune_process()
    return create_app(
        None,  # the atlas's default path: $PAPERATLAS_DB
        page_cache=os.environ.get("PAPERATLAS_PAGE_CACHE", "1") != "0",
        freeze_after_start=True,
        **worker_settings(),
    )


def default_workers() -> int:
    """One server process per CPU core this process may use (pages are CPU work under
    Python's GIL, so a process per core is what uses the cores), at most 4: each process
    holds its own vectors, map and page cache."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    return max(1, min(4, cores))
