"""Static outputs of a stored map: a publication-quality PNG, a self-contained HTML file, and
the digest's picture (its groups numbered over the map: `groups_png`).

The PNG is drawn with matplotlib; topic labels are moved apart by adjustText so none
overlap. The HTML file inlines the web app's own map script, its stylesheet and the map
data (JSON inside a script tag, with '<' escaped), so it opens offline with no requests.
"""

from __future__ import annotations

import html
import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from paperatlas.assets import read_static
from paperatlas.atlas import map_view, sample
from paperatlas.errors import PaperatlasError
from paperatlas.paper import json_text

# Same colours as the web map (assets/static/atlas.js PALETTE).
PALETTE = [
    "#4e79a7",
    "#f28e2b",
    "#e15759",
    "#76b7b2",
    "#59a14f",
    "#edc948",
    "#b07aa1",
    "#ff9da7",
    "#9c755f",
    "#2f7ebc",
    "#d37295",
    "#8cd17d",
    "#b6992d",
    "#499894",
    "#e49444",
    "#86bcb6",
    "#d4a6c8",
    "#fabfd2",
    "#79706e",
    "#a0cbe8",
    "#ffbe7d",
    "#f1ce63",
    "#6a9f58",
    "#d7b5a6",
    "#bab0ac",
    "#7b66d2",
    "#dc5fbd",
    "#5fa2ce",
    "#c85200",
    "#57606c",
]


def topic_colour(topic: int) -> str:
    if topic < len(PALETTE):
        return PALETTE[topic]
    import colorsys

    r, g, b = colorsys.hls_to_rgb(((topic * 137.508) % 360) / 360, 0.55, 0.55)
    return f"#{int(r * 255):02x}{int(g * 255):02x}{int(b * 255):02x}"


SMALL_MAP = 60


def _short(title: str, words: int = 6) -> str:
    parts = (title or "").split()
    return " ".join(parts[:words]) + ("…" if len(parts) > words else "")


def _writable(path: Path) -> Path:
    path = Path(path)
    if path.exists() and path.is_dir():
        raise PaperatlasError(f"{path}: is a directory, give a file name")
    if not path.parent.exists():
        raise PaperatlasError(f"{path.parent}: no such directory")
    return path


def _wrap(label: str, width: int = 22) -> str:
    words, lines, line = label.split(" "), [], ""
    for w in words:
        if line and len(line) + 1 + len(w) > width:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}".strip()
    lines.append(line)
    return "\n".join(lines[:3])


def field_of(stored: dict[str, Any], store) -> dict[str, Any] | None:
    """The field to draw under a list placed on a reference (see reference.Reference.field)."""
    meta = stored.get("meta") or {}
    if meta.get("grouping") != "reference" or store is None:
        return None
    from paperatlas.atlas import reference

    ref = reference.load(store, meta.get("reference"))
    return ref.field() if ref is not None else None


def _pyplot():
    """matplotlib's pyplot on the Agg back end (pictures to files, never a window)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _field_xy(field: dict[str, Any] | None) -> np.ndarray | None:
    """The field's papers as [n, 2] points (for a list placed on a reference), else None."""
    if field is None or not field["points"]:
        return None
    return np.array([p[:2] for p in field["points"]], dtype=float)


