"""Load test of the web app on a 15k-paper atlas, against 127.0.0.1 only.

Starts `paperatlas serve` as a separate process on a free port, then runs N concurrent
closed-loop clients (each sends its next request as soon as the last one answered) for a
fixed time: first on /healthz (the baseline: the framework's own floor), then on a mix of
search pages and paper pages. Prints requests/s, p50/p95/p99 latency, errors and how many
answers came from the server's page cache.

The load generator is wrk (a C client: it takes little of the CPU the server needs) when
installed, else a Python client (httpx); both send `Accept-Encoding: gzip` like a browser.

What the mix asks for (so that a cache cannot look better than it would be in use):
- paper pages: uniformly random over ALL papers of the store;
- searches: 15% the typed queries of benchmarks/queries (English, paraphrases, Chinese),
  85% an author keyword of a uniformly random paper (so a topic is searched as often as
  papers carry it: "diffusion models" often, "HSSBench" rarely). `--queries uniform`
  draws every distinct query equally often instead (the worst case for a cache).

    .venv/bin/python benchmarks/web_load.py [--data ../shared/data/iclr2026.jsonl.gz]
        [--db /work/cache/web_load/atlas.db] [--clients 50] [--seconds 30] [--workers N]
        [--queries natural|uniform] [--client wrk|python] [--no-cache]
        [--baseline-src /tmp/paperatlas-base] [--add-while-loading 5000]

The atlas is built once (add, enrich, embed with the default model, map) and reused from --db.
Measuring starts once every server process reports "warm" on /healthz (its background
preload of keyword postings and similar papers is done); the script prints how long that took.

`--baseline-src DIR`: also measure the code in DIR (a checkout, e.g. the starting commit)
in the same run, same plan, same clients, on its own copy of the atlas built by that code
(`--db` with "-baseline" in its name); the servers run one after the other. Every server
here is started from its source tree (`python -c "...paperatlas.cli.main()" serve`).

`--kinds`: instead of the load, one server process on an existing store (`--db`, opened
`--read-only`; a 1M-paper store too), each kind of page asked for a few times one after
the other (each time another paper, query, topic or view): seconds to the first byte and
to the last, compressed size, and the server's resident memory (its own RSS, and the
peak, VmHWM) after start, once warm, and after each kind. A watchdog kills a server past
`--max-rss-gb` or `--max-seconds` (an old version may not cope with the store at all).

    .venv/bin/python benchmarks/web_load.py --kinds --db /tmp/addspeed/n1m2.db
        [--baseline-src /tmp/base14] [--json out.json]

`--add-while-loading N`: the atlas is built WITHOUT the data's last N papers, and each
server is loaded twice: once as usual, once while `paperatlas add` (the same code's, with
its enrichment) adds those N papers to a fresh copy of the atlas that the server is
serving. The add starts with the load; its wall time and exit code are printed.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import os
import random
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# the code measured: this checkout, or --src (set before anything of paperatlas is imported)
SRC = Path(os.environ.get("PAPERATLAS_BENCH_SRC") or REPO / "src")
sys.path.insert(0, str(SRC))

TYPED_SHARE = 0.15  # share of searches that are the typed benchmark queries


def build_store(db: Path, data: Path, hold_back: int = 0) -> None:
    """Papers (as `paperatlas add` stores them), facts, default-model vectors and the map;
    each step is skipped when already done. `hold_back`: leave the data's last N papers
    out, written to held_back_file(db) for the add-while-loading runs."""
    from paperatlas import Atlas

    atlas = Atlas(db)
    if atlas.stats()["papers"] == 0:
        tmp = db.with_suffix(".jsonl")
        with gzip.open(data, "rt", encoding="utf-8") as src:
            rows = [
                json.dumps(
                    {
                        k: r.get(k)
                        for k in (
                            "id",
                            "title",
                            "abstract",
                            "keywords",
                            "primary_area",
                            "decision",
                            "rating_avg",
                        )
                    },
                    ensure_ascii=False,
                )
                for r in map(json.loads, src)
            ]
        kept = rows[: len(rows) - hold_back]
        tmp.write_text("\n".join(kept) + "\n", encoding="utf-8")
        if hold_back:
            held_back_file(db).write_text("\n".join(rows[len(kept) :]) + "\n", encoding="utf-8")
        print(f"adding {len(kept):,} papers ...", flush=True)
        atlas.add([tmp], list_name="iclr2026", enrich=False)
        tmp.unlink()
    print("enrich, embed (default model), map: only what is missing ...", flush=True)
    atlas.enrich()
    atlas.embed()
    atlas.build_map()
    atlas.close()
    with sqlite3.connect(db) as conn:  # one file, so that a copy of it is the whole atlas
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def store_path(db: Path, hold_back: int) -> Path:
    """The atlas of a run: --db, or beside it the one without the held-back papers."""
    return db.with_name(f"{db.stem}-minus{hold_back}{db.suffix}") if hold_back else db


def held_back_file(db: Path) -> Path:
    return db.with_name(db.stem + "-held-back.jsonl")


def cli_command(src: Path) -> list[str]:
    """`paperatlas` of the code in `src` (a package directory's parent)."""
    return [
        sys.executable,
        "-c",
        f"import sys; sys.path.insert(0, {str(src)!r}); from paperatlas.cli import main; main()",
    ]


def typed_queries() -> list[str]:
    out = []
    for path in sorted((REPO / "benchmarks" / "queries").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                text = row.get("query") or row.get("description")
                if text:
                    out.append(text)
    return out


def paper_keywords(db: Path) -> list[list[str]]:
    """Each paper's author keywords (lower-cased), one list per paper."""
    from paperatlas.store import Store

    store = Store(db)
    out = []
    for row in store.papers.iter():
        words = [" ".join(k.split()).lower() for k in row.get("keywords") or []]
        out.append([w for w in words if 2 <= len(w) <= 80])
    store.close()
    return out


def request_plan(
    ids: list[str], keywords: list[list[str]], typed: list[str], n: int, queries: str, seed: int = 0
) -> tuple[list[str], dict]:
    """n request paths, half paper pages and half searches, in random order."""
    from urllib.parse import quote_plus

    rng = random.Random(seed)
    distinct = sorted({k for ks in keywords for k in ks} | set(typed))
    with_words = [ks for ks in keywords if ks]
    paths, searched = [], []
    for _ in range(n):
        if rng.random() < 0.5:
            paths.append("/papers/" + rng.choice(ids))
            continue
        if queries == "uniform":
            q = rng.choice(distinct)
        elif rng.random() < TYPED_SHARE:
            q = rng.choice(typed)
        else:
            q = rng.choice(rng.choice(with_words))
        searched.append(q)
        paths.append("/search?q=" + quote_plus(q))
    info = {
        "distinct_queries_in_pool": len(distinct),
        "distinct_queries_in_plan": len(set(searched)),
        "distinct_papers_in_plan": len({p for p in paths if p.startswith("/papers/")}),
    }
    return paths, info


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(db: Path, port: int, workers: int | None, cache: bool, src: Path = SRC) -> subprocess.Popen:
    env = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    if not cache:
        env["PAPERATLAS_PAGE_CACHE"] = "0"
    cmd = [*cli_command(src), "serve", "--db", str(db), "--port", str(port)]
    if workers:
        cmd += ["--workers", str(workers)]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    import httpx

    deadline = time.time() + 120
    while time.time() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.3)
    proc.kill()
    sys.exit("server did not start: " + proc.stderr.read().decode()[-2000:])


def wait_until_warm(base: str, timeout: float = 300.0) -> float:
    """Seconds until every worker has finished its background preload (keyword postings,
    similar papers): /healthz says "warm" 40 times in a row (each answer comes from
    whichever worker the connection reached). The load test measures a running server,
    not its first seconds."""
    import httpx

    start = time.time()
    in_a_row = 0
    while time.time() - start < timeout:
        with httpx.Client() as client:  # a new connection each time: any worker may answer
            warm = client.get(f"{base}/healthz", timeout=5).json().get("warm", True)
        in_a_row = in_a_row + 1 if warm else 0
        if in_a_row >= 40:
            return time.time() - start
        time.sleep(0.05 if warm else 0.5)
    sys.exit(f"server not warm after {timeout:.0f} s")


def server_cpu_seconds(pid: int) -> float:
    """CPU time (user + system) used so far by the server process and its live children
    (uvicorn's workers), from /proc: per request, it is a figure other jobs on the machine
    barely change (wall-clock latencies they do)."""
    tick = os.sysconf("SC_CLK_TCK")

    def stat(p: int) -> list[str]:
        text = Path(f"/proc/{p}/stat").read_text()
        return text[text.rindex(")") + 2 :].split()  # fields after the command name

    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = stat(int(entry.name))
        except (OSError, ValueError):
            continue
        if int(entry.name) == pid or int(fields[1]) == pid:  # fields[1]: parent pid
            total += (int(fields[11]) + int(fields[12])) / tick  # utime + stime
    return total


# -- wrk ------------------------------------------------------------------------------------------

WRK_SCRIPT = r"""
-- every thread walks the request plan from its own starting point; counts cache answers
local paths, pos = {}, 1
hits, misses = 0, 0  -- globals: done() reads them from each thread
local threads, started = {}, 0
function setup(thread)
  started = started + 1
  thread:set("number", started)
  table.insert(threads, thread)
end
function init(args)
  for line in io.lines(args[1]) do paths[#paths + 1] = line end
  -- the threads walk disjoint stretches of the plan: no page repeats because of them
  pos = math.floor((number - 1) * #paths / tonumber(args[2])) + 1
  wrk.headers["Accept-Encoding"] = "gzip"
end
function request()
  local p = paths[pos]
  pos = pos % #paths + 1
  return wrk.format("GET", p)
end
function response(status, headers, body)
  local c = headers["x-cache"] or headers["X-Cache"]
  if c == "hit" then hits = hits + 1 elseif c == "miss" then misses = misses + 1 end
end
function done(summary, latency, requests)
  local h, m = 0, 0
  for _, t in ipairs(threads) do h = h + t:get("hits"); m = m + t:get("misses") end
  local e = summary.errors
  io.write(string.format(
    'WRKJSON {"requests": %d, "seconds": %.3f, "p50": %.3f, "p90": %.3f, "p95": %.3f, ' ..
    '"p99": %.3f, "max": %.3f, "connect": %d, "read": %d, "write": %d, "status": %d, ' ..
    '"timeout": %d, "hits": %d, "misses": %d}\n',
    summary.requests, summary.duration / 1e6, latency:percentile(50) / 1e3,
    latency:percentile(90) / 1e3, latency:percentile(95) / 1e3, latency:percentile(99) / 1e3,
    latency.max / 1e3, e.connect, e.read, e.write, e.status, e.timeout, h, m))
end
"""


def run_wrk(base: str, paths: list[str], clients: int, seconds: float, threads: int = 2) -> dict:
    """wrk with the plan: one Lua state per thread, each given its thread number."""
    with tempfile.TemporaryDirectory() as tmp:
        plan = Path(tmp) / "paths.txt"
        plan.write_text("\n".join(paths) + "\n", encoding="utf-8")
        script = Path(tmp) / "plan.lua"
        script.write_text(WRK_SCRIPT, encoding="utf-8")
        cmd = [
            "wrk",
            f"-t{threads}",
            f"-c{clients}",
            f"-d{int(seconds)}s",
            "--timeout",
            "10s",
            "-s",
            str(script),
            base,
            "--",
            str(plan),
            str(threads),
        ]
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    m = re.search(r"WRKJSON (\{.*\})", out)
    if not m:
        sys.exit("wrk gave no result:\n" + out)
    r = json.loads(m.group(1))
    errors = r["connect"] + r["read"] + r["write"] + r["status"] + r["timeout"]
    return {
        "requests": r["requests"],
        "rps": round(r["requests"] / r["seconds"], 1),
        "p50_ms": round(r["p50"], 1),
        "p95_ms": round(r["p95"], 1),
        "p99_ms": round(r["p99"], 1),
        "max_ms": round(r["max"], 1),
        "errors": errors,
        "error_kinds": {k: r[k] for k in ("connect", "read", "write", "status", "timeout") if r[k]},
        "cache_hits": r["hits"],
        "cache_misses": r["misses"],
    }


# -- Python client (when wrk is missing) ----------------------------------------------------------


async def _python_load(base: str, paths: list[str], clients: int, seconds: float) -> dict:
    import httpx
    import numpy as np

    latencies: list[float] = []
    errors = hits = misses = 0
    stop = time.perf_counter() + seconds
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)

    async def client(start: int, http: httpx.AsyncClient) -> None:
        nonlocal errors, hits, misses
        pos = start
        while time.perf_counter() < stop:
            url = paths[pos % len(paths)]
            pos += 1
            t0 = time.perf_counter()
            try:
                r = await http.get(base + url, headers={"Accept-Encoding": "gzip"})
                ok = r.status_code == 200
                hits += r.headers.get("x-cache") == "hit"
                misses += r.headers.get("x-cache") == "miss"
            except httpx.HTTPError:
                ok = False
            latencies.append(time.perf_counter() - t0)
            errors += not ok

    async with httpx.AsyncClient(limits=limits, timeout=60) as http:
        started = time.perf_counter()
        await asyncio.gather(*(client(i * 7919, http) for i in range(clients)))
        elapsed = time.perf_counter() - started
    a = np.array(latencies) * 1000
    return {
        "requests": len(a),
        "rps": round(len(a) / elapsed, 1),
        "p50_ms": round(float(np.percentile(a, 50)), 1),
        "p95_ms": round(float(np.percentile(a, 95)), 1),
        "p99_ms": round(float(np.percentile(a, 99)), 1),
        "max_ms": round(float(a.max()), 1),
        "errors": errors,
        "cache_hits": hits,
        "cache_misses": misses,
    }


