"""kNN accuracy on ICLR 2026 primary areas for TF-IDF and every embedding back end.

    .venv/bin/python benchmarks/knn_areas.py [DATA] [--models a,b,...] [--all] [--no-2d]
                                             [--cache /work/cache/vectors]

k = 10, 10-fold stratified cross-validation, cosine similarity, majority vote; placeholder
abstracts (< 100 characters) dropped. Text = title + abstract (`embed.embedding_text`).

Honesty: the default `static` model was fit on the training split (`is_held_out` False),
so the main table is computed on the held-out papers only (~3,200): both the queries and
the neighbours are papers no model has seen; TF-IDF and lsa are fit on those same papers
(they are unsupervised and fit the user's corpus in real use). `--all` adds the table over
all ~15,600 papers for the back ends that saw no labels (static is left out there).
The "2D" columns repeat the kNN on a UMAP layout (cosine, 2 components, seed 0) of each
space, as the map would show it.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from iclr_data import DEFAULT_DATA, is_held_out, load_rows, real_abstract, texts_of
from knn_eval import knn_accuracy, tfidf_vectors

UNSUPERVISED = ["minilm", "use-multilingual", "lsa"]
ALL_MODELS = ["static", "minilm", "minilm-first256", "use-multilingual", "lsa"]


def vectors_for(
    model: str, rows_index: np.ndarray, texts: list[str], cache: Path | None, file_ids: list[str]
) -> np.ndarray:
    """Vectors of the chosen rows: from the shared cache when present, else computed."""
    from paperatlas.embed import LSABackend, get_backend

    for folder in [cache, cache / "heldout"] if cache and model != "lsa" else []:
        path = folder / f"{model}.npy"
        if path.exists() and (folder / "ids.json").exists():
            position = {pid: i for i, pid in enumerate(json.loads((folder / "ids.json").read_text()))}
            wanted = [file_ids[i] for i in rows_index]
            if all(pid in position for pid in wanted):
                return np.load(path, mmap_mode="r")[[position[pid] for pid in wanted]]
    part = parts_vectors(cache, model) if cache else {}
    wanted = [file_ids[i] for i in rows_index]
    if part and all(pid in part for pid in wanted):
        return np.vstack([part[pid] for pid in wanted])
    chosen = [texts[i] for i in rows_index]
    if model == "lsa":  # fit on the corpus being evaluated, as a user's atlas would
        return LSABackend().fit(chosen).embed(chosen)
    backend = get_backend(model)
    return np.vstack([backend.embed(chosen[i : i + 256]) for i in range(0, len(chosen), 256)])


def parts_vectors(cache: Path, model: str) -> dict[str, np.ndarray]:
    """paper id -> vector from the parts a running scripts/cache_vectors.py has finished."""
    folder = cache / "parts" / ("minilm" if model.startswith("minilm") else model)
    ids = json.loads((cache / "ids.json").read_text()) if (cache / "ids.json").exists() else []
    found = {}
    for path in sorted(folder.glob("[0-9]*.npz")) if folder.exists() else []:
        with np.load(path) as z:
            if model in z.files:
                for row, vec in zip(z["rows"], z[model]):
                    found[ids[int(row)]] = vec
    return found


def layout_2d(vectors) -> np.ndarray:
    import umap

    dense = vectors.toarray() if hasattr(vectors, "toarray") else np.asarray(vectors)
    if dense.shape[1] > 256:  # UMAP on very wide sparse input is slow; reduce first
        from sklearn.decomposition import TruncatedSVD

        dense = TruncatedSVD(256, random_state=0).fit_transform(vectors)
    return umap.UMAP(
        n_components=2, metric="cosine", random_state=0, n_neighbors=15, min_dist=0.1
    ).fit_transform(dense)


def run_table(
    title: str, models: list[str], index: np.ndarray, rows, texts, cache, file_ids, do_2d: bool
) -> None:
    labels = np.array([rows[i]["primary_area"] for i in index])
    print(f"\n## {title}: {len(index)} papers, {len(set(labels))} areas")
    print(
        f"{'space':18s} {'dim':>6s} {'kNN':>7s} {'x TF-IDF':>9s}"
        + (f" {'2D kNN':>7s} {'x TF-IDF':>9s}" if do_2d else "")
        + "   time"
    )
    t0 = time.time()
    base = tfidf_vectors([texts[i] for i in index])
    base_acc = knn_accuracy(base, labels)
    base_2d = knn_accuracy(layout_2d(base), labels) if do_2d else None
    line = f"{'tfidf (baseline)':18s} {base.shape[1]:6d} {base_acc:7.1%} {1:9.3f}"
    print(line + (f" {base_2d:7.1%} {1:9.3f}" if do_2d else "") + f"   {time.time() - t0:.0f}s")
    for model in models:
        t0 = time.time()
        vecs = vectors_for(model, index, texts, cache, file_ids)
        acc = knn_accuracy(vecs, labels)
        line = f"{model:18s} {vecs.shape[1]:6d} {acc:7.1%} {acc / base_acc:9.3f}"
        if do_2d:
            acc2 = knn_accuracy(layout_2d(vecs), labels)
            line += f" {acc2:7.1%} {acc2 / base_2d:9.3f}"
        print(line + f"   {time.time() - t0:.0f}s", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="?", default=str(DEFAULT_DATA))
    parser.add_argument("--models", default=",".join(ALL_MODELS))
    parser.add_argument("--all", action="store_true", help="also the table over all papers")
    parser.add_argument("--no-2d", action="store_true", help="skip the UMAP layouts")
    parser.add_argument(
        "--cache",
        default="/work/cache/vectors",
        help="precomputed vectors: <model>.npy + ids.json, or heldout/<model>.npy "
        "+ heldout/ids.json (scripts/cache_vectors.py writes both)",
    )
    parser.add_argument(
        "--rows-with",
        metavar="MODEL",
        help="evaluate only the held-out papers whose MODEL vectors are cached "
        "(parts of a cache_vectors.py run still going)",
    )
    args = parser.parse_args()
    rows = load_rows(args.data)
    texts = texts_of(rows)
    file_ids = [r["id"] for r in rows]
    cache = Path(args.cache) if args.cache else None
    models = [m for m in args.models.split(",") if m]
    keep = np.array([real_abstract(r) for r in rows])
    held = np.array([is_held_out(r["id"]) for r in rows])
    evaluated = np.where(keep & held)[0]
    title = "held-out papers (no model saw them)"
    if args.rows_with:  # only the held-out papers a slow back end has embedded so far
        have = parts_vectors(cache, args.rows_with)
        evaluated = np.array([i for i in evaluated if file_ids[i] in have])
        title += f", those with {args.rows_with} vectors cached so far"
    run_table(title, models, evaluated, rows, texts, cache, file_ids, not args.no_2d)
    if args.all:
        run_table(
            "all papers (back ends fit without labels only)",
            [m for m in models if m != "static"],
            np.where(keep)[0],
            rows,
            texts,
            cache,
            file_ids,
            not args.no_2d,
        )


if __name__ == "__main__":
    main()
