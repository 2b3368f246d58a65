"""all-MiniLM-L6-v2 docs/s locally vs on Ray, and a projection for 1M papers.

    .venv/bin/python benchmarks/ray_embed.py [--n 10000] [--model minilm-int8] [--cores 2]

On the first N real ICLR 2026 papers (title + abstract), each run in its own process on a
fresh copy of one store without vectors, all with the same cores:

- local:      `embed_store` as `paperatlas embed` runs it (one single-threaded worker
              process per core from 1,000 papers)
- local-threads: `embed_store` in one process, the back end's own threads = cores (the
              local path before stop 14)
- ray-1:      a local Ray instance, 1 actor x `cores` CPUs
- ray-2:      a local Ray instance, `cores` actors x 1 CPU
- two-node:   `ray start --head` + `ray start --address` on loopback (1 CPU each), 2 actors

The time is the embedding job (actors' model load included), not Ray's start; Ray's start is
printed beside it. The overhead is Ray's time over the local one at equal cores (target
<= 15%). The vectors are compared with the local run's (largest |difference|).
The model defaults to `minilm-int8`, the all-MiniLM-L6-v2 back end search fuses; `--model
minilm` is the torch one. Run `uptime` beside it: the machine is shared.

`--stage enrich` times `enrich` the same way (facts and areas; local: `cores` worker
processes; Ray: `cores` actors x 1 CPU, and the two-node cluster) and compares the stored
facts with the local run's (identical or not).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "benchmarks"))
BIN = Path(sys.executable).parent
# The clusters here listen on loopback only: no token (a token left in ~/.ray by another
# Ray run would otherwise be demanded by one side and not sent by the other).
LOOPBACK_ENV = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0", "RAY_AUTH_MODE": "disabled"}


def build_store(path: Path, n: int) -> int:
    from iclr_data import load_rows, real_abstract
    from paperatlas.store import Store

    rows = [r for r in load_rows() if real_abstract(r)][:n]
    st = Store(path)
    with st.transaction():
        for r in rows:
            st.papers.insert({"id": r["id"], "title": r["title"], "abstract": r["abstract"]})
    st.close()
    return len(rows)


def one(args) -> None:
    """Child: one configuration; prints a JSON line."""
    import numpy as np

    from paperatlas.store import Store

    st = Store(args.db)
    info: dict = {}
    if args.stage == "enrich":
        enrich_one(st, args)
        return
    if args.one in ("local", "local-threads"):
        from paperatlas.embed import embed_store

        started = time.perf_counter()
        # local-threads: one process with as many threads as Ray's actors get cores in all
        threads = args.cores if args.one == "local-threads" else None
        result = embed_store(st, args.model, batch_size=args.batch, threads=threads)
    else:
        import ray

        from paperatlas.embed.distributed import RayEmbedJob

        info["ray_start_s"] = start_ray(args)
        started = time.perf_counter()
        result = RayEmbedJob(
            st, args.model, workers=args.workers, cpus_per_worker=args.cpus_per_worker, batch_size=args.batch
        ).run()
        ray.shutdown()
    elapsed = time.perf_counter() - started
    _ids, vectors = st.vectors.get(args.model)
    np.save(args.vectors, vectors)
    print(
        json.dumps(
            {
                "embedded": result["embedded"],
                "seconds": round(elapsed, 2),
                "docs_s": round(result["embedded"] / elapsed, 2),
                **info,
            }
        )
    )


def start_ray(args) -> float:
    """Join the cluster at `--address`, or start a local instance with `--cores` CPUs;
    the seconds it took."""
    import ray

    t0 = time.perf_counter()
    if args.address:
        ray.init(address=args.address, logging_level="ERROR", log_to_driver=False)
    else:
        ray.init(num_cpus=args.cores, include_dashboard=False, logging_level="ERROR", log_to_driver=False)
    return round(time.perf_counter() - t0, 2)


def enrich_one(st, args) -> None:
    """Child, `--stage enrich`: one configuration; the facts go to `--vectors` as JSON."""
    from paperatlas.enrich.distributed import enrich_store_ray
    from paperatlas.enrich.pipeline import enrich_store

    info: dict = {}
    if args.one == "local":
        started = time.perf_counter()
        counts = enrich_store(st, workers=args.cores)
    else:
        import ray

        info["ray_start_s"] = start_ray(args)
        started = time.perf_counter()
        counts = enrich_store_ray(st, workers=args.workers)
        ray.shutdown()
    elapsed = time.perf_counter() - started
    ids = [p["id"] for p in st.papers.iter(id_only=True)]
    state = st.facts.state()
    facts = st.facts.get_many(ids)
    args.vectors.write_text(json.dumps([[i, facts.get(i), state.get(i)] for i in ids]))
    print(
        json.dumps(
            {
                "embedded": counts["enriched"],
                "seconds": round(elapsed, 2),
                "docs_s": round(counts["enriched"] / elapsed, 2),
                **info,
            }
        )
    )


def run_child(config: str, db: Path, vectors: Path, args, **extra) -> dict:
    cmd = [
        sys.executable,
        __file__,
        "--one",
        config,
        "--db",
        str(db),
        "--vectors",
        str(vectors),
        "--model",
        args.model,
        "--batch",
        str(args.batch),
        "--cores",
        str(args.cores),
        "--stage",
        args.stage,
    ]
    for key, value in extra.items():
        cmd += [f"--{key.replace('_', '-')}", str(value)]
    out = subprocess.run(cmd, capture_output=True, text=True, env=LOOPBACK_ENV)
    if out.returncode != 0:
        raise SystemExit(f"{config} failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


class Cluster:
    """Two one-CPU nodes on loopback, each `ray start --block` in its own session."""

    def __init__(self):
        self.temp = tempfile.mkdtemp(prefix="pa-rayb-", dir="/tmp")
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.address = f"127.0.0.1:{self.port}"
        self.nodes: list[subprocess.Popen] = []

    def start(self) -> None:
        base = [
            str(BIN / "ray"),
            "start",
            "--block",
            "--node-ip-address",
            "127.0.0.1",
            "--num-cpus",
            "1",
            "--temp-dir",
            self.temp,
            "--disable-usage-stats",
        ]
        for extra in (
            ["--head", "--port", str(self.port), "--include-dashboard", "false"],
            ["--address", self.address],
        ):
            self.nodes.append(
                subprocess.Popen(
                    base + extra,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    start_new_session=True,
                    env=LOOPBACK_ENV,
                )
            )
            self.wait(len(self.nodes))

    def wait(self, count: int) -> None:
        script = (
            "import ray, sys; ray.init(address=sys.argv[1], logging_level='ERROR'); "
            "print(sum(1 for n in ray.nodes() if n['Alive']))"
        )
        for _ in range(120):
            out = subprocess.run(
                [sys.executable, "-c", script, self.address], capture_output=True, text=True, env=LOOPBACK_ENV
            )
            if out.returncode == 0 and out.stdout.strip().endswith(str(count)):
                return
            time.sleep(1)
        raise SystemExit("the local cluster did not come up")

    def stop(self) -> None:
        for proc in reversed(self.nodes):
            for sig in (signal.SIGTERM, signal.SIGKILL):
                try:
                    os.killpg(proc.pid, sig)
                    proc.wait(timeout=15)
                    break
                except ProcessLookupError:
                    break
                except subprocess.TimeoutExpired:
                    continue
        for pid in processes_mentioning(self.temp):  # anything of this cluster still running
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        shutil.rmtree(self.temp, ignore_errors=True)


def processes_mentioning(text: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as fh:
                    if text.encode() in fh.read():
                        found.append(int(entry))
            except OSError:
                pass
    return found


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=10000)
    ap.add_argument("--model", default="minilm-int8")
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--cores", type=int, default=2)
    ap.add_argument("--nodes", default="10,100", help="cluster sizes for the 1M projection")
    ap.add_argument("--one")
    ap.add_argument("--db", type=Path)
    ap.add_argument("--vectors", type=Path)
    ap.add_argument("--address")
    ap.add_argument("--workers", type=int)
    ap.add_argument("--cpus-per-worker", type=int, default=1)
    ap.add_argument("--stage", choices=("embed", "enrich"), default="embed")
    ap.add_argument("--configs", help="only these runs, comma-separated (local is always run)")
    args = ap.parse_args()
    if args.one:
        one(args)
        return

    import numpy as np

    work = Path(tempfile.mkdtemp(prefix="pa-raybench-"))
    try:
        base = work / "base.db"
        n = build_store(base, args.n)
        what = f"model {args.model}, batch {args.batch}" if args.stage == "embed" else "enrich"
        print(f"{n} ICLR 2026 papers, {what}, {args.cores} cores; load: {os.getloadavg()}", flush=True)
        runs = {}
        configs = [("local", {})]
        if args.stage == "embed":  # extraction is one thread: one actor of n CPUs is not a case
            configs.append(("local-threads", {}))
            configs.append(("ray-1", {"workers": 1, "cpus_per_worker": args.cores}))
        configs.append((f"ray-{args.cores}", {"workers": args.cores, "cpus_per_worker": 1}))
        chosen = set(args.configs.split(",")) | {"local"} if args.configs else None
        configs = [c for c in configs if chosen is None or c[0] in chosen]
        out = "npy" if args.stage == "embed" else "json"
        for config, extra in configs:
            db = work / f"{config}.db"
            shutil.copy(base, db)
            runs[config] = run_child(config, db, work / f"{config}.{out}", args, **extra)
            print(config, runs[config], flush=True)
        if chosen is None or "two-node" in chosen:
            cluster = Cluster()
            try:
                cluster.start()
                db = work / "two-node.db"
                shutil.copy(base, db)
                runs["two-node"] = run_child(
                    "two-node", db, work / f"two-node.{out}", args, address=cluster.address, workers=2
                )
                print("two-node", runs["two-node"], flush=True)
            finally:
                cluster.stop()
        if args.stage == "embed":
            local = np.load(work / "local.npy")
            print("\n| run | docs/s | time s | Ray's start s | overhead vs local | max |diff| |")
        else:
            local_facts = (work / "local.json").read_text()
            print("\n| run | papers/s | time s | Ray's start s | overhead vs local | facts as local |")
        print("| --- | --- | --- | --- | --- | --- |")
        for config, r in runs.items():
            if args.stage == "embed":
                other = np.load(work / f"{config}.npy")
                diff = f"{float(np.abs(other - local).max()) if other.shape == local.shape else float('nan'):.2g}"
            else:
                diff = "identical" if (work / f"{config}.json").read_text() == local_facts else "DIFFERENT"
            overhead = r["seconds"] / runs["local"]["seconds"] - 1
            print(
                f"| {config} | {r['docs_s']:.1f} | {r['seconds']:.1f} | "
                f"{r.get('ray_start_s', '-')} | {overhead:+.1%} | {diff} |"
            )
        basis = "two-node" if "two-node" in runs else max(runs, key=lambda c: runs[c]["docs_s"])
        per_core = runs[basis]["docs_s"] / args.cores
        print(
            f"\nPROJECTION (not measured): 1M papers at the {basis} run's {per_core:.1f} "
            f"docs/s per core, Ray's overhead included, linear in cores:"
        )
        for nodes in [int(x) for x in args.nodes.split(",")]:
            for cores in (8, 32):
                hours = 1_000_000 / (per_core * nodes * cores) / 3600
                print(f"  {nodes} nodes x {cores} cores: {hours:.2f} h")
        print(
            f"  this machine ({args.cores} cores, local): "
            f"{1_000_000 / runs['local']['docs_s'] / 3600:.1f} h; load at end {os.getloadavg()}"
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
