"""Short lists against their field (issue 16): 200 random lists of 19 held-out ICLR 2026 papers
given as bare abstracts (titles removed, as on the sample list), placed on the shipped
reference atlas, against today's per-list clustering in the same run.

    .venv/bin/python benchmarks/small_lists.py [--reference PATH] [--lists 200] [--size 19]
        [--half test|tune] [--examples 10]

Figures:
- AMI between each list's topics and the papers' true primary areas: reference broad
  topics, reference fine topics, and the list's own map (`atlas_cluster.cluster_papers` on
  the 19 vectors, what `paperatlas map` gave before); mean, spread (sd, quartiles). To read
  the target against, in the same lists: the area classifier's top label, the full map's own
  broad topics (all 15,602 papers, the held-out ones inside) and the true areas with 20, 30
  and 40% replaced at random; and each grouping's AMI over the whole half at once (global).
- Placement stability: for every held-out paper of the half, whether the reference topic it
  is placed in equals the reference topic its topic of the full map (all 15,602 papers, the
  held-out ones included, same topic algorithm) stands for (each full-map topic stands for
  the reference topic most of its reference papers are in).
- Label quality: share of topic labels that are generic by benchmarks/generic_phrases.txt
  (written before any tuning) or a list of paper names, for the reference grouping and for
  today's per-list labels.
- Time to place the sample list's 19 abstracts end to end in fresh processes, this tree and
  a baseline checkout alternating (benchmarks/place_short_list.py).

The held-out papers (`is_held_out`, never in the reference) are split by a second hash into
a tuning half and a test half before anything was tuned; figures are on the test half.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import place_short_list
from iclr_data import REPO, is_held_out, load_rows, real_abstract
from paperatlas.atlas import reference as reference_mod
from paperatlas.embed import embedding_text, get_backend

# shares of the true areas replaced at random, to see what per-list AMI a grouping of a given
# global quality reaches
NOISE = (0.2, 0.3, 0.4)
GENERIC_FILE = Path(__file__).resolve().parent / "generic_phrases.txt"
BASE = Path("/tmp/paperatlas-base/src/paperatlas/atlas_labels.py")  # the labeller before issue 16


def base_labeller():
    """label_clusters of the starting commit (its own module object), or None."""
    import importlib.util

    if not BASE.exists():
        return None
    spec = importlib.util.spec_from_file_location("base_atlas_labels", BASE)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


_FUNCTION = {
    "a",
    "an",
    "the",
    "of",
    "for",
    "and",
    "or",
    "in",
    "on",
    "to",
    "with",
    "via",
    "by",
    "from",
    "at",
    "as",
    "into",
    "&",
}


def half_of(pid: str) -> str:
    """The held-out papers' fixed split: 'tune' or 'test' by another hash of the id."""
    return "tune" if int(hashlib.sha1(f"half:{pid}".encode()).hexdigest()[:8], 16) % 2 else "test"


def load_generic() -> set[str]:
    return {
        line.strip().lower()
        for line in GENERIC_FILE.read_text().splitlines()
        if line.strip() and not line.startswith("#")
    }


def label_problem(label: str, generic: set[str]) -> str | None:
    """'generic' when a part of the label is only generic words, 'names' when the label is a
    comma list of paper names, else None."""
    parts = [p for p in re.split(r"\s+&\s+|\s+for\s+|,\s+", label) if p.strip()]
    if "," in label and len(parts) >= 2:
        return "names"
    for part in parts:
        words = [w for w in re.split(r"[\s]+", part.lower().strip()) if w and w not in _FUNCTION]
        words = [w.strip("()") for w in words]
        if words and all(w in generic or w.rstrip("s") in generic for w in words):
            return "generic"
    return None


def ami(a, b) -> float:
    from sklearn.metrics import adjusted_mutual_info_score

    return float(adjusted_mutual_info_score(a, b))


