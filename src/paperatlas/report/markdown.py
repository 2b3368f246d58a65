"""The digest as Markdown: headings, an overview, the map, one bullet per paper.

Paper text is untrusted: "<", ">", an "&" that would start an entity, and Markdown's own
syntax characters are backslash-escaped (CommonMark renders a backslash-escaped "<" as text, so no tag can
start), never turned into HTML entities, which plain-text readers would show as "&amp;".
The map is a PNG written beside the report and linked (viewers do not show data: URIs)."""

from __future__ import annotations

import re
from pathlib import Path

from paperatlas.report.digest_data import MAX_CODE, DigestData, PaperLine
from paperatlas.report.links import safe_url
from paperatlas.report.strings import group_label, narrowing_line

_MD_SPECIAL = re.compile(r"([\\`*_\[\]|~#!{}<>])")
_ENTITY_START = re.compile(r"&(?=#?\w+;)")  # "&amp;", "&#60;": would be read as an entity


def md_text(text) -> str:
    text = " ".join(str(text).split())
    return _ENTITY_START.sub(r"\\&", _MD_SPECIAL.sub(r"\\\1", text))


def md_link(label: str, url: str | None) -> str:
    url = safe_url(url)
    if url is None:
        return ""
    return f"[{label}](<{url.replace('>', '%3E')}>)"


def paper_bullet(p: PaperLine, words: dict) -> str:
    head = f"**{md_text(p.name_apart)}**: {md_text(p.title)}" if p.name_apart else md_text(p.title)
    parts = [head]
    if p.kind:
        parts.append(f"*{md_text(words['kinds'].get(p.kind, p.kind))}*")
    if p.number:
        parts.append(md_text(p.number))
    links = [md_link(words["link"], p.url), md_link(words["code"], p.code_url)]
    parts += [link for link in links if link]
    return "- " + " · ".join(parts)


def render_markdown(data: DigestData, words: dict, output: Path | None = None) -> str:
    scope = words[data.scope] if data.scope != "all" else words["all"]
    title = f"{words['digest']}: {md_text(data.heading)}" if data.heading else words["digest"]
    lines = [
        f"# {title}",
        "",
        f"*{md_text(words['generated'].format(date=data.date))} · {scope} · "
        f"{len(data.papers)} {words['papers']} · {len(data.groups)} {words['topics']}*",
        "",
    ]
    if data.narrowed_by:
        lines += [f"*{md_text(narrowing_line(data.narrowed_by, words))}*", ""]
    if not data.papers:
        return "\n".join([*lines, words["no_papers"], ""])
    if words["gloss_note"]:
        lines += [f"> {words['gloss_note']}", ""]

    lines += [
        f"## {words['overview']}",
        "",
        f"### {words['by_area']}",
        "",
        f"| {words['area_col']} | {words['count_col']} | {words['share']} |",
        "| --- | ---: | ---: |",
    ]
    total = len(data.papers)
    for area, count in data.by_area:
        lines.append(f"| {md_text(area or words['unknown_area'])} | {count} | {100 * count / total:.0f}% |")
    kinds = " · ".join(f"{md_text(words['kinds'].get(k, k))} {n}" for k, n in data.by_kind)
    lines.append("")
    if any(k for k, _ in data.by_kind):  # unknown for all until `paperatlas enrich` runs
        lines += [f"### {words['by_kind']}", "", kinds, ""]
    lines += [f"### {words['named']}", ""]
    lines += [paper_bullet(p, words) for p in data.named] or [words["none"]]
    lines += ["", f"### {words['with_code']} ({len(data.with_code)})", ""]
    shown = data.with_code[:MAX_CODE]
    lines += [paper_bullet(p, words) for p in shown] or [words["none"]]
    if len(data.with_code) > len(shown):
        lines.append(f"- {words['more_code'].format(n=len(data.with_code) - len(shown))}")
    lines.append("")

    if data.map_png:
        lines += [f"## {words['map']}", "", _map_image(data.map_png, words, output), ""]
        if data.map_field:
            lines += [f"*{md_text(words['map_field'].format(field=data.map_field))}*", ""]
        if data.map_scope:
            scope_name = words["all"] if data.map_scope == "*" else data.map_scope
            lines += [f"*{md_text(words['map_note'].format(scope=scope_name))}*", ""]
    if data.grouping == "areas":
        lines += [f"> {md_text(words['by_area_fallback'].format(why=data.fallback_reason or '-'))}", ""]
    for number, group in enumerate(data.groups, 1):
        label = group_label(group.label, words)
        other = f"; {words['label_other'].format(n=group.other)}" if group.other else ""
        lines += [f"## {number}. {md_text(label)} ({group.size}{other})", ""]
        if group.also:
            lines += [f"*{words['also']}: {md_text(' · '.join(group.also))}*", ""]
        lines += [paper_bullet(p, words) for p in group.papers] + [""]
    return "\n".join(lines)


def _map_image(png: bytes, words: dict, output: Path | None) -> str:
    """Beside the report when it is written to a file (and linked); on stdout a note that
    says how to get it."""
    if output is not None:
        image = output.with_name(output.stem + ".map.png")
        image.write_bytes(png)
        name = image.name if re.fullmatch(r"[\w.\-]+", image.name) else f"<{image.name}>"
        return f"![{words['map_alt']}]({name})"
    return f"*{md_text(words['map_file'])}*"
