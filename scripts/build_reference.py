"""Build the shipped reference atlas (src/paperatlas/models/reference-v1.npz) from ICLR 2026.

    .venv/bin/python scripts/build_reference.py [DATA] [--out PATH] [--db PATH] [--relabel]

Reads ../shared/data/iclr2026.jsonl.gz, leaves out the held-out papers
(`paperatlas.enrich.areas.is_held_out`, ~20%) so that every benchmark figure on them is
honest, adds the rest to a scratch store (enriched and embedded with the default `static`
model, as `paperatlas add` + `embed` do), builds their map and turns it into a reference
(`paperatlas.atlas.reference_build.build_reference`): topics, labels, centroids, the 2D layout, reduced vectors to
place new papers, and the words generic across the field.

--relabel names the topics of the reference at --out again (`relabel_reference`: the labeller
of this tree on the same papers and facts), leaving its map, vectors and words as they are:
the papers are added and enriched (not embedded) into the scratch store. Deterministic.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from paperatlas.api import Atlas  # noqa: E402
from paperatlas.atlas import reference  # noqa: E402
from paperatlas.atlas.reference_build import build_reference, relabel_reference  # noqa: E402
from paperatlas.enrich.areas import is_held_out  # noqa: E402

DEFAULT_DATA = REPO.parent / "shared" / "data" / "iclr2026.jsonl.gz"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", nargs="?", default=str(DEFAULT_DATA))
    ap.add_argument("--out", default=str(REPO / "src" / "paperatlas" / "models" / reference.SHIPPED_FILE))
    ap.add_argument("--db", help="scratch store to use (kept; default: a temporary file)")
    ap.add_argument("--relabel", action="store_true", help="only name the topics of --out again")
    args = ap.parse_args()

    started = time.perf_counter()
    work = Path(tempfile.mkdtemp(prefix="paperatlas-reference-"))
    rows_file = work / "reference_rows.jsonl.gz"
    kept = left_out = 0
    with (
        gzip.open(args.data, "rt", encoding="utf-8") as src,
        gzip.open(rows_file, "wt", encoding="utf-8") as dst,
    ):
        for line in src:
            if not line.strip():
                continue
            row = json.loads(line)
            if is_held_out(str(row.get("id"))):
                left_out += 1
                continue
            dst.write(line if line.endswith("\n") else line + "\n")
            kept += 1
    print(f"{kept:,} papers for the reference, {left_out:,} held-out papers left out")
    db = Path(args.db) if args.db else work / "reference.db"
    atlas = Atlas(db)
    if "iclr2026" not in atlas.lists():
        atlas.add([rows_file], list_name="iclr2026", progress=True)
    if args.relabel:
        ref = relabel_reference(atlas.store, reference.Reference.from_bytes(Path(args.out)))
    else:
        atlas.embed(progress=True)
        ref = build_reference(
            atlas.store, "iclr2026", name=reference.SHIPPED, progress=True, title="ICLR 2026"
        )
        ref.meta["left_out"] = "held-out papers (paperatlas.enrich.areas.is_held_out)"
    held = [pid for pid in ref.ids if is_held_out(pid)]
    assert not held, f"{len(held)} held-out papers in the reference"
    out = Path(args.out)
    out.write_bytes(ref.to_bytes())
    print(
        f"wrote {out} ({out.stat().st_size / 1e6:.2f} MB): {len(ref.xy):,} papers, "
        f"{len(ref.broad_labels)} broad / {len(ref.fine_labels)} fine topics, "
        f"{len(ref.generic_words)} generic words; {time.perf_counter() - started:.0f} s"
    )
    print("broad:", " · ".join(ref.broad_labels))
    print("generic words (sample):", ", ".join(ref.generic_words[:60]))


if __name__ == "__main__":
    main()
