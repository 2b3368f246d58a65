"""Digests opened in a real browser, and BibTeX of 1,000 real papers through a real parser.

1. Builds (once, then reuses) an atlas of ../shared/data/iclr2026.jsonl.gz plus the bundled
   sample list, with the cached embedding vectors of the embeddings stage.
2. Writes digests (HTML and Markdown) of the sample list and of a 500-paper collection.
3. Opens each HTML digest in headless Chromium and screenshots it (look at the PNGs).
4. Exports 1,000 papers as BibTeX and parses them with bibtexparser: counts failed blocks.

    .venv/bin/python benchmarks/digest_shots.py [--data ../shared/data/iclr2026.jsonl.gz]
        [--db /work/cache/takehome/iclr.db] [--vectors /work/cache/vectors] [--model static]
        [--out docs/bench/takehome]
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from paperatlas.api import Atlas  # noqa: E402
from paperatlas.filters import Filters  # noqa: E402

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--hide-scrollbars",
]


def step(message: str, started: float) -> None:
    print(f"[{time.time() - started:6.0f}s] {message}", flush=True)


def ensure_atlas(db: Path, data: Path, vectors: Path, model: str, started: float) -> Atlas:
    atlas = Atlas(db)
    store = atlas.store
    if "iclr2026" not in store.lists.names():
        step(f"adding {data} (once; reused on later runs)", started)
        atlas.add([data], list_name="iclr2026", progress=False, enrich=False)
    if "sample" not in store.lists.names():
        atlas.add(
            [ROOT / "examples" / "iclr2026_sample_list.txt"], list_name="sample", progress=False, enrich=False
        )
    try:  # incremental: only papers whose facts are missing or stale
        step(f"enrich: {atlas.enrich()}", started)
    except Exception as exc:  # the digest still works without facts, with less in it
        step(f"enrich failed, digests will lack facts: {exc}", started)
    if model not in store.vectors.models():
        step(f"loading cached {model} vectors", started)
        from paperatlas.embed import embedding_text
        from paperatlas.paper import text_hash

        matrix = np.load(vectors / f"{model}.npy")
        ids = json.loads((vectors / "ids.json").read_text())
        rows = {p["id"]: p for p in store.papers.iter(filters=Filters(list_name="iclr2026"))}
        have = [(i, pid) for i, pid in enumerate(ids) if pid in rows]
        with store.transaction():
            store.vectors.put(
                model,
                [pid for _, pid in have],
                matrix[[i for i, _ in have]],
                [text_hash(embedding_text(rows[pid].get("title"), rows[pid]["abstract"])) for _, pid in have],
            )
    have_vectors = store.vectors.state(model)
    missing = [pid for pid in store.papers.ids() if pid not in have_vectors]
    if missing:
        # sample papers not merged into an ICLR twin: embed them with the same back end
        # when it can run here; the digest groups by area otherwise
        step(f"{len(missing)} papers have no cached vector; embedding them with {model}", started)
        if model != "lsa":
            from paperatlas.embed import embed_store

            embed_store(store, model=model)
    return atlas


def screenshot(html: Path, png: Path, width: int = 1280, height: int = 4000) -> bool:
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(chromium).exists():
        print("  chromium not installed: no screenshot")
        return False
    result = subprocess.run(
        [
            chromium,
            *CHROMIUM_FLAGS,
            f"--window-size={width},{height}",
            f"--screenshot={png}",
            html.resolve().as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    ok = png.exists() and png.stat().st_size > 0
    print(f"  screenshot {png} ({'ok' if ok else 'FAILED: ' + result.stderr[-300:]})")
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared/data/iclr2026.jsonl.gz")
    parser.add_argument("--db", type=Path, default=Path("/work/cache/takehome/iclr.db"))
    parser.add_argument("--vectors", type=Path, default=Path("/work/cache/vectors"))
    parser.add_argument("--model", default="static")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "bench" / "takehome")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    args.db.parent.mkdir(parents=True, exist_ok=True)
    started = time.time()
    atlas = ensure_atlas(args.db, args.data, args.vectors, args.model, started)
    store = atlas.store
    step(f"atlas ready: {store.papers.count()} papers, lists {store.lists.names()}", started)

    # a 500-paper collection: a reader of generative models, RL and robotics papers
    areas = {"generative models", "reinforcement learning", "applications to robotics, autonomy, planning"}
    candidates = [
        p["id"] for p in store.papers.iter(filters=Filters(list_name="iclr2026")) if p.get("area") in areas
    ]
    chosen = random.Random(0).sample(candidates, 500)
    store.conn.execute("DELETE FROM marks WHERE collection = 'reading500'")
    atlas.like(chosen, collection="reading500")

    figures = {}
    for name, selection in (
        ("sample", {"list_name": "sample"}),
        ("collection500", {"collection": "reading500"}),
    ):
        for fmt in ("html", "md"):
            t0 = time.time()
            target = args.out / f"digest_{name}.{fmt}"
            text = atlas.digest(fmt=fmt, lang="en", output=target if fmt == "md" else None, **selection)
            target.write_text(text, encoding="utf-8")
            figures[f"{name}.{fmt}"] = {"seconds": round(time.time() - t0, 1), "bytes": target.stat().st_size}
            step(
                f"digest {name} {fmt}: {target} ({target.stat().st_size:,} bytes, {time.time() - t0:.1f}s)",
                started,
            )
        zh = args.out / f"digest_{name}_zh.html"
        zh.write_text(atlas.digest(fmt="html", lang="zh", **selection), encoding="utf-8")
        screenshot(args.out / f"digest_{name}.html", args.out / f"shot_{name}.png")
        screenshot(zh, args.out / f"shot_{name}_zh.png", height=2000)

    # BibTeX of 1,000 real papers through a real parser
    import bibtexparser

    ids = store.papers.ids("iclr2026")[:1000]
    bib = args.out / "iclr_1000.bib"
    count = atlas.export("bibtex", bib, ids=ids)
    library = bibtexparser.parse_file(str(bib))
    with_url = sum("url" in e.fields_dict for e in library.entries)
    figures["bibtex"] = {
        "exported": count,
        "parsed_entries": len(library.entries),
        "failed_blocks": len(library.failed_blocks),
        "with_url": with_url,
    }
    step(
        f"BibTeX: exported {count}, parsed {len(library.entries)} entries, "
        f"{len(library.failed_blocks)} failed blocks, {with_url} with OpenReview URL",
        started,
    )
    bib.unlink()  # 1.5 MB of abstracts: the figure is what matters
    (args.out / "shots.json").write_text(json.dumps(figures, indent=2))
    step("done", started)


if __name__ == "__main__":
    main()
