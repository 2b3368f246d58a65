"""A model the user brings (llm/), against a stub OpenAI-compatible server on 127.0.0.1:
answers checked and cached per (paper, task, model, prompt version), 8 calls at a time,
a run killed mid-way and resumed with nothing lost and only the calls in flight asked again."""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from paperatlas import Atlas
from paperatlas.api import web_reads
from paperatlas.errors import PaperatlasError
from paperatlas.llm.endpoint import endpoint_from_env
from paperatlas.llm.tasks import TASKS, check

MARKER = re.compile(r"zq(\d{4})x")
SRC = Path(__file__).resolve().parents[1] / "src"


class Stub:
    """An OpenAI-compatible chat server: answers a Chinese sentence (one in ten invents a
    number the abstract lacks), counts the requests per paper and how many run at once."""

    def __init__(self, delay: float = 0.0) -> None:
        self.requests: Counter[str] = Counter()
        self.in_flight = 0
        self.most_in_flight = 0
        self.lock = threading.Lock()
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                assert self.path == "/v1/chat/completions" and body["model"] == "stub-model"
                paper = MARKER.search(body["messages"][1]["content"]).group(1)
                with stub.lock:
                    stub.requests[paper] += 1
                    stub.in_flight += 1
                    stub.most_in_flight = max(stub.most_in_flight, stub.in_flight)
                time.sleep(delay)
                invented = int(paper) % 10 == 0
                answer = (
                    "该方法把准确率提高了 97.3%。" if invented else "这篇论文研究合成任务上的图表示学习。"
                )
                data = json.dumps(
                    {
                        "choices": [{"message": {"role": "assistant", "content": answer}}],
                        "usage": {"total_tokens": 42},
                    }
                ).encode()
                with stub.lock:
                    stub.in_flight -= 1
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> Stub:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    @property
    def env(self) -> dict[str, str]:
        return {
            "PAPERATLAS_LLM_BASE_URL": f"http://127.0.0.1:{self.server.server_port}/v1",
            "PAPERATLAS_LLM_MODEL": "stub-model",
        }


