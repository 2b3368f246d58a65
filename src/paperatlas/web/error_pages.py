"""What a request that fails gets: an error page in the page's language, or for `/api/`
one line of JSON. Never a traceback (the server log has it)."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from paperatlas.web.context import context
from paperatlas.web.params import parameter_message

log = logging.getLogger("paperatlas.web")


def install(app: FastAPI) -> None:
    """Register the app's error handlers."""
    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_exception_handler(RequestValidationError, bad_parameter)
    app.add_exception_handler(Exception, server_error)


def _is_api(request: Request) -> bool:
    return request.url.path.startswith("/api/")


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, StarletteHTTPException)  # what it is registered for
    if _is_api(request):
        return JSONResponse({"error": exc.detail}, status_code=exc.status_code)
    render = context(request).render
    if exc.status_code == 404:
        return render(
            request, "error.html", status=404, code=404, title_key="not_found", message_key="not_found_text"
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


async def bad_parameter(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestValidationError)  # what it is registered for
    # "/topics/3?level=abc", "/papers?page=99999999999999999999999": one short line
    message = parameter_message(exc)
    if _is_api(request):
        return JSONResponse({"error": message}, status_code=400)
    return context(request).render(
        request, "error.html", status=400, code=400, title_key="error", message_key=None, detail=message
    )


async def server_error(request: Request, exc: Exception) -> Response:
    log.exception("error on %s", request.url.path)
    if _is_api(request):
        return JSONResponse({"error": "internal error"}, status_code=500)
    return context(request).render(
        request, "error.html", status=500, code=500, title_key="error", message_key=None, detail=None
    )
