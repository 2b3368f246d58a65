"""How right the progress bar's time left is: `enrich` and `embed` on a few thousand real
ICLR 2026 papers, the time left the bar shows when 10%, 50% and 90% of the work is done,
against the time the step actually took from there, for this code and a baseline
checkout in the same run.

    .venv/bin/python benchmarks/progress_eta.py [--base /work/base/src] [--enrich 4000]
        [--embed 1500] [--model minilm-int8] [--batch-size 64] [--stages enrich,embed]
        [--workers N] [--parts]

Each code runs in a fresh process (PYTHONPATH=its src) on a store of its own, with worker
processes as the CLI uses them (enrich from 3,000 papers, minilm from 1,000), or `--workers`
of them whatever the size (PAPERATLAS_WORKERS: a pool of a few hundred papers' embedding). The bar is the
stage's own (`progress_bar(True)`), its output thrown away; after every update the bar's
time-left column is rendered, as a live bar redraws it. The error at a checkpoint is
max(shown / actual, actual / shown) (inf when the bar shows no time). Target: <= 1.5 at
every checkpoint. `--parts` prints, per checkpoint, the fields a stage of two hands gave
its estimate (two_stage_time_left), to tell which part missed. Run `uptime` beside it: the
machine is shared.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from iclr_data import DEFAULT_DATA

REPO = Path(__file__).resolve().parents[1]
CHECKPOINTS = (0.1, 0.5, 0.9)

# Run in the measured code's process: record (time, done, total, shown) after every update
# of each stage's bar, then run the stage.
HARNESS = r"""
import gzip, json, sys, time
from itertools import islice
from paperatlas.api import Atlas
import paperatlas.embed.vectors as vectors
import paperatlas.enrich.pipeline as pipeline
from paperatlas.progress import progress_bar
PARTS = ("ready", "own_seconds", "alone_pace", "pool_left")  # a two-hand stage's pace

data, db, stage, n, model, batch_size = sys.argv[1:7]
n, batch_size = int(n), int(batch_size)
samples = []

def recording_bar(show=True, **options):
    bar = progress_bar(True, **options)
    update = bar.update
    def record(task, **kwargs):
        update(task, **kwargs)
        t = bar.tasks[task] if isinstance(task, int) else next(x for x in bar.tasks if x.id == task)
        shown = bar.columns[-1].render(t).plain  # the time-left column (eta on, elapsed off)
        parts = {k: t.fields[k] for k in PARTS if k in t.fields}
        samples.append((time.monotonic(), t.completed, t.total, shown, parts))
    bar.update = record
    return bar

vectors.progress_bar = recording_bar
pipeline.progress_bar = recording_bar
with gzip.open(data, "rt") as fh:
    rows = [json.loads(line) for line in islice(fh, n)]
path = db + ".jsonl"
with open(path, "w") as out:
    out.writelines(json.dumps(r) + "\n" for r in rows)
with Atlas(db) as atlas:
    atlas.add([path], enrich=False)
    if stage == "enrich":
        atlas.enrich(progress=True)
    else:
        atlas.embed(model=model, progress=True, batch_size=batch_size)
print("SAMPLES " + json.dumps(samples))
"""


def seconds(shown: str) -> float | None:
    if "-" in shown or ":" not in shown:
        return None
    parts = [int(x) for x in shown.split(":")]
    while len(parts) < 3:
        parts.insert(0, 0)
    return 3600 * parts[0] + 60 * parts[1] + parts[2]


def errors(samples: list) -> list[tuple[float, float | None, float, float, dict]]:
    """Per checkpoint: (done share, shown s, actual s left, error, the two-hand stage's
    fields the estimate came from)."""
    end = samples[-1][0]
    out = []
    for share in CHECKPOINTS:
        at = next(s for s in samples if s[1] >= share * s[2])
        shown, actual = seconds(at[3]), end - at[0]
        if shown is None:
            error = math.inf
        elif actual <= 0 or shown <= 0:
            error = 1.0 if shown == actual else math.inf
        else:
            error = max(shown / actual, actual / shown)
        out.append((at[1] / at[2], shown, actual, error, at[4] if len(at) > 4 else {}))
    return out


def run(src: Path, stage: str, n: int, model: str, batch_size: int, data: Path, workers: int | None) -> list:
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "PYTHONPATH": str(src), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
        env.pop("PAPERATLAS_WORKERS", None)
        if workers:
            env["PAPERATLAS_WORKERS"] = str(workers)
        done = subprocess.run(
            [sys.executable, "-c", HARNESS, str(data), f"{tmp}/a.db", stage, str(n), model, str(batch_size)],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
    line = next(x for x in done.stdout.splitlines() if x.startswith("SAMPLES "))
    return json.loads(line[len("SAMPLES ") :])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--base", type=Path, default=Path("/work/base/src"))
    parser.add_argument("--enrich", type=int, default=4000, help="papers enriched")
    parser.add_argument("--embed", type=int, default=1500, help="papers embedded")
    parser.add_argument("--model", default="minilm-int8")
    parser.add_argument("--batch-size", type=int, default=64, help="embed's papers per batch")
    parser.add_argument("--stages", default="enrich,embed", help="which stages to run")
    parser.add_argument("--parts", action="store_true", help="print what each estimate came from")
    parser.add_argument("--workers", type=int, help="worker processes whatever the size (both codes)")
    args = parser.parse_args()
    print(f"load before: {os.getloadavg()[0]:.1f}")
    worst = {}
    stages = args.stages.split(",")
    for stage, n in ((s, n) for s, n in (("enrich", args.enrich), ("embed", args.embed)) if s in stages):
        for name, src in (("new", REPO / "src"), ("base", args.base)):
            samples = run(src, stage, n, args.model, args.batch_size, args.data, args.workers)
            took = samples[-1][0] - samples[0][0]
            rows = errors(samples)
            worst[(stage, name)] = max(row[3] for row in rows)
            shown = ", ".join(
                f"{share:.0%}: shown {'-' if s is None else f'{s:.0f}'} s, actual {a:.1f} s, error {e:.2f}"
                for share, s, a, e, _ in rows
            )
            label = stage + (f" ({args.model})" if stage == "embed" else "")
            print(f"{label:<22} {name:<4} {n:,} papers, {took:.1f} s from the first update | {shown}")
            if args.parts:
                for share, *_, parts in rows:
                    given = ", ".join(f"{k} {v:.4g}" for k, v in parts.items())
                    print(f"    {share:.0%}: {given or 'one pace'}")
    for stage in stages:
        new, base = worst[(stage, "new")], worst[(stage, "base")]
        print(f"{stage}: worst error new {new:.2f} (target <= 1.5), base {base:.2f}")
    print(f"load after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
