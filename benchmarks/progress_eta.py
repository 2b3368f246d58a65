"""How right the progress bar's time left is: `enrich`, `embed` with MiniLM and `embed` with
the static model on real ICLR 2026 papers, the time left the bar estimates when 10%, 50% and
90% of the work is done, against the time the step actually took from there, for this code
and a baseline checkout in the same run, `--runs` times.

    .venv/bin/python benchmarks/progress_eta.py [--base /work/base/src] [--enrich 15602]
        [--embed 600] [--static 15602] [--model minilm-int8] [--batch-size 32]
        [--stages enrich,embed,static] [--workers N] [--runs 3] [--parts]

Each code runs in a fresh process (PYTHONPATH=its src) on a store of its own, with worker
processes as the CLI uses them (enrich from 3,000 papers, minilm from 1,000), or `--workers`
of them whatever the size for enrich and `--model` (PAPERATLAS_WORKERS: a pool of a few
hundred papers' embedding); static runs as the CLI runs it (one process below 20,000 papers). The bar is the stage's
own (`progress_bar(True)`), its output thrown away; after every update the bar's time-left
column is asked for its estimate at full precision (`seconds_left`, the number the column
shows rounded to whole seconds), as a live bar redraws it; a baseline whose column has no
`seconds_left` is read from the text it shows. The error at a checkpoint is
max(predicted / actual, actual / predicted) (inf when there is no estimate). Target: <= 1.5
at every checkpoint of every run. The machine's load (1-minute average) is printed before
and after each stage's run: the wall time of the rest moves with it, so a run counts when
the load was roughly steady. `--parts` prints, per checkpoint, the fields a stage of two
hands gave its estimate (two_stage_time_left), to tell which part missed; `--trace DIR`
writes each run's bar updates and pool results (when each batch came back, its share of a
core) as JSON, to replay an estimator on real timings.
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
n, batch_size = int(n), int(batch_size) or None
samples = []

def recording_bar(show=True, **options):
    bar = progress_bar(True, **options)
    update = bar.update
    def record(task, **kwargs):
        update(task, **kwargs)
        t = bar.tasks[task] if isinstance(task, int) else next(x for x in bar.tasks if x.id == task)
        column = bar.columns[-1]  # the time-left column (eta on, elapsed off)
        if hasattr(column, "seconds_left"):
            shown = column.seconds_left(t)
        else:  # a code whose column gives only its text
            shown = column.render(t).plain
        parts = {k: t.fields[k] for k in PARTS if k in t.fields}
        samples.append((time.monotonic(), t.completed, t.total, shown, parts))
    bar.update = record
    return bar

vectors.progress_bar = recording_bar
pipeline.progress_bar = recording_bar
backs = []  # each pool result: (time, share of a core, start-up s, batch s), for --trace
try:
    from paperatlas.progress import PoolPace
    done = PoolPace.done
    def traced(self, at, *told):
        backs.append((at, *told))
        done(self, at, *told)
    PoolPace.done = traced
except ImportError:  # a code without PoolPace
    pass
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
print("BACKS " + json.dumps(backs))
"""


def seconds(shown: float | str | None) -> float | None:
    """The estimate recorded: seconds, or the column's H:MM:SS text (a baseline's)."""
    if shown is None or isinstance(shown, (int, float)):
        return shown
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
    lines = done.stdout.splitlines()
    line = next(x for x in lines if x.startswith("SAMPLES "))
    backs = next((x for x in lines if x.startswith("BACKS ")), "BACKS []")
    return json.loads(line[len("SAMPLES ") :]), json.loads(backs[len("BACKS ") :])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--base", type=Path, default=Path("/work/base/src"))
    parser.add_argument("--enrich", type=int, default=15_602, help="papers enriched")
    parser.add_argument("--embed", type=int, default=600, help="papers embedded with --model")
    parser.add_argument("--static", type=int, default=15_602, help="papers embedded with static")
    parser.add_argument("--model", default="minilm-int8", help="the `embed` stage's model")
    parser.add_argument("--batch-size", type=int, default=32, help="embed's papers per batch (--model)")
    parser.add_argument("--stages", default="enrich,embed,static", help="which stages to run")
    parser.add_argument("--runs", type=int, default=1, help="times the whole comparison is run")
    parser.add_argument("--parts", action="store_true", help="print what each estimate came from")
    parser.add_argument("--trace", type=Path, help="write each run's updates and pool results here (JSON)")
    parser.add_argument("--workers", type=int, help="worker processes whatever the size (both codes)")
    args = parser.parse_args()
    # stage: (what the harness runs, papers, model, batch size; 0: the model's default)
    plans = {
        "enrich": ("enrich", args.enrich, "", 0),
        "embed": ("embed", args.embed, args.model, args.batch_size),
        "static": ("embed", args.static, "static", 0),
    }
    stages = args.stages.split(",")
    worst: dict[tuple[str, str], list[float]] = {}
    for number in range(1, args.runs + 1):
        for stage in stages:
            kind, n, model, batch_size = plans[stage]
            for name, src in (("new", REPO / "src"), ("base", args.base)):
                load = os.getloadavg()[0]
                # static as the CLI runs it: one process below 20,000 papers
                workers = None if stage == "static" else args.workers
                samples, backs = run(src, kind, n, model, batch_size, args.data, workers)
                if args.trace:
                    args.trace.mkdir(parents=True, exist_ok=True)
                    trace = args.trace / f"run{number}-{stage}-{name}.json"
                    trace.write_text(json.dumps({"samples": samples, "pool": backs}))
                took = samples[-1][0] - samples[0][0]
                rows = errors(samples)
                worst.setdefault((stage, name), []).append(max(row[3] for row in rows))
                label = "enrich" if kind == "enrich" else f"embed ({model})"
                print(
                    f"run {number} {label:<20} {name:<4} {n:,} papers, {took:.1f} s from the first update, "
                    f"load {load:.1f} -> {os.getloadavg()[0]:.1f}"
                )
                for share, predicted, actual, error, parts in rows:
                    said = "-" if predicted is None else f"{predicted:.2f}"
                    print(f"    {share:4.0%}: predicted {said} s, actual {actual:.2f} s, error {error:.2f}")
                    if args.parts:
                        given = ", ".join(f"{k} {v:.4g}" for k, v in parts.items())
                        print(f"          {given or 'one pace'}")
    for stage in stages:
        new, base = worst[(stage, "new")], worst[(stage, "base")]
        print(
            f"{stage}: worst error per run new {' / '.join(f'{e:.2f}' for e in new)} (target <= 1.5 in each), "
            f"base {' / '.join(f'{e:.2f}' for e in base)}"
        )


if __name__ == "__main__":
    main()
