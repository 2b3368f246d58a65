"""workers.process_pool: its processes never outlive their parent, on any exit path."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from faultkit import alive
from paperatlas.workers import process_pool

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="parent-death signal and /proc are Linux's"
)

PARENT = """
import os, sys, time
from paperatlas.workers import process_pool
with process_pool(2) as pool:
    futures = [pool.submit(time.sleep, 120) for _ in range(2)]
    pids = set()
    while len(pids) < 2:
        pids = set(pool._processes)
        time.sleep(0.05)
    print(" ".join(map(str, sorted(pids))), flush=True)
    time.sleep(120)
"""


def _wait_gone(pids: set[int], seconds: float = 5.0) -> set[int]:
    deadline = time.monotonic() + seconds
    while alive(pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return alive(pids)


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM], ids=["kill-9", "term"])
def test_workers_die_with_their_parent(sig):
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT], stdout=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        pids = {int(p) for p in parent.stdout.readline().split()}
        assert len(pids) == 2 and alive(pids) == pids  # both busy in a 120 s task
        os.kill(parent.pid, sig)  # the parent only, as `kill` does
        parent.wait(timeout=30)
        assert _wait_gone(pids) == set()
    finally:
        parent.kill()
        parent.stdout.close()


def test_workers_are_stopped_when_the_block_fails():
    with pytest.raises(RuntimeError), process_pool(2) as pool:
        futures = [pool.submit(time.sleep, 120) for _ in range(2)]
        while len(pool._processes) < 2:
            time.sleep(0.05)
        pids = set(pool._processes)
        raise RuntimeError("a batch failed")
    # The deadlines below only bound how long a failure takes to show: on a loaded machine
    # a stopped process can take seconds to be scheduled and exit, so no clock is asserted.
    assert _wait_gone(pids, seconds=60) == set()
    # queued futures are cancelled at once; running ones are failed by the pool's manager
    # thread once it sees their workers gone, moments after the block (not at its end).
    # (`wait` would not do: a future cancelled by shutdown is never "notified", so it waits.)
    deadline = time.monotonic() + 60
    while not all(f.cancelled() or f.done() for f in futures) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert all(f.cancelled() or f.done() for f in futures)
    # stopped, not waited for: no task ran its 120 s sleep to the end
    assert all(f.cancelled() or f.exception() is not None for f in futures)


def test_ctrl_c_as_the_workers_start_stops_none_of_them(monkeypatch):
    """Ctrl-C reaches the workers too, maybe before a worker has run its initializer (which
    makes it ignore SIGINT; slowed down here, as a loaded machine does): the signal must wait
    for it, not kill the worker."""
    from paperatlas import workers

    initializer = workers.init_worker

    def slow_start(parent: int) -> None:
        time.sleep(0.5)
        initializer(parent)

    monkeypatch.setattr(workers, "init_worker", slow_start)
    with process_pool(2) as pool:
        first = pool.submit(abs, -1)  # the workers are forked by now
        pids = set(pool._processes)
        for pid in pids:
            os.kill(pid, signal.SIGINT)
        assert first.result() == 1 and list(pool.map(abs, [-2, -3])) == [2, 3]
        assert set(pool._processes) == pids and len(pids) == 2
    assert _wait_gone(pids) == set()


def test_workers_ignore_ctrl_c_and_finish_normally():
    with process_pool(2) as pool:
        results = list(pool.map(abs, [-1, -2, -3]))
        pids = set(pool._processes)
        assert len(pids) == 2
        for pid in pids:  # Ctrl-C reaches the whole process group: workers leave it to us
            os.kill(pid, signal.SIGINT)
        assert list(pool.map(abs, [-4])) == [4]
    assert results == [1, 2, 3]
    assert _wait_gone(pids) == set()


def test_stopping_frees_a_result_read_cut_off_by_a_killed_worker():
    """A worker stopped while it writes a result leaves half a message in the result
    pipe; the pool's manager thread then waits for the rest, and the interpreter, which
    joins that thread at exit, would never exit (a SIGTERM during `enrich` hung so). The
    stop must leave the thread free to end."""
    import struct

    with pytest.raises(KeyboardInterrupt), process_pool(1) as pool:
        assert pool.submit(abs, -1).result() == 1  # the worker and the manager thread run
        manager = pool._executor_manager_thread
        writer = pool._result_queue._writer
        os.write(writer.fileno(), struct.pack("!i", 1000))  # a 1000-byte result, cut off
        time.sleep(0.3)  # the manager thread now waits for the other 1000 bytes
        raise KeyboardInterrupt
    manager.join(timeout=10)
    assert not manager.is_alive()


def _pid_of_worker(batch: list[int]) -> int:
    return os.getpid()


def _slow_start_up() -> None:
    time.sleep(0.05)


def test_in_order_tells_each_workers_start_up_apart_from_its_batches():
    """InOrder's `warm` runs once in each worker, before its first batch: that result
    alone tells its start-up's seconds (at least the warm-up's sleep), the others none."""
    from paperatlas.workers import InOrder

    back: list[tuple[float, float, float | None, float]] = []
    with process_pool(2) as pool:
        in_order = InOrder(
            pool,
            _pid_of_worker,
            [[k] for k in range(6)],
            lambda b: (b,),
            2,
            lambda *t: back.append(t),
            _slow_start_up,
        )
        pids = [pid for _, pid in in_order]
    start_ups = [start_up for _, _, start_up, _ in back if start_up is not None]
    assert len(back) == 6 and len(start_ups) == len(set(pids))
    assert all(start_up >= 0.05 for start_up in start_ups)
    assert all(seconds > 0 for *_, seconds in back)
