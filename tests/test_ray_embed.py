"""`embed --ray`: batches computed by Ray actors give the local run's vectors, on a local Ray
instance and on a two-node cluster started here (loopback only); a worker killed mid-job is
restarted and its batch rerun, nothing lost or written twice; an interrupted job resumes.

Marked `ray` (`pytest -m "not ray"` skips them); `make test` runs them."""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pytest

from paperatlas import embed
from paperatlas.errors import PaperatlasError
from paperatlas.paper import Paper, paper_id
from paperatlas.store import Store
from raykit import local_ray_instance

pytestmark = pytest.mark.ray
try:  # without the extra, `-m "not ray"` still collects this file; the ray tests then fail
    import ray
except ImportError:
    ray = None

from paperatlas.embed.distributed import INSTALL_HINT, RayEmbedJob, embed_store_ray, import_ray  # noqa: E402

SAMPLE = Path(__file__).resolve().parents[1] / "examples" / "iclr2026_sample_list.txt"
BIN = Path(sys.executable).parent
MODEL = "static"
# The cluster below listens on loopback only: no token (a token left in ~/.ray by another
# Ray run would otherwise be demanded by one side and not sent by the other).
LOOPBACK_ENV = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0", "RAY_AUTH_MODE": "disabled"}
STARTED = b"Ray runtime started."  # what `ray start` prints once its node is up


def make_store(path: Path) -> Store:
    st = Store(path)
    paragraphs = [p.strip() for p in SAMPLE.read_text(encoding="utf-8").split("\n\n")]
    with st.transaction():
        for text in paragraphs:
            if len(text) > 200:
                st.papers.insert({"id": paper_id(Paper(abstract=text)), "abstract": text})
    return st


def stored(st: Store) -> tuple[list[str], np.ndarray, dict[str, str]]:
    ids, vectors = st.vectors.get(MODEL)
    return ids, vectors, st.vectors.state(MODEL)


@pytest.fixture(scope="module")
def local(tmp_path_factory):
    """batch size -> the local run's (ids, vectors, hashes): a back end's float sums may
    differ in the last bit with the batch's make-up, so runs are compared batch for batch."""
    runs = {}

    def run(batch_size: int):
        if batch_size not in runs:
            st = make_store(tmp_path_factory.mktemp("local") / "atlas.db")
            embed.embed_store(st, MODEL, batch_size=batch_size)
            runs[batch_size] = stored(st)
            st.close()
            assert len(runs[batch_size][0]) >= 12
        return runs[batch_size]

    return run


local_ray = pytest.fixture(scope="module")(local_ray_instance)


class CountingStore:
    """The store, with every paper id written to its vectors part counted."""

    def __init__(self, st: Store):
        self.st, self.written = st, []
        self.vectors = CountingVectors(st.vectors, self.written)

    def __getattr__(self, name):
        return getattr(self.st, name)


class CountingVectors:
    def __init__(self, part, written: list):
        self.part, self.written = part, written

    def __getattr__(self, name):
        return getattr(self.part, name)

    def put(self, model, ids, vectors, hashes):
        self.written.extend(ids)
        return self.part.put(model, ids, vectors, hashes)


def same(a, b) -> None:
    assert a[0] == b[0]
    assert np.array_equal(a[1], b[1])
    assert a[2] == b[2]


def test_local_ray_gives_the_local_vectors(tmp_path, local_ray, local):
    local_vectors = local(3)
    st = make_store(tmp_path / "atlas.db")
    result = embed_store_ray(st, MODEL, workers=2, batch_size=3)
    assert result["embedded"] == len(local_vectors[0]) and result["workers"] == 2
    same(stored(st), local_vectors)
    again = embed_store_ray(st, MODEL, workers=2, batch_size=3)
    assert again["embedded"] == 0 and again["skipped"] == len(local_vectors[0])


def test_killed_worker_is_retried_nothing_lost_or_written_twice(tmp_path, local_ray, local):
    local_vectors = local(2)
    st = CountingStore(make_store(tmp_path / "atlas.db"))
    killed = []

    def kill_one(job, index):
        if index == 0:  # batches are in flight on both actors now
            pid = ray.get(job.actors[0].pid.remote())
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

    job = RayEmbedJob(st, MODEL, workers=2, batch_size=2, after_write=kill_one)
    result = job.run()
    assert killed
    assert result["embedded"] == len(local_vectors[0])
    assert sorted(st.written) == sorted(local_vectors[0])  # each paper written once
    same(stored(st.st), local_vectors)


