"""A paper's card (the box every list, search result and similar-papers row is made of),
written in Python rather than as a Jinja macro.

A page shows 10 to 200 cards; as a macro each one cost ~0.1 ms of Jinja machinery
(a new context per call, an interface string lookup per label, a filter per field),
about a quarter of a search page. Here the labels are looked up once per page, and every
value from the store goes through markupsafe's escape, as autoescaping would do.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from jinja2 import Environment
from markupsafe import Markup, escape

GIST_CHARS = 260  # an abstract standing in for a missing gist is cut near here


def card_renderer(
    env: Environment,
    t: Callable[[str], str],
    link: Callable[..., str],
    gloss: Callable[[str, str | None], str | None] = lambda what, value: value,
    chinese: bool = False,
) -> Callable[[dict[str, Any]], Markup]:
    """card(p) -> the card's HTML, for one page's language (`t`, and `gloss(what, value)`
    for the kind, topic, area and decision badges; `chinese`: a model's Chinese summary,
    where there is one, in place of the gist) and links (`link`)."""
    liked_label, like_label = escape(t("liked")), escape(t("like"))
    untitled, with_code, why_label = escape(t("untitled")), escape(t("with_code")), escape(t("why"))
    title_only = escape(t("title_only"))
    written_note = escape(t("display_title_note"))
    truncate = env.filters["truncate"]
    links: dict[tuple[object, ...], str] = {}  # a page's cards share a few kind and topic links

    def badge_link(path: str, **params: str) -> str:
        key = (path, *params.items())
        if key not in links:
            links[key] = str(escape(link(path, **params)))
        return links[key]

    def card(p: dict[str, Any]) -> Markup:
        pid = escape(p["id"])
        liked = bool(p.get("liked"))
        title = p.get("title") or p.get("display_title")
        written = (
            "" if p.get("title") or not title else f' class="written" title="{written_note}"'
        )  # paperatlas wrote it: set apart
        out = [
            f'<article class="card" data-paper="{pid}">\n  <div class="card-head">\n'
            f'    <button type="button" class="star{" on" if liked else ""}" data-id="{pid}" '
            f'aria-pressed="{"true" if liked else "false"}"\n'
            f'  title="{liked_label if liked else like_label}" data-label-on="{liked_label}" '
            f'data-label-off="{like_label}">{"★" if liked else "☆"}</button>\n'
            f'    <h3 class="card-title"><a href="'
            f'{escape(link("/papers/" + quote(str(p["id"]), safe="")))}"{written}>'
            f'{escape(title) if title else untitled}</a></h3>\n  </div>\n  <div class="badges">\n'
        ]
        badges = []
        if p.get("name"):
            badges.append(f'<span class="badge name">{escape(p["name"])}</span>')
        if p.get("kind"):
            kind = escape(p["kind"])
            badges.append(
                f'<a class="badge kind kind-{kind}" href="{badge_link("/papers", kind=p["kind"])}">'
                f"{escape(gloss('kind', p['kind']))}</a>"
            )
        broad = (p.get("topic") or {}).get("broad")
        if broad:
            badges.append(
                f'<a class="badge topic" href="'
                f'{badge_link("/topics/" + str(broad["topic_id"]))}">'
                f"{escape(gloss('label', broad['label']))}</a>"
            )
        if p.get("area"):
            badges.append(f'<span class="badge area">{escape(gloss("area", p["area"]))}</span>')
        decision = p.get("decision")
        if decision:
            accepted = " accepted" if str(decision).startswith("Accept") else ""
            badges.append(
                f'<span class="badge decision{accepted}">{escape(gloss("decision", decision))}</span>'
            )
        if p.get("has_code"):
            badges.append(f'<span class="badge code">{with_code}</span>')
        if p.get("title_only"):
            badges.append(f'<span class="badge title-only">{title_only}</span>')
        out.append("".join(badges))
        out.append("  </div>\n")
        if p.get("snippet"):
            pieces = "".join(
                f"<mark>{escape(s['text'])}</mark>" if s.get("match") else str(escape(s["text"]))
                for s in p["snippet"]
            )
            out.append(f'  <p class="snippet">{pieces}</p>\n')
        elif chinese and p.get("summary_zh"):
            out.append(f'  <p class="gist" lang="zh-CN">{escape(p["summary_zh"])}</p>\n')
        elif p.get("gist"):
            out.append(f'  <p class="gist">{escape(p["gist"])}</p>\n')
        elif p.get("abstract"):
            out.append(f'  <p class="gist">{escape(truncate(env, p["abstract"], GIST_CHARS))}</p>\n')
        if p.get("why"):
            out.append(f'<p class="why">{why_label}: {escape(p["why"])}</p>')
        out.append("</article>")
        return Markup("".join(out))

    return card