def draw_map(
    stored: dict[str, Any],
    title: str | None = None,
    dpi: int = 200,
    paper_labels: dict[str, str] | None = None,
    field: dict[str, Any] | None = None,
):
    """(figure, label texts): papers as dots coloured by broad topic, one label per broad
    topic, moved apart by adjustText so no two labels overlap. On small maps (up to
    SMALL_MAP papers) each dot also gets its paper's name or short title from
    `paper_labels` (paper id -> text). A `field` (a list placed on a reference) is drawn
    first, in grey."""
    import matplotlib.patheffects as pe

    plt = _pyplot()
    points = stored["assignments"]
    xy = np.array([[a["x"], a["y"]] for a in points], dtype=float).reshape(-1, 2)
    broad = np.array([a["broad"] for a in points], dtype=int)
    outlier = np.array([bool(a["outlier"]) for a in points], dtype=bool)
    n = len(points)
    fig, ax = plt.subplots(figsize=(12, 10), dpi=dpi)
    size = 3 if n > 5000 else 9 if n > 500 else 60
    grey = _field_xy(field)
    if grey is not None:
        ax.scatter(
            grey[:, 0], grey[:, 1], s=2.5, c="#c4c7cf", alpha=0.55, linewidths=0, rasterized=True, zorder=0
        )
    ax.scatter(
        xy[outlier, 0], xy[outlier, 1], s=size * 0.7, c="#9ca3af", alpha=0.6, linewidths=0, rasterized=True
    )
    colours = [topic_colour(int(b)) for b in broad[~outlier]]
    ax.scatter(xy[~outlier, 0], xy[~outlier, 1], s=size, c=colours, alpha=0.75, linewidths=0, rasterized=True)
    topics = sorted((t for t in stored["topics"] if t["level"] == 0), key=lambda t: -t["size"])
    biggest = max((t["size"] for t in topics), default=1)
    texts = []
    for t in topics:
        fontsize = 8.5 + 4.5 * np.sqrt(t["size"] / biggest)
        texts.append(
            ax.text(
                t["x"],
                t["y"],
                _wrap(t["label"]),
                fontsize=fontsize,
                weight="bold",
                ha="center",
                va="center",
                color="#111827",
                zorder=5,
                path_effects=[pe.withStroke(linewidth=3.2, foreground="white", alpha=0.92)],
            )
        )
    small: list = []
    if paper_labels and n <= SMALL_MAP:
        for a in points:
            text = paper_labels.get(a["paper_id"])
            if text:
                small.append(
                    ax.text(
                        a["x"],
                        a["y"],
                        _wrap(text, 28),
                        fontsize=7.5,
                        color="#4b5563",
                        ha="left",
                        va="bottom",
                        zorder=4,
                        path_effects=[pe.withStroke(linewidth=2.4, foreground="white")],
                    )
                )
    ax.set_xlim(-0.05, 1.05)
    ax.set_ylim(-0.05, 1.05)
    ax.set_axis_off()
    meta = stored["meta"]
    heading = title or (
        f"{meta.get('list') or 'All papers'}: {meta['papers']:,} papers, {meta['broad_topics']} topics"
    )
    if field is not None:
        heading += f" — over {field['title']} ({field['papers']:,} papers, grey)"
    ax.set_title(heading, fontsize=15, weight="bold", loc="left", color="#111827")
    fig.tight_layout()
    if len(texts) + len(small) > 1:
        from adjustText import adjust_text

        adjust_text(
            texts + small,
            ax=ax,
            expand=(1.08, 1.2),
            ensure_inside_axes=True,
            arrowprops=dict(arrowstyle="-", color="#6b7280", lw=0.6),
            time_lim=10,
        )
        _drop_overlaps(fig, texts + small)  # topic labels first: they win
    return fig, texts


def _drop_overlaps(fig, texts) -> None:
    """adjustText can leave a crowded label touching another: hide the smaller one (texts
    are in size order), so the picture never shows two labels on top of each other."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    kept: list[Any] = []
    for text in texts:
        box = text.get_window_extent(renderer)
        if any(box.overlaps(other) for other in kept):
            text.set_visible(False)
            continue
        kept.append(box)


def write_png(
    stored: dict[str, Any], store, path: str | Path, title: str | None = None, dpi: int = 200
) -> Path:
    """Write the map as a PNG (see draw_map)."""
    plt = _pyplot()
    path = _writable(Path(path))
    labels = None
    if len(stored["assignments"]) <= SMALL_MAP:
        labels = {row[5]: row[7] or _short(row[6]) for row in map_view(stored, store)["points"]}
    fig, _ = draw_map(stored, title=title, dpi=dpi, paper_labels=labels, field=field_of(stored, store))
    fig.savefig(path, dpi=dpi, facecolor="white")
    plt.close(fig)
    return path


def label_boxes_overlap(fig, texts) -> bool:
    """Whether any two visible labels overlap (used by tests)."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    boxes = [t.get_window_extent(renderer) for t in texts if t.get_visible()]
    for i in range(len(boxes)):
        for j in range(i + 1, len(boxes)):
            if boxes[i].overlaps(boxes[j]):
                return True
    return False


