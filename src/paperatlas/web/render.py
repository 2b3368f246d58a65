"""Pages as HTML: the Jinja environment (autoescape on, so every title, abstract and
label is text, never markup) and `PageRenderer`, which gives each template the page's
language (`page_lang`: the URL's `?lang=`, else the browser's Accept-Language), its
links, the card writer and, in Chinese, `gloss(what, value)` (kinds, areas, decisions,
topic labels as Chinese terms). `JSON`: the API's answers,
always valid JSON."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from fastapi import HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse
from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from paperatlas.api import web_reads
from paperatlas.identifiers import link_kind
from paperatlas.paper import json_text
from paperatlas.web.cards import card_renderer, triage_renderer
from paperatlas.web.fragments import Fragments
from paperatlas.web.i18n import LANGUAGES, lang_from_header, lang_of, translator

TEMPLATES = Path(__file__).parent / "templates"


class JSON(JSONResponse):
    """Starlette's JSON response, but a number JSON has no word for (a stored rating of
    1e999) is written as null instead of failing the request."""

    def render(self, content: Any) -> bytes:
        return json_text(content, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


class PageEnvironment(Environment):
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


def page_environment() -> PageEnvironment:
    """The templates' environment, with the app's filters and tests."""
    # auto_reload off: templates do not change under a running app (saves a stat a page)
    env = PageEnvironment(
        loader=FileSystemLoader(TEMPLATES),
        auto_reload=False,
        autoescape=select_autoescape(("html", "xml"), default=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["thousands"] = lambda n: f"{n:,}" if isinstance(n, int) else n
    env.tests["safe_url"] = lambda u: u.startswith(("http://", "https://"))  # no javascript: links
    env.filters["link_kind"] = side_link_kind
    return env


def side_link_kind(url: str) -> str:
    """code | project | data (the badge of a list's side link on the paper page)."""
    kind = link_kind(url)
    return kind if kind in ("project", "data") else "code"


def page_lang(request: Request) -> str:
    """The page's language: `?lang=` when the URL names one, else the browser's choice."""
    asked = request.query_params.get("lang")
    return lang_of(asked) if asked else lang_from_header(request.headers.get("accept-language"))


def _english(what: str, value: str | None) -> str | None:
    return value


class LanguageTools:
    """What a page's template is given that follows from its language alone, made once per
    language: `t`, `gloss`, `link` (a path with the language kept in it), the card and
    triage writers (with their labels looked up, and the cards they wrote kept:
    web/cards.py) and the footer's keys help, written once."""

    def __init__(self, env: Environment, lang: str) -> None:
        self.lang = lang
        self.t = translator(lang)
        self.gloss = web_reads.zh_gloss if lang == "zh" else _english
        self.card = card_renderer(env, self.t, self.link, self.gloss, chinese=lang == "zh")
        self.triage = triage_renderer(self.t)
        self.keys_help = Markup(env.get_template("_keys_help.html").render(t=self.t))

    def link(self, path: str, **params: Any) -> str:
        lang = self.lang
        if not params:  # most links: a paper, a topic
            return path if lang == "en" else f"{path}?lang={lang}"
        params = {k: v for k, v in params.items() if v not in (None, "")}
        if lang != "en":
            params["lang"] = lang
        return path + ("?" + urlencode(params) if params else "")


class PageRenderer:
    """`render(request, template, status, **context)`: a page in the language the URL asks
    for (`?lang=`), its links keeping that language. Templates write shared pieces with
    `piece(macro, *args)` (web/fragments.py): kept between pages."""

    def __init__(self) -> None:
        self.env = page_environment()
        self.fragments = Fragments()
        self._tools: dict[str, LanguageTools] = {}  # per language, made on its first page
        # the atlas's lists, for the header's list switcher (set by WebContext)
        self.lists: Callable[[], list[str]] = list

    def __call__(self, request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
        asked = request.query_params.get("lang")
        if status == 200 and asked not in (None, "", *LANGUAGES):  # an error page never fails
            raise HTTPException(400, f"lang must be one of {', '.join(LANGUAGES)}")
        lang = page_lang(request)
        tools = self._tools.get(lang) or self._tools.setdefault(lang, LanguageTools(self.env, lang))
        switch = {k: v for k, v in request.query_params.items() if k != "lang"}
        if lang == "en":
            switch["lang"] = "zh"
        elif lang_from_header(request.headers.get("accept-language")) != "en":
            switch["lang"] = "en"  # without it the browser's language would choose Chinese again
        switch_url = request.url.path + ("?" + urlencode(switch) if switch else "")
        html = self.env.get_template(template).render(
            t=tools.t,
            lang=lang,
            gloss=tools.gloss,
            link=tools.link,
            card=tools.card,
            triage=tools.triage,
            piece=partial(self.fragments.piece, lang),
            request=request,
            switch_url=switch_url,
            path=request.url.path,
            stats_total=context.pop("stats_total", None),
            header_lists=self.lists() if status == 200 else [],  # an error page reads no store
            keys_help=tools.keys_help,
            **context,
        )
        # the same URL is English or Chinese by the browser's language: caches must know
        return HTMLResponse(html, status_code=status, headers={"Vary": "Accept-Language"})