def full_map_topics(vectors: np.ndarray, seed: int = 42) -> tuple[np.ndarray, np.ndarray]:
    """Broad and fine topics of the whole list exactly as atlas_cluster computes them (the
    2D layout, which does not change topics, is skipped)."""
    from threadpoolctl import threadpool_limits

    from paperatlas.atlas.cluster import (
        CLUSTER_DIMS,
        KNN,
        SMOOTHING_STEPS,
        _fine_within,
        _knn,
        _pca,
        _renumber_by_size,
        _smooth,
        kmeans,
        topic_counts,
        unit_rows,
    )

    with threadpool_limits(limits=1):
        v = unit_rows(vectors)
        k_broad, k_fine = topic_counts(len(v))
        idx, _ = _knn(v, KNN + 1, seed)
        space = _pca(_smooth(v, idx, SMOOTHING_STEPS), CLUSTER_DIMS, seed)
        broad = _renumber_by_size(kmeans(space, k_broad, seed, max_iter=300))
        fine = _renumber_by_size(_fine_within(space, broad, k_fine, seed))
    return broad, fine


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reference", type=Path, default=reference_mod.shipped_path())
    ap.add_argument("--lists", type=int, default=200)
    ap.add_argument("--size", type=int, default=19)
    ap.add_argument("--half", choices=("test", "tune"), default="test")
    ap.add_argument("--examples", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--base", type=Path, default=Path("/tmp/base13"), help="baseline checkout for the timing")
    args = ap.parse_args()
    from paperatlas.atlas.cluster import cluster_papers
    from paperatlas.atlas.labels import PaperText, label_clusters

    ref = reference_mod.Reference.from_bytes(args.reference)
    generic = load_generic()
    rows = load_rows()
    backend = get_backend("static")
    started = time.perf_counter()
    full_vectors = backend.embed([embedding_text(r.get("title"), r.get("abstract")) for r in rows])
    ids = [r["id"] for r in rows]
    pos = {pid: i for i, pid in enumerate(ids)}
    held = [
        i
        for i, r in enumerate(rows)
        if is_held_out(r["id"]) and real_abstract(r) and half_of(r["id"]) == args.half
    ]
    bare = backend.embed([embedding_text(None, rows[i].get("abstract")) for i in held])
    print(
        f"{len(rows):,} papers; {len(held):,} held-out papers with abstracts in the "
        f"{args.half} half; reference {ref.name}: {len(ref.xy):,} papers, "
        f"{len(ref.broad_labels)} broad / {len(ref.fine_labels)} fine topics "
        f"({time.perf_counter() - started:.1f} s to embed)"
    )

    # -- placement stability against the full map -----------------------------------------
    t0 = time.perf_counter()
    broad_full, fine_full = full_map_topics(full_vectors)
    ref_rows = np.array([pos[p] for p in ref.ids if p in pos])
    in_ref = {p: j for j, p in enumerate(ref.ids)}
    ref_broad_of_row = {pos[p]: ref.point_broad[j] for p, j in in_ref.items() if p in pos}
    ref_fine_of_row = {pos[p]: ref.point_fine[j] for p, j in in_ref.items() if p in pos}

    def stands_for(full_topics, ref_of_row):
        votes: dict[int, Counter] = {}
        for i in ref_rows:
            votes.setdefault(int(full_topics[i]), Counter())[int(ref_of_row[i])] += 1
        return {t: c.most_common(1)[0][0] for t, c in votes.items()}

    broad_map = stands_for(broad_full, ref_broad_of_row)
    fine_map = stands_for(fine_full, ref_fine_of_row)
    placed_bare = ref.place(bare)
    placed_titled = ref.place(full_vectors[held])
    expected_b = np.array([broad_map.get(int(broad_full[i]), -1) for i in held])
    expected_f = np.array([fine_map.get(int(fine_full[i]), -1) for i in held])
    print(
        f"\nplacement stability ({len(held):,} held-out papers; full map of all "
        f"{len(rows):,} papers computed in {time.perf_counter() - t0:.1f} s):"
    )
    for name, placed in (("bare abstract", placed_bare), ("title + abstract", placed_titled)):
        print(
            f"  {name:17s} broad {np.mean(placed.broad == expected_b):.3f}  "
            f"fine {np.mean(placed.fine == expected_f):.3f}"
        )
    # the same question for the list's own clustering has no answer (its topics are new each time)

    # -- 200 lists ---------------------------------------------------------------------------
    rng = np.random.default_rng(args.seed)
    areas = [rows[i]["primary_area"] for i in held]
    # not groupings the map offers, to read the target against: the shipped primary-area
    # classifier's top label (a 60%-accurate area prediction); the full map's own topics
    # (all 15,602 papers, these held-out ones inside: the map whose global figure is ~0.42);
    # the true areas with a share of them replaced by areas drawn at random from the half
    from paperatlas.enrich.areas import predict_areas

    predicted = [p["label"] for p in predict_areas([rows[i]["abstract"] for i in held])]
    noise_rng = np.random.default_rng(args.seed + 1)  # its own stream: the lists stay the same
    noisy = {}
    for share in NOISE:
        labels = np.array(areas, dtype=object)
        flip = noise_rng.random(len(labels)) < share
        labels[flip] = noise_rng.choice(np.array(areas, dtype=object), int(flip.sum()))
        noisy[f"true areas, {round(share * 100)}% random"] = labels
    whole = {  # each grouping over the whole half at once (the global figure), where it has one
        "reference broad": placed_bare.broad,
        "reference fine": placed_bare.fine,
        "area classifier": predicted,
        "full map broad": broad_full[held],
        **noisy,
    }
    res: dict[str, list[float]] = {
        name: [] for name in ["reference broad", "reference fine", "own map (today)"]
    }
    res.update({name: [] for name in whole if name not in res})
    base = base_labeller()
    label_stats = {"reference": Counter(), "own map, new labeller": Counter()}
    if base is not None:
        label_stats["own map, before"] = Counter()
    generic_words = set(ref.generic_words)
    examples = []
    own_seconds = place_seconds = 0.0
    for n_list in range(args.lists):
        pick = rng.choice(len(held), size=args.size, replace=False)
        truth = [areas[j] for j in pick]
        t = time.perf_counter()
        placed = ref.place(bare[pick])
        place_seconds += time.perf_counter() - t
        t = time.perf_counter()
        own = cluster_papers(bare[pick])
        texts = [PaperText(abstract=rows[held[j]]["abstract"]) for j in pick]
        n_own = int(own.broad.max()) + 1
        fallback = [
            ref.broad_labels[Counter(placed.broad[own.broad == k].tolist()).most_common(1)[0][0]]
            for k in range(n_own)
        ]
        own_labels = label_clusters(texts, own.broad, n_own, generic=generic_words, fallback=fallback)
        own_seconds += time.perf_counter() - t
        if base is not None:
            base_texts = [base.PaperText(abstract=x.abstract) for x in texts]
            for topic in base.label_clusters(base_texts, own.broad, n_own):
                label_stats["own map, before"][label_problem(topic.label, generic) or "ok"] += 1
        res["reference broad"].append(ami(truth, placed.broad))
        res["reference fine"].append(ami(truth, placed.fine))
        res["own map (today)"].append(ami(truth, own.broad))
        for name, labels in whole.items():
            if name not in ("reference broad", "reference fine"):
                res[name].append(ami(truth, [labels[j] for j in pick]))
        ref_labels = [ref.broad_labels[b] for b in sorted(set(placed.broad.tolist()))] + [
            ref.fine_labels[f] for f in sorted(set(placed.fine.tolist()))
        ]
        for label in ref_labels:
            label_stats["reference"][label_problem(label, generic) or "ok"] += 1
        for topic in own_labels:
            label_stats["own map, new labeller"][label_problem(topic.label, generic) or "ok"] += 1
        if n_list < args.examples:
            examples.append((pick, placed, own_labels, own.broad))
    print(
        f"\n{args.lists} lists of {args.size} held-out papers (bare abstracts), AMI with the "
        f"true primary areas:"
    )
    print(
        f"  {'grouping':24s} {'mean':>6s} {'sd':>6s} {'q25':>6s} {'median':>6s} {'q75':>6s}"
        f"   global (all {len(held):,} at once)"
    )
    for name, values in res.items():
        v = np.array(values)
        overall = f"{ami(areas, list(whole[name])):.3f}" if name in whole else "-"
        print(
            f"  {name:24s} {v.mean():6.3f} {v.std():6.3f} {np.percentile(v, 25):6.3f} "
            f"{np.median(v):6.3f} {np.percentile(v, 75):6.3f}   {overall}"
        )
    print(
        f"  ratio reference broad / own map: "
        f"{np.mean(res['reference broad']) / max(1e-9, np.mean(res['own map (today)'])):.2f}"
    )
    print(
        f"  seconds per list: placing {place_seconds / args.lists * 1000:.1f} ms, "
        f"own map + labels {own_seconds / args.lists * 1000:.1f} ms"
    )
    print(
        "\nlabel quality (share of topic labels generic by benchmarks/generic_phrases.txt, "
        "or lists of paper names):"
    )
    for name, c in label_stats.items():
        total = sum(c.values())
        print(
            f"  {name:18s} {total:5d} labels: generic {c['generic'] / total:.3f}, "
            f"names {c['names'] / total:.3f}"
        )
    all_ref = ref.broad_labels + ref.fine_labels
    bad = [(lab, label_problem(lab, generic)) for lab in all_ref if label_problem(lab, generic)]
    print(f"  every label of the reference ({len(all_ref)}): {len(bad)} flagged {bad[:10]}")

    # -- time end to end -----------------------------------------------------------------------
    print(f"\nplacing the sample list in a fresh process (benchmarks/place_short_list.py, base {args.base}):")
    if (args.base / "src").exists():
        place_short_list.report(args.base, 5, REPO / "examples" / "iclr2026_sample_list.txt")
    else:
        print("  no baseline checkout: skipped")
    t = time.perf_counter()
    again = reference_mod.Reference.from_bytes(args.reference)
    again.place(bare[: args.size])
    print(
        f"loading the reference and placing {args.size} stored vectors (what `paperatlas map` "
        f"does after `embed`): {time.perf_counter() - t:.2f} s"
    )
    print(f"reference file: {args.reference.stat().st_size / 1e6:.2f} MB")

    # -- examples ------------------------------------------------------------------------------
    print("\n## Example lists (field topics; the list's own map with the new labeller in the last column)\n")
    for n_list, (pick, placed, own_labels, own_broad) in enumerate(examples, 1):
        print(f"### List {n_list}\n")
        print(
            "| paper (start of abstract) | true area | field topic: broad › fine (confidence) | own map topic |"
        )
        print("| --- | --- | --- | --- |")
        for k, j in enumerate(pick):
            r = rows[held[j]]
            start = " ".join(r["abstract"].split()[:9]).replace("|", "/")
            print(
                f"| {start}… | {r['primary_area']} | {ref.broad_labels[placed.broad[k]]} › "
                f"{ref.fine_labels[placed.fine[k]]} ({placed.broad_conf[k]:.2f}) | "
                f"{own_labels[own_broad[k]].label} |"
            )
        print()


if __name__ == "__main__":
    main()