# A map of more papers than this is written as a sample (HTML_SAMPLE papers, the web map's
# overview): every point inlined made ~100 MB of HTML at 1M papers, more than a browser
# opens. Up to it, every paper, as always.
HTML_FULL_MAP = 25_000
HTML_SAMPLE = sample.OVERVIEW


def html_sample(stored: dict[str, Any], size: int | None = None) -> dict[str, Any]:
    """The stored map with only the first `size` (HTML_SAMPLE) papers of the priority order (every fine
    topic in proportion, each at least once: what the web map's overview draws), in the
    map's own order; the topics (and their sizes) are the whole map's."""
    size = HTML_SAMPLE if size is None else size
    assignments = stored["assignments"]
    fine = np.fromiter((a["fine"] for a in assignments), np.int64, len(assignments))
    keys = sample.id_keys(a["paper_id"] for a in assignments)
    kept = np.sort(sample.priority_order(fine, keys)[:size])
    return {**stored, "assignments": [assignments[i] for i in kept.tolist()]}


def standalone_html(
    stored: dict[str, Any],
    store,
    title: str | None = None,
    relabel: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
) -> str:
    """One HTML document with the map, its script, style and data inlined: every paper
    up to HTML_FULL_MAP papers, above it a sample of HTML_SAMPLE (the page says so).
    `relabel(view)` rewrites the topic labels (zh_card.localise_map_view: in Chinese)."""
    total = len(stored["assignments"])
    sampled = total > HTML_FULL_MAP
    view = map_view(html_sample(stored) if sampled else stored, store)
    if relabel is not None:
        view = relabel(view)
    meta = stored["meta"]
    heading = title or f"{meta.get('list') or 'All papers'} — {meta['papers']:,} papers"
    if view.get("field"):
        heading += f" on the map of {view['field']['title']}"
    topics_note = (
        f"{meta['broad_topics']} broad and {meta['fine_topics']} fine topics"
        f"{' of the field' if view.get('field') else ''}; zoom in for the fine ones."
    )
    if sampled:
        topics_note += (
            f" Drawn: {len(view['points']):,} of the {total:,} papers, a sample of every fine"
            " topic in proportion (topic sizes count every paper); the filter finds titles among"
            " the drawn papers only. `paperatlas serve` shows every paper."
        )
    style = read_static("style.css")
    script = read_static("atlas.js").replace("</", "<\\/")
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>{html.escape(heading)} · paperatlas</title>
<style>{style}</style>
</head>
<body class="standalone">
<div class="atlas" id="atlas" data-paper-url="" data-topic-url="">
  <canvas class="atlas-canvas" tabindex="0" aria-label="map"></canvas>
  <details class="atlas-tools" open>
    <summary>Filter and topics</summary>
    <h1>{html.escape(heading)}</h1>
    <input type="search" class="atlas-filter" placeholder="Highlight {"drawn " if sampled else ""}titles containing…">
    <button type="button" class="atlas-reset button">Reset view</button>
    <p class="muted small">Scroll or pinch to zoom, drag to pan (arrow keys and + - on the map too),
      click a dot for details. {html.escape(topics_note)}</p>
    <ol class="atlas-legend"></ol>
  </details>
  <div class="atlas-card" hidden></div>
