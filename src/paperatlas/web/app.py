"""The web app: `create_app(db_path)` returns a FastAPI app over one atlas database.

Pages render with Jinja2 (autoescape on, so every title, abstract and label is text, never
markup); scripts and styles are served from the package's static folder only; the map data
comes from the stored map as JSON. Page handlers run on the server process's event loop,
one at a time (why: the note above WRITE_THREADS); only writes (likes) go to a thread.
Readers never wait for a writer in SQLite's WAL mode, so pages keep answering while
`paperatlas add` writes to the same file.

Speed (see `serving.py`): rendered pages are kept while the store is unchanged, the
security headers come from a plain ASGI middleware, cards are written by `cards.py`, and
after start a background thread reads every word's postings and every paper's similar
papers (`/healthz` says "warm" once done).
"""

from __future__ import annotations

import contextlib
import gc
import json
import math
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import FastAPI, HTTPException, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.exceptions import HTTPException as StarletteHTTPException

from paperatlas.api import Atlas
from paperatlas.errors import PaperatlasError
from paperatlas.web.cards import card_renderer
from paperatlas.web.guard import RequestGuard
from paperatlas.web.i18n import LANGUAGES, lang_of, translator
from paperatlas.web.serving import PageCache, SecurityHeaders, tune_process

HERE = Path(__file__).parent
PAGE_SIZE = 50
SEARCH_PAGE_SIZE = 10  # as most search pages; each hit's highlighted snippet is costly
MAP_CACHE_SECONDS = 30.0  # a rebuilt map shows up within this; reloading 15k rows costs ~0.3 s
SORTS = ("list", "title", "rating", "name")
KINDS = ("method", "benchmark", "dataset", "analysis", "theory")
# Bounds of the query parameters (anything outside: 400, see `bad_parameter`). Deep pages
# cost: a search ranks offset + k candidates, a sorted list reads every paper anyway.
MAX_PAGE = 10_000  # /papers: 500k papers deep
MAX_SEARCH_PAGE = 100  # /search: the 1,000 best hits
MAX_API_K = 100
MAX_API_OFFSET = 1_000
MAX_QUERY = 1_000  # characters of a search
MAX_NAME = 300  # an area, decision, list or topic name
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
GZIP_LEVEL = 5  # level 9 (Starlette's default) costs ~2x the CPU for ~3% smaller pages


def json_for_script(data: Any) -> str:
    """JSON safe to put inside <script type="application/json">: no '<' can end the tag."""
    return (
        json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        .replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
    )


class MapCache:
    """The stored map of a scope, looked at again at most every few seconds (it is read
    on every paper page; a rebuilt map shows up within MAP_CACHE_SECONDS), and reloaded
    only when the store has changed since (`generation`): reading 15k assignments takes
    ~0.3 s, a pause for every page in flight."""

    def __init__(self, atlas: Atlas, generation: Callable[[], object] | None = None):
        self.atlas = atlas
        self.generation = generation or (lambda: object())  # no generation: always reload
        self._lock = threading.Lock()
        self._cache: dict[str | None, tuple[float, dict | None, object]] = {}
        # counts the reloads that found a different map: part of the page cache's key
        self.serial = 0

    def get(self, list_name: str | None = None) -> dict | None:
        now = time.monotonic()
        hit = self._cache.get(list_name)
        if hit and now - hit[0] < MAP_CACHE_SECONDS:
            return hit[1]
        generation = self.generation()
        if hit and hit[2] == generation:
            self._cache[list_name] = (now, hit[1], generation)
            return hit[1]
        stored = self._load(list_name)
        if stored is not None:
            stored["by_paper"] = {a["paper_id"]: a for a in stored["assignments"]}
            stored["by_topic"] = {(t["level"], t["topic_id"]): t for t in stored["topics"]}
        with self._lock:
            if _map_identity(hit[1] if hit else None) != _map_identity(stored):
                self.serial += 1
            self._cache[list_name] = (now, stored, generation)
        return stored

    def _load(self, list_name: str | None) -> dict | None:
        store = self.atlas.store
        if list_name:
            return store.get_map(list_name)
        stored = store.get_map("*")
        if stored is None:  # a map of one list is better than none
            for name in reversed(store.list_names()):
                stored = store.get_map(name)
                if stored is not None:
                    break
        return stored


