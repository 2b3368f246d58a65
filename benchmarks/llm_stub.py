"""The model-the-user-brings path against a stub OpenAI-compatible server on 127.0.0.1.

    nice .venv/bin/python benchmarks/llm_stub.py [--papers 1000] [--latency 0.02]

N synthetic papers are summarised (`Atlas.llm_run("summarize")`) by a stub that answers
after `--latency` seconds, once 8 calls at a time and once 1 at a time (the baseline, same
run, fresh atlas each): papers per second, requests the stub saw, answers stored. What it
measures is paperatlas's own overhead and concurrency, not a model's speed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from paperatlas import Atlas  # noqa: E402

ANSWER = json.dumps(
    {
        "choices": [{"message": {"content": "这篇论文研究合成任务上的图表示学习。"}}],
        "usage": {"total_tokens": 40},
    }
).encode()


def serve(latency: float) -> tuple[ThreadingHTTPServer, list[int]]:
    seen = [0]
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers["Content-Length"]))
            with lock:
                seen[0] += 1
            time.sleep(latency)
            self.send_response(200)
            self.send_header("Content-Length", str(len(ANSWER)))
            self.end_headers()
            self.wfile.write(ANSWER)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, seen


def run(papers: int, concurrency: int, latency: float) -> tuple[float, int, int]:
    server, seen = serve(latency)
    os.environ["PAPERATLAS_LLM_BASE_URL"] = f"http://127.0.0.1:{server.server_port}/v1"
    os.environ["PAPERATLAS_LLM_MODEL"] = "stub"
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "papers.jsonl"
        source.write_text(
            "".join(
                json.dumps({"id": f"p{i}", "title": f"Paper {i}", "abstract": f"We study graphs, case {i}."})
                + "\n"
                for i in range(papers)
            )
        )
        with Atlas(Path(tmp) / "atlas.db") as atlas:
            atlas.add([source], enrich=False)
            started = time.monotonic()
            report = atlas.llm_run("summarize", concurrency=concurrency)
            seconds = time.monotonic() - started
            stored = report.accepted + report.rejected
    server.shutdown()
    return papers / seconds, seen[0], stored


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--papers", type=int, default=1000)
    parser.add_argument("--latency", type=float, default=0.02)
    args = parser.parse_args()
    fast = run(args.papers, 8, args.latency)
    slow = run(args.papers, 1, args.latency)
    print(f"{args.papers} papers, stub answering in {args.latency * 1000:.0f} ms")
    print(f"  8 at a time: {fast[0]:7.1f} papers/s, {fast[1]} requests, {fast[2]} answers stored")
    print(f"  1 at a time: {slow[0]:7.1f} papers/s, {slow[1]} requests, {slow[2]} answers stored (baseline)")
    print(f"  ratio {fast[0] / slow[0]:.2f}x")


if __name__ == "__main__":
    main()