</div>
<script type="application/json" id="atlas-data">{json_for_script(view)}</script>
<script>{script}</script>
</body>
</html>
"""


def json_for_script(data: Any) -> str:
    """JSON safe to put inside <script type="application/json">: no '<' can end the tag."""
    return (
        json_text(data, ensure_ascii=False, separators=(",", ":"))
        .replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
    )


def write_html(
    stored: dict[str, Any],
    store,
    path: str | Path,
    title: str | None = None,
    relabel: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
) -> Path:
    path = _writable(Path(path))
    path.write_text(standalone_html(stored, store, title, relabel), encoding="utf-8")
    return path


# -- the digest's map ---------------------------------------------------------------------------


def groups_png(
    stored: dict[str, Any],
    groups,
    width_in: float | None = None,
    height_in: float | None = None,
    dpi: int = 110,
    field: dict[str, Any] | None = None,
) -> bytes:
    """The digest's map as a PNG: every paper of the map in grey, the digest's papers coloured
    by their group, each group numbered at its centre (the numbers match the report's
    sections). `field`: the reference the list is placed on (reference.Reference.field()); its
    papers are then the grey background, and the picture is framed on the whole field."""
    plt = _pyplot()
    xy_of = {a["paper_id"]: (a["x"], a["y"]) for a in stored["assignments"]}
    everything = np.array(list(xy_of.values()), dtype=float)
    field_xy = _field_xy(field)
    if field_xy is not None:
        everything = field_xy
    small = len(xy_of) < 200 and field is None  # a short list needs no poster-sized map
    width_in = width_in or (8.0 if small else 10.0)
    height_in = height_in or (4.2 if small else 6.5)
    fig, ax = plt.subplots(figsize=(width_in, height_in), dpi=dpi)
    try:
        if len(everything):
            ax.scatter(
                everything[:, 0],
                everything[:, 1],
                s=3 if len(everything) > 3000 else 8,
                c="#d0d0d0",
                linewidths=0,
                zorder=1,
                rasterized=True,
            )
        n_selected = sum(g.size for g in groups)
        size = 8 if n_selected > 1500 else (16 if n_selected > 300 else 30)
        for number, group in enumerate(groups, 1):
            points = np.array([xy_of[p.id] for p in group.papers if p.id in xy_of], dtype=float)
            if not len(points):
                continue
            ax.scatter(
                points[:, 0],
                points[:, 1],
                s=size,
                c=group.colour,
                linewidths=0.3,
                edgecolors="white",
                zorder=2,
                label=f"{number}. {_legend_label(group.label)}",
            )
            cx, cy = np.median(points, axis=0)
            ax.annotate(
                str(number),
                (cx, cy),
                ha="center",
                va="center",
                fontsize=10,
                fontweight="bold",
                color="black",
                zorder=3,
                bbox=dict(boxstyle="circle,pad=0.25", fc="white", ec=group.colour, lw=1.5),
            )
        _robust_limits(ax, everything)
        ax.set_xticks([])
        ax.set_yticks([])
        for spine in ax.spines.values():
            spine.set_visible(False)
        if groups:
            ax.legend(
                loc="center left",
                bbox_to_anchor=(1.0, 0.5),
                fontsize=8,
                frameon=False,
                markerscale=1.5 if size < 16 else 1.0,
            )
        fig.tight_layout()
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=dpi, bbox_inches="tight")
        return buffer.getvalue()
    finally:
        plt.close(fig)


def _robust_limits(ax, points: np.ndarray) -> None:
    """Frame the bulk of the map: a few far outliers would otherwise squash it into a corner."""
    if len(points) < 20:
        return
    low, high = np.percentile(points, [1, 99], axis=0)
    margin = (high - low) * 0.06 + 1e-9
    ax.set_xlim(low[0] - margin[0], high[0] + margin[0])
    ax.set_ylim(low[1] - margin[1], high[1] + margin[1])


def _legend_label(label: str, limit: int = 42) -> str:
    label = " ".join(str(label).split())
    label = label if len(label) <= limit else label[: limit - 1] + "…"
    return label.replace("$", r"\$")  # a $ would start matplotlib mathtext