def synthetic_papers(path: Path, n: int) -> Path:
    lines = [
        json.dumps(
            {
                "id": f"p{i:04d}",
                "title": f"Graph representation learning on synthetic task {i}",
                "abstract": f"We study graph representation learning on a synthetic task (zq{i:04d}x). "
                "Our method learns node features with message passing and improves accuracy.",
            }
        )
        for i in range(n)
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_answers_naming_what_the_abstract_lacks_are_rejected():
    abstract = "We present CoDeC, which detects contamination in 12 benchmarks with 95.5% accuracy."
    summary = TASKS["summarize"]
    assert check(summary, "本文提出 CoDeC，在 12 个基准上检测数据污染，准确率 95.5%。", abstract) is None
    assert check(summary, "本文提出 CoDeC，准确率达到 99%。", abstract) == "number not in the abstract: 99"
    assert check(summary, "本文提出 GPT-5 上的污染检测。", abstract) == "name not in the abstract: GPT-5"
    assert check(summary, "We detect contamination.", abstract) == "not Chinese"
    assert check(TASKS["title-en"], "Contamination Detection with CoDeC", abstract) is None
    assert check(TASKS["title-en"], "Contamination Detection with LLaMA", abstract) == (
        "name not in the abstract: LLaMA"
    )


def test_the_endpoint_comes_from_the_environment_or_a_file(tmp_path):
    with pytest.raises(PaperatlasError, match="PAPERATLAS_LLM_BASE_URL"):
        endpoint_from_env({})
    config = tmp_path / "llm.toml"
    config.write_text('base_url = "http://127.0.0.1:8080/v1/"\nmodel = "qwen"\napi_key = "k"\n')
    found = endpoint_from_env({"PAPERATLAS_LLM_CONFIG": str(config), "PAPERATLAS_LLM_MODEL": "other"})
    assert (found.base_url, found.model, found.api_key) == ("http://127.0.0.1:8080/v1", "other", "k")
    with pytest.raises(PaperatlasError, match="http"):
        endpoint_from_env({"PAPERATLAS_LLM_BASE_URL": "file:///etc", "PAPERATLAS_LLM_MODEL": "m"})


def test_summaries_are_cached_checked_and_shown(tmp_path, monkeypatch):
    atlas = Atlas(tmp_path / "atlas.db")
    atlas.add([synthetic_papers(tmp_path / "papers.jsonl", 40)], enrich=False)
    with Stub() as stub:
        for key, value in stub.env.items():
            monkeypatch.setenv(key, value)
        plan = atlas.llm_estimate("summarize", concurrency=8)
        assert plan.papers == 40 and plan.seconds is None and plan.prompt_tokens > 40 * 30
        report = atlas.llm_run("summarize", concurrency=8)
        assert (report.asked, report.accepted, report.rejected) == (40, 36, 4)
        assert report.reasons == {"number not in the abstract": 4} and report.tokens == 40 * 42
        assert stub.most_in_flight <= 8
        # cached: nothing asked again, and the estimate now has a measured time
        assert atlas.llm_run("summarize").asked == 0 and sum(stub.requests.values()) == 40
        assert atlas.llm_estimate("summarize").papers == 0
        # a new prompt version asks again
        monkeypatch.setitem(
            TASKS,
            "summarize",
            TASKS["summarize"].__class__(**{**TASKS["summarize"].__dict__, "version": "v2"}),
        )
        assert atlas.llm_estimate("summarize").papers == 40
    assert (
        web_reads.llm_answers(atlas, "p0001")["summarize"]["output"] == "这篇论文研究合成任务上的图表示学习。"
    )
    assert "summarize" not in web_reads.llm_answers(atlas, "p0010")  # rejected: the offline card stays


@pytest.mark.slow
def test_a_killed_run_resumes_with_nothing_lost_or_repeated(tmp_path):
    db = tmp_path / "atlas.db"
    with Atlas(db) as atlas:
        atlas.add([synthetic_papers(tmp_path / "papers.jsonl", 1000)], enrich=False)
    with Stub(delay=0.02) as stub:
        env = {**os.environ, **stub.env, "PYTHONPATH": str(SRC)}
        command = [sys.executable, "-c", "from paperatlas.cli import main; main()", "llm", "summarize"]
        command += ["--concurrency", "8", "--db", str(db)]
        run = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        stored = 0
        deadline = time.monotonic() + 120
        while stored < 300 and time.monotonic() < deadline and run.poll() is None:
            time.sleep(0.1)
            with sqlite3.connect(db) as conn:
                stored = conn.execute("SELECT count(*) FROM llm_results").fetchone()[0]
        assert run.poll() is None and 300 <= stored < 1000, "killed mid-run"
        run.send_signal(signal.SIGKILL)
        run.wait()
        # answers stored between the last count and the kill belong to the first run
        with sqlite3.connect(db) as conn:
            stored = conn.execute("SELECT count(*) FROM llm_results").fetchone()[0]
        asked_before = sum(stub.requests.values())
        assert stub.most_in_flight == 8  # eight calls at a time
        resumed = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
        assert resumed.returncode == 0, resumed.stderr
        with sqlite3.connect(db) as conn:
            rows = conn.execute("SELECT paper_id, count(*) FROM llm_results GROUP BY paper_id").fetchall()
            after_kill = conn.execute("SELECT count(*) FROM llm_results").fetchone()[0]
    assert len(rows) == 1000 and after_kill == 1000 and all(n == 1 for _, n in rows)  # nothing lost
    # every paper asked; asked twice only those in flight when the run was killed (at most 8),
    # and the rerun asked only for the papers without an answer
    assert len(stub.requests) == 1000
    again = sum(n - 1 for n in stub.requests.values())
    assert again <= 8 and asked_before - stored <= 8
    assert f"asked {1000 - stored:,}" in resumed.stdout or f"asked {1000 - stored}" in resumed.stdout


def test_an_atlas_opened_read_only_before_the_table_existed_reads_no_answers(tmp_path):
    from paperatlas.store import MIGRATIONS, Store

    db = tmp_path / "atlas.db"
    with Atlas(db) as atlas:
        atlas.add([synthetic_papers(tmp_path / "papers.jsonl", 3)], enrich=False)
    with sqlite3.connect(db) as conn:  # as an atlas written before llm_results was added
        conn.execute("DROP TABLE llm_results")
        conn.execute(f"PRAGMA user_version = {len(MIGRATIONS) - 1}")
    reader = Store(db, read_only=True)
    assert (
        reader.llm.accepted(["p0000"], "summarize") == {} and reader.llm.done("summarize", "m", "v1") == set()
    )
