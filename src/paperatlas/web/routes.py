"""`Routes`: a page group's routes, declared in its module and added to the app by
web/app.py. Not FastAPI's APIRouter: an included router stays a nested router that every
request is matched through (FastAPI >= 0.16x), and the app's route list would no longer
show the routes themselves; these are added to the app as if declared on it.

Every GET route answers HEAD too (the same status and headers, no body: HTTP requires
HEAD wherever GET is, and link checkers and `curl -I` use it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI

Endpoint = Callable[..., Any]


class Routes:
    def __init__(self) -> None:
        self._routes: list[tuple[str, str, Endpoint, dict[str, Any]]] = []

    def get(self, path: str, **options: Any) -> Callable[[Endpoint], Endpoint]:
        return self._route("GET", path, options)

    def post(self, path: str, **options: Any) -> Callable[[Endpoint], Endpoint]:
        return self._route("POST", path, options)

    def _route(self, method: str, path: str, options: dict[str, Any]) -> Callable[[Endpoint], Endpoint]:
        def declare(endpoint: Endpoint) -> Endpoint:
            self._routes.append((method, path, endpoint, options))
            return endpoint

        return declare

    def add_to(self, app: FastAPI) -> None:
        """Add these routes to the app, in the order they were declared."""
        for method, path, endpoint, options in self._routes:
            methods = ["GET", "HEAD"] if method == "GET" else [method]
            app.add_api_route(path, endpoint, methods=methods, **options)