def run_load(client: str, base: str, paths: list[str], clients: int, seconds: float) -> dict:
    if client == "wrk":
        return run_wrk(base, paths, clients, seconds)
    return asyncio.run(_python_load(base, paths, clients, seconds))


def show(name: str, s: dict) -> None:
    answered = s["cache_hits"] + s["cache_misses"]
    cache = f"  cache hits {100 * s['cache_hits'] / answered:.0f}%" if answered else ""
    print(
        f"  {name:14} {s['requests']:>7} req  {s['rps']:>7.1f} req/s  p50 {s['p50_ms']:>7.1f} ms"
        f"  p95 {s['p95_ms']:>7.1f} ms  p99 {s['p99_ms']:>7.1f} ms  errors {s['errors']}"
        f"{cache}  server CPU {s['server_cpu_ms_per_request']:.2f} ms/req",
        flush=True,
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, default=REPO / "../shared/data/iclr2026.jsonl.gz")
    ap.add_argument("--db", type=Path, default=Path("/work/cache/web_load/atlas.db"))
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--baseline-seconds", type=float, default=10)
    ap.add_argument(
        "--workers", type=int, default=None, help="server processes (default: what `paperatlas serve` picks)"
    )
    ap.add_argument("--queries", choices=("natural", "uniform"), default="natural")
    ap.add_argument("--client", choices=("wrk", "python"), default="wrk" if shutil.which("wrk") else "python")
    ap.add_argument("--no-cache", action="store_true", help="serve without the page cache")
    ap.add_argument(
        "--only", choices=("mix", "paper", "search"), default="mix", help="the mix, or only one kind of page"
    )
    ap.add_argument("--json", type=Path, help="also write the figures here")
    ap.add_argument(
        "--url",
        help="load a server already running there (e.g. an older "
        "version) instead of starting `paperatlas serve` on --db",
    )
    ap.add_argument("--pid", type=int, help="with --url: the server's process id, for its CPU")
    ap.add_argument(
        "--baseline-src", type=Path, help="also measure the code of this checkout (e.g. /tmp/paperatlas-base)"
    )
    ap.add_argument(
        "--add-while-loading",
        type=int,
        default=0,
        metavar="N",
        help="build without the data's last N papers; load each server a second "
        "time while `paperatlas add` adds them",
    )
    ap.add_argument(
        "--add-seconds", type=float, default=60, help="length of the load run that has the add running"
    )
    ap.add_argument("--build-only", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--kinds", action="store_true", help="time each kind of page on --db (see above)")
    ap.add_argument("--max-rss-gb", type=float, default=8.0, help="--kinds: kill a server past this RSS")
    ap.add_argument("--max-seconds", type=float, default=900.0, help="--kinds: kill a server after this")
    ap.add_argument(
        "--warm-seconds", type=float, default=300.0, help="--kinds: wait at most this for the preload"
    )
    ap.add_argument(
        "--skip-kinds", nargs="*", default=[], metavar="WORD", help="--kinds: leave out kinds naming WORD"
    )
    ap.add_argument(
        "--sorted-pages",
        nargs="*",
        metavar="SORT=N,N",
        help="--kinds: the pages asked of each sorted list, e.g. title=1,2,200 name=1 (a sort left out: none)",
    )
    ap.add_argument(
        "--passes",
        type=int,
        default=1,
        help="--kinds: ask every URL this many times, each pass's URLs new to the page cache (pass=k): "
        "the first cold, the next warm",
    )
    ap.add_argument(
        "--only-baseline", action="store_true", help="--kinds: the baseline's server only (this code's not)"
    )
    ap.add_argument(
        "--baseline-first",
        action="store_true",
        help="--kinds: the baseline's pages first, then --db opened for writing by this code "
        "(its migrations timed: an older baseline cannot open a store of a newer schema), then this code's",
    )
    args = ap.parse_args()
    if args.kinds:
        kinds_main(args)
        return
    hold = args.add_while_loading
    db = store_path(args.db, hold)
    db.parent.mkdir(parents=True, exist_ok=True)
    if args.build_only:  # run by the parent with PAPERATLAS_BENCH_SRC set: one code's atlas
        build_store(db, args.data, hold)
        return
    build_store(db, args.data, hold)
    servers = [("this code", SRC, db)]
    if args.baseline_src:
        base_src = args.baseline_src.resolve() / "src"
        base_given = args.db.with_name(f"{args.db.stem}-baseline{args.db.suffix}")
        base_db = store_path(base_given, hold)
        print(f"building the baseline's atlas with {base_src} ...", flush=True)
        subprocess.run(
            [
                sys.executable,
                __file__,
                "--build-only",
                "--db",
                str(base_given),
                "--data",
                str(args.data),
                "--add-while-loading",
                str(hold),
            ],
            env=dict(os.environ, PAPERATLAS_BENCH_SRC=str(base_src)),
            check=True,
        )
        servers.append((f"baseline {args.baseline_src}", base_src, base_db))

    from paperatlas.store import Store

    ids = Store(db).papers.ids()
    paths, info = request_plan(ids, paper_keywords(db), typed_queries(), 200_000, args.queries)
    if args.only != "mix":
        prefix = "/papers/" if args.only == "paper" else "/search?"
        paths = [p for p in paths if p.startswith(prefix)]
    print(
        f"{len(ids):,} papers; {args.clients} clients; client {args.client}; queries "
        f"{args.queries} ({info['distinct_queries_in_pool']:,} distinct in the pool); page "
        f"cache {'off' if args.no_cache else 'on'}; load {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    if args.url:
        results = {"given server": measure(args, args.url.rstrip("/"), None, args.pid, ids, paths)}
    else:
        results = {}
        for label, src, served in servers:
            results[label] = serve_and_measure(args, label, src, served, ids, paths)
            if hold:
                copy = served.with_name(f"{served.stem}-scratch{served.suffix}")
                shutil.copyfile(served, copy)
                results[label + ", add running"] = serve_and_measure(
                    args,
                    label + f", while adding {hold:,} papers",
                    src,
                    copy,
                    ids,
                    paths,
                    add=held_back_file(served),
                )
                copy.unlink()
                for extra in ("-wal", "-shm"):
                    Path(str(copy) + extra).unlink(missing_ok=True)
    if len(results) > 1:
        print("\nsummary (pages):")
        for label, r in results.items():
            add = r.get("add")
            print(
                f"  {label:45} p50 {r['pages']['p50_ms']:>7.1f}  p95 {r['pages']['p95_ms']:>7.1f}"
                f"  p99 {r['pages']['p99_ms']:>7.1f} ms  {r['pages']['rps']:>6.1f} req/s  "
                f"errors {r['pages']['errors']}" + (f"  add: {add}" if add else "")
            )
        first = next(iter(results.values()))["pages"]["p95_ms"]
        for label, r in list(results.items())[1:]:
            print(f"  p95 this code / {label}: {first / max(r['pages']['p95_ms'], 0.1):.2f}")
    if args.json:
        args.json.write_text(
            json.dumps(
                {"args": {k: str(v) for k, v in vars(args).items()}, "plan": info, "results": results},
                indent=1,
            ),
            encoding="utf-8",
        )


def serve_and_measure(
    args, label: str, src: Path, db: Path, ids: list[str], paths: list[str], add: Path | None = None
) -> dict:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(db, port, args.workers, cache=not args.no_cache, src=src)
    try:
        print(f"\n== {label}: server on {base} ({src})", flush=True)
        return measure(args, base, src, server.pid, ids, paths, add=add, db=db)
    finally:
        stop_server(server)


def measure(
    args,
    base: str,
    src: Path | None,
    pid: int | None,
    ids: list[str],
    paths: list[str],
    add: Path | None = None,
    db: Path | None = None,
) -> dict:
    warm_s = wait_until_warm(base)
    print(f"workers warm (background preload done) {warm_s:.1f} s after the first answer", flush=True)
    # warm up: compiles templates, touches the page code paths in every worker
    run_load(args.client, base, ["/search?q=warm+up", "/papers/" + ids[0]] * 50, 4, 3)
    cpu0 = server_cpu_seconds(pid) if pid else 0.0
    baseline = run_load(args.client, base, ["/healthz"], args.clients, args.baseline_seconds)
    cpu1 = server_cpu_seconds(pid) if pid else 0.0
    adding, started = None, time.time()
    if add is not None:  # `paperatlas add` of the same code, into the atlas being served
        adding = subprocess.Popen(
            [*cli_command(src), "add", str(add), "--db", str(db), "--list", "added"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
    load = run_load(
        args.client, base, paths, args.clients, args.add_seconds if add is not None else args.seconds
    )
    cpu2 = server_cpu_seconds(pid) if pid else 0.0
    for result, cpu in ((baseline, cpu1 - cpu0), (load, cpu2 - cpu1)):
        result["server_cpu_ms_per_request"] = round(1000 * cpu / result["requests"], 2)
    show("healthz", baseline)
    show(f"pages ({args.only})", load)
    print(
        f"ratio pages/baseline: req/s {load['rps'] / baseline['rps']:.2f}, "
        f"p95 {load['p95_ms'] / max(baseline['p95_ms'], 0.1):.1f}x; "
        f"load at end {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    out = {"baseline": baseline, "pages": load, "warm_s": round(warm_s, 1)}
    if adding is not None:
        running = adding.poll() is None
        _, err = adding.communicate(timeout=1800)
        out["add"] = (
            f"exit {adding.returncode} after {time.time() - started:.0f} s"
            f"{' (still running when the load ended)' if running else ''}"
        )
        print(
            f"  add of {add.name}: {out['add']}; papers now "
            f"{sqlite3.connect(db).execute('SELECT count(*) FROM papers').fetchone()[0]:,}",
            flush=True,
        )
        if adding.returncode:
            print("  add's stderr (tail): " + err.decode(errors="replace")[-500:])
    return out


# -- each kind of page, one server, a big store (--kinds) ---------------------------------------


def kind_urls(
    db: Path, seed: int = 0, each: int = 3, sorted_pages: dict[str, tuple[int, ...]] | None = None
) -> dict[str, list[str]]:
    """A few URLs of every kind of page, each one different (no page cache answers);
    `sorted_pages`: the pages asked of each sorted list by sort (default 1, 2, 200 by
    title; 1, 3, 300 by name; 1, 4, 400 by rating; a sort left out: none)."""
    from urllib.parse import quote_plus

    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    rng = random.Random(seed)
    (top,) = conn.execute("SELECT max(rowid) FROM papers").fetchone()
    ids: list[str] = []
    while len(ids) < each:
        row = conn.execute("SELECT id FROM papers WHERE rowid = ?", (rng.randint(1, top),)).fetchone()
        ids += [row[0]] if row else []
    scope = conn.execute("SELECT scope FROM maps WHERE scope NOT LIKE 'reference:%' LIMIT 1").fetchone()
    scope = scope[0] if scope else "*"
    lst = "" if scope == "*" else "list=" + quote_plus(scope)
    topics = conn.execute(
        "SELECT topic_id, x, y FROM topics WHERE scope = ? AND level = 0 ORDER BY size DESC LIMIT ?",
        (scope, each),
    ).fetchall()
    conn.close()
    queries = ["diffusion models", "graph neural network over-smoothing", "reinforcement learning reward"]

    def q(url: str, *more: str) -> str:
        parts = [p for p in (*more, lst) if p]
        return url + ("?" + "&".join(parts) if parts else "")

    boxes = [(x - 0.04, y - 0.04, x + 0.04, y + 0.04) for _, x, y in topics]
    return {
        "overview /": [q("/", f"v={i}") for i in range(each)],
        "map page /map": [q("/map", f"v={i}") for i in range(each)],
        "map data /api/map": [q("/api/map", f"v={i}") for i in range(each)],
        "map view /api/map/points (zoom 6)": [
            q("/api/map/points", "bbox=" + ",".join(f"{v:.4f}" for v in b), "zoom=6") for b in boxes
        ],
        "paper list /papers": [q("/papers", f"page={p}") for p in (1, 2, 200)][:each],
        "paper list by topic": [q("/papers", f"topic={t}") for t, _, _ in topics],
        "topic page": [q(f"/topics/{t}") for t, _, _ in topics],
        "paper page (similar papers)": ["/papers/" + quote_plus(i, safe="") for i in ids],
        "search page": [q("/search", "q=" + quote_plus(t)) for t in queries[:each]],
        "search API": ["/api/search?q=" + quote_plus(t + " methods") for t in queries[:each]],
        **{
            f"paper list sorted by {by}": [
                q("/papers", f"sort={by}", f"page={p}")
                for p in (pages if sorted_pages is None else sorted_pages.get(by, ()))
            ]
            for by, pages in (("title", (1, 2, 200)), ("name", (1, 3, 300)), ("rating", (1, 4, 400)))
        },
    }


def process_memory(pid: int) -> tuple[float, float]:
    """(RSS, peak RSS) in MB of a process and its children, from /proc."""
    rss = peak = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        if int(entry.name) == pid or int(fields.get("PPid", "0")) == pid:
            rss += int(fields.get("VmRSS", "0 kB").split()[0]) / 1024
            peak += int(fields.get("VmHWM", "0 kB").split()[0]) / 1024
    return round(rss), round(peak)


class Watchdog:
    """Kills the server past max_rss_mb (its RSS) or max_seconds from now; says why."""

    def __init__(self, proc: subprocess.Popen, max_rss_mb: float, max_seconds: float):
        import threading

        self.proc, self.max_rss_mb, self.deadline = proc, max_rss_mb, time.time() + max_seconds
        self.why: str | None = None
        self.peak = 0.0
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        while self.proc.poll() is None:
            rss, _ = process_memory(self.proc.pid)
            self.peak = max(self.peak, rss)
            if rss > self.max_rss_mb:
                self.why = f"killed: RSS {rss:,.0f} MB > {self.max_rss_mb:,.0f} MB"
            elif time.time() > self.deadline:
                self.why = "killed: out of time"
            if self.why:
                self.proc.kill()
                return
            time.sleep(0.2)


def timed_get(base: str, url: str, timeout: float, pid: int | None = None) -> dict:
    """One GET as a browser sends it (gzip): seconds to the response's first byte and to its
    last; with the server's `pid`, the CPU seconds it spent meanwhile (a figure the machine's
    other load barely changes; its background preload counts too while it runs)."""
    import httpx

    cpu0 = server_cpu_seconds(pid) if pid else 0.0
    t0 = time.perf_counter()
    with (
        httpx.Client(timeout=timeout) as client,
        client.stream("GET", base + url, headers={"Accept-Encoding": "gzip"}) as r,
    ):
        first = time.perf_counter()  # the status line and headers are in
        size = sum(len(chunk) for chunk in r.iter_raw())
        end = time.perf_counter()
        return {
            "status": r.status_code,
            "first_byte_ms": round(1000 * (first - t0)),
            "total_ms": round(1000 * (end - t0)),
            "kb": round(size / 1024),
            **({"server_cpu_ms": round(1000 * (server_cpu_seconds(pid) - cpu0))} if pid else {}),
        }


def measure_kinds(label: str, src: Path, db: Path, urls: dict[str, list[str]], args) -> dict:
    """Start one server process (read-only) and ask for every kind of page; see --kinds."""
    import httpx

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    cmd = [*cli_command(src), "serve", "--db", str(db), "--port", str(port), "--workers", "1", "--read-only"]
    print(f"\n== {label} ({src}); load {os.getloadavg()[0]:.1f}", flush=True)
    t0 = time.time()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    dog = Watchdog(proc, args.max_rss_gb * 1024, args.max_seconds)
    out: dict = {"label": label, "pages": {}}
    try:
        wait_healthy(proc, base)
        if proc.poll() is not None:
            out["failed"] = dog.why or f"exit {proc.returncode} before answering"
            print("  " + out["failed"], flush=True)
            return out
        out["start_s"] = round(time.time() - t0, 1)
        out["rss_started_mb"], out["peak_started_mb"] = process_memory(proc.pid)
        print(f"  answering after {out['start_s']} s; RSS {out['rss_started_mb']:,} MB", flush=True)
        deadline = time.time() + args.warm_seconds
        warm = False
        while time.time() < deadline and proc.poll() is None:
            if httpx.get(base + "/healthz", timeout=30).json().get("warm", True):
                warm = True
                break
            time.sleep(0.5)
        out["warm_s"] = round(time.time() - t0, 1) if warm else None
        out["rss_warm_mb"], out["peak_warm_mb"] = process_memory(proc.pid)
        print(
            f"  {'warm' if warm else 'NOT warm (background preload still running)'} after "
            f"{time.time() - t0:.1f} s; RSS {out['rss_warm_mb']:,} MB",
            flush=True,
        )
        passes = [
            (f"{k} (pass {i + 1})", [u + ("&" if "?" in u else "?") + f"pass={i + 1}" for u in v])
            if i
            else (k, v)
            for i in range(args.passes)
            for k, v in urls.items()
        ]
        for kind, kind_urls_ in passes:
            rows = []
            for url in kind_urls_:
                try:
                    rows.append({"url": url, **timed_get(base, url, args.max_seconds, proc.pid)})
                except httpx.HTTPError as exc:
                    rows.append({"url": url, "error": dog.why or type(exc).__name__})
                    break
            rss, peak = process_memory(proc.pid) if proc.poll() is None else (0, 0)
            out["pages"][kind] = {"requests": rows, "rss_mb": rss, "peak_mb": peak}
            ok = [r for r in rows if r.get("status") == 200]
            shown = (
                "  ".join(
                    f"{r['first_byte_ms']}/{r['total_ms']} ms (CPU {r['server_cpu_ms']}) {r['kb']} KB"
                    for r in ok
                )
                if ok
                else ", ".join(str(r.get("status", r.get("error"))) for r in rows)
            )
            print(f"  {kind:36} {shown}   RSS {rss:,} MB (peak {peak:,})", flush=True)
            if proc.poll() is not None:
                out["failed"] = dog.why or f"exit {proc.returncode}"
                print("  " + out["failed"], flush=True)
                break
    finally:
        if proc.poll() is None:
            stop_server(proc)
        out["watchdog_peak_mb"] = round(dog.peak)
    return out


def kinds_main(args) -> None:
    pages = None
    if args.sorted_pages:  # title=1,2,200 name=1 ...
        pages = {
            by: tuple(int(p) for p in spec.split(",") if p)
            for by, spec in (item.split("=", 1) for item in args.sorted_pages)
        }
    urls = {
        k: v
        for k, v in kind_urls(args.db, sorted_pages=pages).items()
        if not any(word in k for word in args.skip_kinds)
    }
    runs = [] if args.only_baseline else [("this code", SRC)]
    if args.baseline_src:
        runs.append((f"baseline {args.baseline_src}", args.baseline_src.resolve() / "src"))
    if args.baseline_first:
        runs.reverse()
    results = []
    for label, src in runs:
        if args.baseline_first and src == SRC:
            results.append({"label": "migration (this code opens the store for writing)", **migrate(args.db)})
        results.append(measure_kinds(label, src, args.db, urls, args))
    if args.json:
        args.json.write_text(json.dumps({"db": str(args.db), "results": results}, indent=1), encoding="utf-8")


def migrate(db: Path) -> dict:
    """Open `db` for writing with this code (its migrations and their backfills run), timed."""
    script = (
        f"import sys; sys.path.insert(0, {str(SRC)!r}); from paperatlas.store import Store; "
        f"Store({str(db)!r}).close()"
    )
    start = time.perf_counter()
    proc = subprocess.run(
        ["/usr/bin/time", "-v", sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    seconds = time.perf_counter() - start
    fields = {
        name.strip(): value.strip()
        for name, _, value in (line.partition(": ") for line in proc.stderr.splitlines())
    }
    peak = fields.get("Maximum resident set size (kbytes)", "?")
    user, system = (fields.get(f"{kind} time (seconds)", "?") for kind in ("User", "System"))
    print(f"migration: {seconds:.1f} s (CPU {user} s user + {system} s sys), peak RSS {peak} kB")
    return {"seconds": round(seconds, 1), "user_s": user, "sys_s": system, "peak_rss_kb": peak}


def wait_healthy(proc, base: str, pause: float = 0.2) -> None:
    """Until the server at `base` answers /healthz, or its process has ended."""
    import httpx

    while proc.poll() is None:
        try:
            if httpx.get(base + "/healthz", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(pause)


def stop_server(server: subprocess.Popen) -> None:
    server.terminate()  # a graceful stop: finishes the requests it has (slow on a busy machine)
    try:
        _, err = server.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        print("server did not stop in 60 s: killed (its workers die with it)")
        server.kill()
        _, err = server.communicate()
    tail = err.decode(errors="replace").strip().splitlines()[-30:]
    if any("Traceback" in line or "ERROR" in line for line in tail):
        print("server log (tail):\n" + "\n".join(tail))


if __name__ == "__main__":
    main()
