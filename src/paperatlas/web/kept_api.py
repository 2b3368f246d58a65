"""The JSON endpoints that change what a person keeps about a paper: its triage state
(`POST /api/state`), its note (`POST /api/note`) and its tags (`POST /api/tags`); likes
stay `POST /api/marks` (api_routes.py). web/guard.py has checked every request's origin,
JSON content type and size before it gets here; each body is read strictly (exactly its
keys, each of its type), and what it asks for runs in a thread: it writes."""

from __future__ import annotations

from typing import Any

from fastapi import HTTPException, Request
from starlette.concurrency import run_in_threadpool

from paperatlas.api import Atlas
from paperatlas.errors import PaperatlasError
from paperatlas.web.context import context
from paperatlas.web.params import MAX_NAME, is_clean_text, json_body
from paperatlas.web.routes import Routes

routes = Routes()
STATES = ("read", "skipped", "saved")
MAX_TAGS_ASKED = 50


def _body(raw: bytes, keys: set[str], usage: str) -> dict[str, Any]:
    """The request's JSON object with exactly `keys` and a clean paper id, else a 400."""
    body = json_body(raw, usage)
    if (
        not isinstance(body, dict)
        or set(body) != keys
        or not isinstance(body["id"], str)
        or not 0 < len(body["id"]) <= MAX_NAME
        or not is_clean_text(body["id"])
    ):
        raise HTTPException(400, usage)
    return body


def _run(atlas: Atlas, paper_id: str, work: Any) -> dict[str, Any]:
    """work(full id) for a paper named by id or unique prefix: 404 for none, a
    PaperatlasError (a bad tag, a note too long, a read-only atlas) as a 400 saying why."""
    full = atlas.resolve_id(paper_id)
    if full is None:
        raise HTTPException(404, f"no paper {paper_id!r}")
    try:
        work(full)
    except PaperatlasError as exc:
        raise HTTPException(400, str(exc)) from None
    kept = atlas.kept([full]).get(full)
    return {
        "id": full,
        "state": kept.state if kept else None,
        "note": kept.note if kept else "",
        "tags": list(kept.tags) if kept else [],
    }


@routes.post("/api/state")
async def api_state(request: Request) -> dict:
    usage = 'send JSON: {"id": "<paper id>", "state": "read"|"skipped"|"saved"|null}'
    body = _body(await request.body(), {"id", "state"}, usage)
    state = body["state"]
    if state is not None and state not in STATES:
        raise HTTPException(400, usage)
    atlas = context(request).atlas
    return await run_in_threadpool(_run, atlas, body["id"], lambda pid: atlas.set_state([pid], state))


@routes.post("/api/note")
async def api_note(request: Request) -> dict:
    usage = 'send JSON: {"id": "<paper id>", "note": "<Markdown text, empty to remove>"}'
    body = _body(await request.body(), {"id", "note"}, usage)
    if not isinstance(body["note"], str):
        raise HTTPException(400, usage)
    atlas = context(request).atlas
    return await run_in_threadpool(_run, atlas, body["id"], lambda pid: atlas.set_note(pid, body["note"]))


@routes.post("/api/tags")
async def api_tags(request: Request) -> dict:
    usage = 'send JSON: {"id": "<paper id>", "add": ["<tag>", ...], "remove": ["<tag>", ...]}'
    body = _body(await request.body(), {"id", "add", "remove"}, usage)
    lists = (body["add"], body["remove"])
    if not all(
        isinstance(v, list) and len(v) <= MAX_TAGS_ASKED and all(isinstance(t, str) for t in v) for v in lists
    ):
        raise HTTPException(400, usage)
    atlas = context(request).atlas

    def change(pid: str) -> None:
        if body["remove"]:
            atlas.untag([pid], body["remove"])
        if body["add"]:
            atlas.tag([pid], body["add"])

    return await run_in_threadpool(_run, atlas, body["id"], change)