def test_interrupted_job_keeps_finished_batches_and_resumes(tmp_path, local_ray, local):
    local_vectors = local(3)
    st = make_store(tmp_path / "atlas.db")

    def interrupt(job, index):
        if index == 1:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        RayEmbedJob(st, MODEL, workers=2, batch_size=3, after_write=interrupt).run()
    assert len(st.vectors.state(MODEL)) == 6  # two batches committed
    rest = embed_store_ray(st, MODEL, workers=2, batch_size=3)
    assert rest["skipped"] == 6 and rest["embedded"] == len(local_vectors[0]) - 6
    same(stored(st), local_vectors)


def test_without_ray_the_flag_says_how_to_get_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` raises ImportError
    with pytest.raises(PaperatlasError) as info:
        import_ray()
    assert str(info.value) == INSTALL_HINT and "pip install 'paperatlas[ray]'" in INSTALL_HINT


# -- a two-node cluster on this machine ----------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def processes_mentioning(text: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as fh:
                if text.encode() in fh.read():
                    found.append(int(entry))
        except OSError:
            pass
    return found


class Node:
    """`ray start --block` in its own session, stopped with its process group."""

    def __init__(self, args: list[str], temp: str):
        self.temp = temp
        self.proc = subprocess.Popen(
            [
                str(BIN / "ray"),
                "start",
                "--block",
                "--node-ip-address",
                "127.0.0.1",
                "--num-cpus",
                "1",
                "--temp-dir",
                temp,
                "--disable-usage-stats",
                *args,
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            env=LOOPBACK_ENV,
        )

    def wait_started(self, timeout: float = 60) -> None:
        """Until `ray start` says STARTED: it says so once the cluster's GCS lists this node
        (ray._private.node.Node waits for that), so a job started after it can use the node."""
        out, deadline = b"", time.monotonic() + timeout
        while STARTED not in out:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.proc.stdout], [], [], left)[0]:
                raise AssertionError(f"ray start {self.proc.args[-1]} did not start: {out[-500:]!r}")
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                raise AssertionError(f"ray start exited {self.proc.wait()}: {out[-500:]!r}")
            out += chunk

    def stop(self) -> None:
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(self.proc.pid, sig)
            except ProcessLookupError:
                break
            try:
                self.proc.wait(timeout=10)
                break
            except subprocess.TimeoutExpired:
                continue
        self.proc.stdout.close()


def test_two_node_cluster_gives_the_local_vectors(tmp_path, local):
    local_vectors = local(3)
    assert ray is not None, INSTALL_HINT
    temp = tempfile.mkdtemp(prefix="pa-ray2-", dir="/tmp")
    port = free_port()
    address = f"127.0.0.1:{port}"
    nodes = []
    try:
        nodes.append(Node(["--head", "--port", str(port), "--include-dashboard", "false"], temp))
        nodes[-1].wait_started()  # the head's GCS is up: the second node can join it
        nodes.append(Node(["--address", address], temp))
        nodes[-1].wait_started()
        db = tmp_path / "atlas.db"
        make_store(db).close()
        # two actors of one CPU each on two one-CPU nodes: one runs on each node
        out = subprocess.run(
            [
                str(BIN / "paperatlas"),
                "embed",
                "--model",
                MODEL,
                "--ray",
                "--address",
                address,
                "--workers",
                "2",
                "--batch-size",
                "3",
                "--db",
                str(db),
            ],
            capture_output=True,
            text=True,
            env=LOOPBACK_ENV,
            timeout=180,
        )
        assert out.returncode == 0, out.stderr
        assert f"embedded {len(local_vectors[0])}" in out.stdout
        st = Store(db)
        same(stored(st), local_vectors)
        st.close()
    finally:
        for node in reversed(nodes):
            node.stop()
        for pid in processes_mentioning(temp):  # anything of this cluster still running
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        shutil.rmtree(temp, ignore_errors=True)
    assert processes_mentioning(temp) == []
