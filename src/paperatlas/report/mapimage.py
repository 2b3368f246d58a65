"""The digest's map as a PNG: every paper of the map in grey, the digest's papers coloured by
their group, each group numbered at its centre (the numbers match the report's sections)."""

from __future__ import annotations

import io
from typing import Any

import numpy as np


def render_map(
    stored: dict[str, Any],
    groups,
    width_in: float | None = None,
    height_in: float | None = None,
    dpi: int = 110,
    field: dict[str, Any] | None = None,
) -> bytes:
    """`field`: the reference the list is placed on (reference.Reference.field()); its
    papers are then the grey background, and the picture is framed on the whole field."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    xy_of = {a["paper_id"]: (a["x"], a["y"]) for a in stored["assignments"]}
    everything = np.array(list(xy_of.values()), dtype=float)
    if field is not None and field["points"]:
        everything = np.array([p[:2] for p in field["points"]], dtype=float)
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
                label=f"{number}. {_short(group.label)}",
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


def _short(label: str, limit: int = 42) -> str:
    label = " ".join(str(label).split())
    label = label if len(label) <= limit else label[: limit - 1] + "…"
    return label.replace("$", r"\$")  # a $ would start matplotlib mathtext