def _map_identity(stored: dict | None) -> tuple | None:
    if stored is None:
        return None
    return (stored["scope"], stored["model"], stored["signature"], stored["created_at"])


def create_app(
    db_path: str | Path | None = None,
    page_cache: bool = True,
    freeze_after_start: bool = False,
    allow_hosts: tuple[str, ...] = (),
    read_only: bool = False,
) -> FastAPI:
    """The app over one atlas. `freeze_after_start`: for a server process, leave what the
    start loaded out of Python's garbage collections (see freeze_memory). `allow_hosts`:
    host names it answers besides 127.0.0.1, localhost and [::1]; `read_only`: every
    state-changing request is refused and the store is opened read-only (web/guard.py)."""
    atlas = open_atlas(db_path, read_only)
    read_only = atlas.read_only  # also when the file cannot be written
    generation = atlas.store.generation()  # commits of every thread and process
    maps = MapCache(atlas, generation.current)
    warm = threading.Event()
    threads = int(os.environ.get("PAPERATLAS_WEB_THREADS", "") or WRITE_THREADS)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        import anyio.to_thread

        anyio.to_thread.current_default_thread_limiter().total_tokens = threads
        await anyio.to_thread.run_sync(warm_up)
        yield

    def warm_up() -> None:
        """Load what the first pages would otherwise wait for (the map, the vector index,
        the query model: ~2 s on 15k papers), before this process takes requests."""
        maps.get(None)
        try:
            from paperatlas.search import search

            search(atlas.store, "warm up", k=1)
        except (PaperatlasError, ImportError):  # no vectors yet: pages say so themselves
            pass
        # every word's postings and every paper's similar papers, in the background:
        # pages before it is done compute their own
        threading.Thread(target=preload, name="paperatlas-preload", daemon=True).start()
        freeze_memory()

    def freeze_memory() -> None:
        # What is loaded by now lives as long as a server process. Python's full
        # collections would walk all of it (modules, map, caches) again and again,
        # pausing every page in flight for ~100 ms; frozen objects are left out of them.
        if freeze_after_start:
            gc.freeze()

    def preload() -> None:
        try:
            from paperatlas import search
            from paperatlas.search import keyword as keyword_index

            keyword_index.preload(atlas.store)
            search.precompute_similar(atlas.store)
            try:  # what a first Chinese query would load (cross-lingual terms: seconds)
                search.search(atlas.store, "预热", k=1)
            except PaperatlasError:  # no vectors yet: nothing to load
                pass
        except Exception:  # a speed-up only: searches and paper pages work without it
            import logging

            logging.getLogger("paperatlas.web").exception("preload failed")
        freeze_memory()
        warm.set()

    app = FastAPI(title="paperatlas", docs_url=None, redoc_url=None, openapi_url=None, lifespan=lifespan)
    app.state.atlas = atlas
    # Innermost first. Defence in depth behind escaping: pages may run only the app's own
    # scripts (CSP). The map's JSON shrinks ~4x with gzip. Pages are kept, compressed,
    # while the store and the loaded map stay the same.
    app.add_middleware(SecurityHeaders, headers=SECURITY_HEADERS)
    app.add_middleware(GZipMiddleware, minimum_size=4096, compresslevel=GZIP_LEVEL)
    if page_cache:
        app.add_middleware(
            PageCache, version=lambda: (generation.current(), maps.serial), max_age=MAP_CACHE_SECONDS
        )
    # outermost: a refused request never reaches the page cache (its key has no Host)
    app.add_middleware(RequestGuard, allow_hosts=allow_hosts, read_only=read_only)

    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    # auto_reload off: templates do not change under a running app (saves a stat a page)
    env = _PageEnvironment(
        loader=FileSystemLoader(HERE / "templates"),
        auto_reload=False,
        autoescape=select_autoescape(("html", "xml"), default=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["thousands"] = lambda n: f"{n:,}" if isinstance(n, int) else n
    env.tests["safe_url"] = lambda u: u.startswith(("http://", "https://"))  # no javascript: links
    env.filters["link_kind"] = _link_kind

    def render(request: Request, template: str, status: int = 200, **context) -> HTMLResponse:
        asked = request.query_params.get("lang")
        if status == 200 and asked not in (None, "", *LANGUAGES):  # an error page never fails
            raise HTTPException(400, f"lang must be one of {', '.join(LANGUAGES)}")
        lang = lang_of(asked)

        def link(path: str, **params) -> str:
            if not params:  # most links: a paper, a topic
                return path if lang == "en" else f"{path}?lang={lang}"
            params = {k: v for k, v in params.items() if v not in (None, "")}
            if lang != "en":
                params["lang"] = lang
            return path + ("?" + urlencode(params) if params else "")

        switch = {k: v for k, v in request.query_params.items() if k != "lang"}
        if lang == "en":
            switch["lang"] = "zh"
        switch_url = request.url.path + ("?" + urlencode(switch) if switch else "")
        t = translator(lang)
        html = env.get_template(template).render(
            t=t,
            lang=lang,
            link=link,
            card=card_renderer(env, t, link),
            request=request,
            switch_url=switch_url,
            path=request.url.path,
            stats_total=context.pop("stats_total", None),
            **context,
        )
        return HTMLResponse(html, status_code=status)

    def topic_of(stored: dict | None, paper_id: str) -> dict | None:
        if not stored:
            return None
        a = stored["by_paper"].get(paper_id)
        if a is None:
            return None
        broad = stored["by_topic"].get((0, a["broad"]))
        fine = stored["by_topic"].get((1, a["fine"]))
        return {"broad": broad, "fine": fine, "outlier": bool(a["outlier"])}

    vocabulary_cache: dict[str, tuple[object, dict[str, set[str]]]] = {}

    def vocabulary() -> dict[str, set[str]]:
        """The areas and decisions the store's papers have: what a filter may name."""
        version = generation.current()
        hit = vocabulary_cache.get("all")
        if hit and hit[0] == version:
            return hit[1]
        stats = atlas.store.list_stats(None)
        words = {
            "area": set(stats["by_area"]) - {"(unknown)"},
            "decision": set(stats["by_decision"]) - {"(unknown)"},
        }
        vocabulary_cache["all"] = (version, words)
        return words

    def check_filters(
        area: str | None = None,
        kind: str | None = None,
        decision: str | None = None,
        list_name: str | None = None,
    ) -> None:
        """400 for a filter value no paper can have; 404 for a list that does not exist."""
        if kind and kind not in KINDS:
            raise HTTPException(400, f"unknown kind (one of {', '.join(KINDS)})")
        if area and area not in vocabulary()["area"]:
            raise HTTPException(400, "unknown area")
        if decision and not any(
            d.lower().startswith(decision.lower())  # a prefix filter:
            for d in vocabulary()["decision"]
        ):  # "Accept" (Oral, Poster)
            raise HTTPException(400, "unknown decision")
        if list_name and list_name not in atlas.store.list_names():
            raise HTTPException(404)

    def liked_ids() -> set[str]:
        return {pid for _, pid, value in atlas.store.marks("likes") if value > 0}

    def cards(rows: list[dict], stored: dict | None) -> list[dict]:
        """Paper rows as web/cards.py wants them (title or display title, topic, star)."""
        liked = liked_ids()
        missing = [r["id"] for r in rows if r.get("facts") is None]
        fetched = atlas.store.card_facts(missing) if missing else {}  # one query, not one each
        out = []
        for r in rows:
            facts = r.get("facts")
            if facts is None:
                facts = fetched.get(r["id"], {})
            out.append(
                {
                    "id": r["id"],
                    "title": r.get("title"),
                    "display_title": r.get("display_title") or facts.get("display_title"),
                    "name": r.get("name") or facts.get("name"),
                    "kind": r.get("kind") or facts.get("kind"),
                    "area": r.get("area") or r.get("predicted_area"),
                    "decision": r.get("decision"),
                    "gist": facts.get("gist"),
                    "has_code": bool(r.get("has_code") or facts.get("has_code")),
                    "topic": topic_of(stored, r["id"]),
                    "liked": r["id"] in liked,
                    "why": r.get("why"),
                    "snippet": r.get("snippet"),
                    "abstract": r.get("abstract"),
                }
            )
        return out

    # -- pages -------------------------------------------------------------------------------

    @app.get("/healthz")
    async def healthz() -> dict:  # no store access: the framework's own floor
        # warm: this process has finished its background preload (pages are at full speed)
        return {"ok": True, "warm": warm.is_set()}

    overview_cache: dict[str | None, tuple[float, dict]] = {}

    def overview_counts(list_name: str | None) -> dict:
        """Counts by area, decision and kind; a full scan, so kept for a few seconds."""
        hit = overview_cache.get(list_name)
        if hit and time.monotonic() - hit[0] < MAP_CACHE_SECONDS:
            return hit[1]
        store = atlas.store
        kinds: dict[str, int] = {}
        with_code = 0
        for row in store.iter_papers(list_name=list_name):
            k = row.get("kind") or "(unknown)"
            kinds[k] = kinds.get(k, 0) + 1
            with_code += int(bool(row.get("has_code")))
        counts = {"stats": store.list_stats(list_name), "kinds": kinds, "with_code": with_code}
        overview_cache[list_name] = (time.monotonic(), counts)
        return counts

    @app.get("/", response_class=HTMLResponse)
    async def overview(request: Request, list: Name = None):
        store = atlas.store
        check_filters(list_name=list)
        counts = overview_counts(list or None)
        stats, kinds, with_code = counts["stats"], counts["kinds"], counts["with_code"]
        stored = maps.get(list or None)
        broad = [t for t in (stored or {}).get("topics", []) if t["level"] == 0]
        return render(
            request,
            "overview.html",
            stats=stats,
            kinds=kinds,
            with_code=with_code,
            topics=sorted(broad, key=lambda t: -t["size"]),
            stored=stored,
            lists=store.list_names(),
            list_name=list,
        )

    @app.get("/map", response_class=HTMLResponse)
    async def map_page(request: Request, list: Name = None):
        check_filters(list_name=list)
        stored = maps.get(list or None)
        return render(request, "map.html", stored=stored, list_name=list)

    @app.get("/api/map")
    async def api_map(list: Name = None):
        stored = maps.get(list or None)
        if stored is None:
            raise HTTPException(404, "no map: run `paperatlas map`")
        from paperatlas.atlas import map_view

        return JSONResponse(map_view(stored, atlas.store))

    @app.get("/papers", response_class=HTMLResponse)
    async def papers_page(
        request: Request,
        area: Name = None,
        kind: Name = None,
        topic: Name = None,
        decision: Name = None,
        has_code: Name = None,
        sort: Name = None,
        page: Page = 1,
        list: Name = None,
    ):
        check_filters(area=area, kind=kind, decision=decision, list_name=list)
        if has_code not in (None, "", "0", "1"):
            raise HTTPException(400, "has_code must be 1 or 0")
        if sort and sort not in SORTS:
            raise HTTPException(400, f"unknown sort (one of {', '.join(SORTS)})")
        sort = sort or "list"
        level_topic = _parse_topic(topic)
        if topic and level_topic is None:
            raise HTTPException(400, "topic must be a number, or f and a number")
        store = atlas.store
        stored = maps.get(list or None)
        filters: dict[str, Any] = {
            "area": area or None,
            "kind": kind or None,
            "decision": decision or None,
            "list_name": list or None,
        }
        if has_code in ("1", "0"):
            filters["has_code"] = has_code == "1"
        if level_topic is not None and stored is not None:
            level, tid = level_topic
            key = "broad" if level == 0 else "fine"
            filters["ids"] = [a["paper_id"] for a in stored["assignments"] if a[key] == tid]
        if sort == "list":
            rows = list_(store.iter_papers(**filters, limit=PAGE_SIZE + 1, offset=(page - 1) * PAGE_SIZE))
            more = len(rows) > PAGE_SIZE
            rows = rows[:PAGE_SIZE]
            total = None
        else:
            every = list_(store.iter_papers(**filters))
            key = {
                "title": lambda r: (r.get("title") or r.get("display_title") or "").lower(),
                "rating": lambda r: -(r.get("rating") or -1),
                "name": lambda r: (not r.get("name"), (r.get("name") or "").lower()),
            }[sort]
            every.sort(key=key)
            total = len(every)
            rows = every[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]
            more = page * PAGE_SIZE < total
        facts = store.card_facts([r["id"] for r in rows])
        for r in rows:
            r["facts"] = facts.get(r["id"], {})
        stats = store.list_stats(list or None)
        topics = sorted(
            (t for t in (stored or {}).get("topics", []) if t["level"] == 0), key=lambda t: t["label"].lower()
        )
        kinds = ["method", "benchmark", "dataset", "analysis", "theory"]
        decisions = [d for d in stats["by_decision"] if d != "(unknown)"]
        params = {
            "area": area,
            "kind": kind,
            "topic": topic,
            "decision": decision,
            "has_code": has_code,
            "sort": sort if sort != "list" else None,
            "list": list,
        }
        return render(
            request,
            "papers.html",
            cards=cards(rows, stored),
            page=page,
            more=more,
            total=total,
            areas=[a for a in stats["by_area"] if a != "(unknown)"],
            kinds=kinds,
            decisions=decisions,
            topics=topics,
            params=params,
            sorts=SORTS,
        )

    @app.get("/search", response_class=HTMLResponse)
    async def search_page(
        request: Request,
        q: Query_ = "",
        page: SearchPage = 1,
        area: Name = None,
        kind: Name = None,
        list: Name = None,
    ):
        check_filters(area=area, kind=kind, list_name=list)
        q = q.strip()
        result, hits, note = None, [], None
        if q:
            result, hits, note = _run_search(
                atlas, q, page, area=area or None, kind=kind or None, list_name=list or None
            )
        stored = maps.get(list or None)
        return render(
            request,
            "search.html",
            q=q,
            cards=cards(hits, stored),
            result=result,
            note=note,
            page=page,
            more=bool(result and result.get("total", 0) > page * SEARCH_PAGE_SIZE),
        )

    @app.get("/papers/{paper_id:path}", response_class=HTMLResponse)  # DBLP ids hold "/"
    async def paper_page(request: Request, paper_id: str):
        # the topic comes from the map this app keeps loaded (topic_of), not from Atlas.paper
        paper = atlas.paper(paper_id, topics=False) if paper_id else None
        if paper is None:
            raise HTTPException(404)
        stored = maps.get(None)
        topic = topic_of(stored, paper["id"])
        similar_rows = _similar_rows(atlas, paper, k=10)
        liked = paper["id"] in liked_ids()
        return render(
            request,
            "paper.html",
            paper=paper,
            facts=paper.get("facts") or {},
            topic=topic,
            similar=cards(similar_rows, stored),
            liked=liked,
        )

    @app.get("/topics/{topic_id}", response_class=HTMLResponse)
    async def topic_page(
        request: Request, topic_id: str, level: Annotated[int, Query(ge=0, le=1)] = 0, list: Name = None
    ):
        check_filters(list_name=list)
        stored = maps.get(list or None)
        if stored is None or not (topic_id.isascii() and topic_id.isdigit()):
            raise HTTPException(404)
        topic = stored["by_topic"].get((level, int(topic_id)))
        if topic is None:
            raise HTTPException(404)
        key = "broad" if level == 0 else "fine"
        member_ids = [a["paper_id"] for a in stored["assignments"] if a[key] == topic["topic_id"]]
        rows = list_(atlas.store.iter_papers(ids=member_ids))
        # representative papers first, then the rest in list order
        rep = topic["data"].get("representative", [])
        rank = {pid: i for i, pid in enumerate(rep)}
        rows.sort(key=lambda r: rank.get(r["id"], len(rep)))
        facts = atlas.store.card_facts([r["id"] for r in rows[:200]])
        for r in rows[:200]:
            r["facts"] = facts.get(r["id"], {})
        if level == 0:
            children = sorted(
                (t for t in stored["topics"] if t["level"] == 1 and t["parent_id"] == topic["topic_id"]),
                key=lambda t: -t["size"],
            )
            parent = None
        else:
            children = []
            parent = stored["by_topic"].get((0, topic["parent_id"]))
        return render(
            request,
            "topic.html",
            topic=topic,
            level=level,
            children=children,
            parent=parent,
            cards=cards(rows[:200], stored),
            shown=min(200, len(rows)),
        )

    # -- JSON -------------------------------------------------------------------------------------

    @app.get("/api/marks")
    async def api_marks() -> dict:
        return {"liked": sorted(liked_ids())}

    @app.post("/api/marks")
    async def api_mark(request: Request) -> dict:
        # web/guard.py has checked the origin, the JSON content type and the size
        paper_id, liked = _mark_request(await request.body())
        from starlette.concurrency import run_in_threadpool

        return await run_in_threadpool(_set_mark, atlas, paper_id, liked)

    @app.get("/api/search")
    async def api_search(
        q: Query_,
        k: Annotated[int, Query(ge=1, le=MAX_API_K)] = 20,
        offset: Annotated[int, Query(ge=0, le=MAX_API_OFFSET)] = 0,
    ):
        from paperatlas.search import search

        try:
            return JSONResponse(search(atlas.store, q, k=k, offset=offset).to_dict())
        except PaperatlasError as exc:
            raise HTTPException(400, str(exc)) from None

    # -- errors -------------------------------------------------------------------------------------

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException):
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": exc.detail}, status_code=exc.status_code)
        if exc.status_code == 404:
            return render(
                request,
                "error.html",
                status=404,
                code=404,
                title_key="not_found",
                message_key="not_found_text",
            )
        return render(
            request,
            "error.html",
            status=exc.status_code,
            code=exc.status_code,
            title_key="error",
            message_key=None,
            detail=str(exc.detail),
        )

    @app.exception_handler(RequestValidationError)
    async def bad_parameter(request: Request, exc: RequestValidationError):
        # "/topics/3?level=abc", "/papers?page=99999999999999999999999": one short line
        message = _parameter_message(exc)
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": message}, status_code=400)
        return render(
            request, "error.html", status=400, code=400, title_key="error", message_key=None, detail=message
        )

    @app.exception_handler(Exception)
    async def server_error(request: Request, exc: Exception):
        # never show a traceback to the browser; the server log has it
        import logging

        logging.getLogger("paperatlas.web").exception("error on %s", request.url.path)
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": "internal error"}, status_code=500)
        return render(
            request, "error.html", status=500, code=500, title_key="error", message_key=None, detail=None
        )

    return app


list_ = list  # the route parameters named `list` shadow the builtin inside handlers

# The query parameters' types: out of bounds or of the wrong type is a 400 (bad_parameter).
Name = Annotated[str | None, Query(max_length=MAX_NAME)]
Page = Annotated[int, Query(ge=1, le=MAX_PAGE)]
SearchPage = Annotated[int, Query(ge=1, le=MAX_SEARCH_PAGE)]
Query_ = Annotated[str, Query(max_length=MAX_QUERY)]
MARK_KEYS = {"id", "liked"}


def _parameter_message(exc: RequestValidationError) -> str:
    """'bad parameter page: Input should be less than or equal to 10000' (the first error)."""
    errors = exc.errors()
    if not errors:
        return "bad parameters"
    first = errors[0]
    where = ".".join(str(part) for part in first.get("loc", ())[1:]) or "request"
    return f"bad parameter {where}: {first.get('msg', 'invalid')}"[:200]


def _mark_request(raw: bytes) -> tuple[str, bool]:
    """(paper id, liked) from a like's body, `{"id": "...", "liked": true|false}` and
    nothing else: a string where true/false belongs ({"liked": "no"}) is refused, not
    taken as a like."""
    usage = 'send JSON: {"id": "<paper id>", "liked": true|false}'
    try:
        body = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        raise HTTPException(400, usage) from None
    if (
        not isinstance(body, dict)
        or set(body) != MARK_KEYS
        or not isinstance(body["id"], str)
        or type(body["liked"]) is not bool
        or not 0 < len(body["id"]) <= MAX_NAME
        or "\x00" in body["id"]
    ):
        raise HTTPException(400, usage)
    return body["id"], body["liked"]


def _link_kind(url: str) -> str:
    """code | project | data (the badge of a list's side link on the paper page)."""
    from paperatlas.identifiers import link_kind

    kind = link_kind(url)
    return kind if kind in ("project", "data") else "code"


class _PageEnvironment(Environment):
    """Jinja with `row.title` looked up as a key first when `row` is a dict (pages get
    their rows as dicts). Jinja's own order, attribute first, raises and catches an
    AttributeError for every such lookup: a few hundred per page, ~15% of rendering."""

    def getattr(self, obj, attribute):
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass  # a method (`row.items`) or nothing: Jinja's way decides
        return super().getattr(obj, attribute)


def _parse_topic(value: str | None) -> tuple[int, int] | None:
    """'12' -> broad topic 12; 'f40' -> fine topic 40."""
    if not value:
        return None
    level = 1 if value.startswith("f") else 0
    digits = value[1:] if level else value
    ok = digits.isascii() and digits.isdigit() and len(digits) <= 9
    return (level, int(digits)) if ok else None


def open_atlas(db_path: str | Path | None, read_only: bool) -> Atlas:
    """The app's atlas; read-only: nothing of the file is written, not even a migration."""
    return Atlas(db_path, read_only=True if read_only else None)


def _hit_row(hit) -> dict:
    # attributes, not hit.to_dict(): dataclasses.asdict deep-copies every snippet piece,
    # which cost more than rendering the page
    return {
        "id": hit.id,
        "title": hit.title,
        "display_title": hit.display_title,
        "area": hit.area,
        "decision": hit.decision,
        "kind": hit.kind,
        "why": hit.why(),
        "snippet": hit.snippet,
    }


def _similar_rows(atlas: Atlas, paper: dict, k: int) -> list[dict]:
    """The k papers closest in meaning, as `paperatlas similar ID` ranks them, as paper
    rows for cards (their cards show each paper's gist, not the abstract's start)."""
    try:
        from paperatlas import search
        from paperatlas.embed import embedding_text
    except ImportError:
        return []
    store = atlas.store
    try:
        text = embedding_text(paper.get("title"), paper.get("abstract"))
        ranked, _, _ = search.similar_ranking(store, text, k, exclude=paper["id"])
    except (PaperatlasError, ImportError):  # no vectors or model: the page still shows the paper
        return []
    rows = {r["id"]: r for r in store.iter_papers(ids=[pid for pid, _ in ranked])}
    return [rows[pid] for pid, _ in ranked if pid in rows]


def _run_search(atlas: Atlas, q: str, page: int, **filters) -> tuple[dict | None, list[dict], str | None]:
    """Hybrid search through search.py; plain FTS when it is not available."""
    try:
        from paperatlas.search import search
    except ImportError:
        search = None
    if search is not None:
        note = None
        try:
            res = search(atlas.store, q, k=SEARCH_PAGE_SIZE, offset=(page - 1) * SEARCH_PAGE_SIZE, **filters)
        except PaperatlasError as exc:
            from paperatlas.search import SearchError

            if isinstance(exc, SearchError):  # the query itself is at fault: say so
                return None, [], str(exc)
            # vectors unusable (model not installed, ...): keyword ranking still works
            note = "fts_fallback"
            try:
                res = search(
                    atlas.store,
                    q,
                    k=SEARCH_PAGE_SIZE,
                    offset=(page - 1) * SEARCH_PAGE_SIZE,
                    method="keyword",
                    **filters,
                )
            except PaperatlasError as exc2:
                return None, [], str(exc2)
        summary = {"total": res.total, "mode": res.mode, "model": res.model}
        return summary, [_hit_row(h) for h in res.hits], note or "; ".join(res.notes) or None
    # fallback: FTS5 only, user words quoted so no query syntax gets through
    terms = [w for w in q.replace('"', " ").split() if w]
    if not terms:
        return None, [], None
    match = " ".join(f'"{w}"' for w in terms)
    ranked = atlas.store.fts_search(match, limit=page * SEARCH_PAGE_SIZE)
    ids = [pid for pid, _ in ranked][(page - 1) * SEARCH_PAGE_SIZE :]
    rows = atlas.store.get_papers(ids)
    return {"total": len(ranked), "mode": "keyword"}, rows, "fts_fallback"


def _set_mark(atlas: Atlas, paper_id: str, liked: bool) -> dict:
    full = atlas.store.resolve_id(paper_id)
    if full is None:
        raise HTTPException(404, f"no paper {paper_id!r}")
    try:
        if liked:
            atlas.like([full])
        else:
            atlas.unlike([full])
    except ImportError:  # recommend stage not installed: write the mark directly
        with atlas.store.transaction():
            if liked:
                atlas.store.set_mark("likes", full, 1)
            else:
                atlas.store.remove_mark("likes", full)
    return {"id": full, "liked": liked}


def bar_width(value: int, maximum: int) -> float:
    return 0.0 if maximum <= 0 else round(100.0 * value / maximum, 2)


__all__ = ["bar_width", "create_app", "json_for_script", "math"]


def app_from_env() -> FastAPI:
    """The app of one server process, for `uvicorn --factory
    paperatlas.web.app:app_from_env` (what `paperatlas serve` runs): the atlas named by
    $PAPERATLAS_DB, served as web/server.py's worker_settings say (allowed hosts,
    read-only); PAPERATLAS_PAGE_CACHE=0 turns the page cache off. A worker process of
    `serve` ends with its parent (server.die_with_parent)."""
    from paperatlas.store import default_db_path
    from paperatlas.web.server import die_with_parent, worker_settings

    die_with_parent()
    tune_process()
    return create_app(
        default_db_path(),
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
