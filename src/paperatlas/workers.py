"""Worker processes that never outlive the process that started them.

`process_pool(n)` is the one way paperatlas runs work in other processes. Its workers:

- get SIGKILL from the kernel when their parent dies, however it dies (kill -9
  included): Linux's parent-death signal, set with prctl(PR_SET_PDEATHSIG) as each
  worker starts; a worker whose parent is already gone by then exits at once;
- ignore SIGINT: Ctrl-C reaches the whole process group, and the parent stops the
  workers itself (no traceback from each of them);
- are terminated (and reaped) when the `with` block ends by an exception, Ctrl-C or the
  CLI's SIGTERM handling; on a normal end they finish and are joined.

`tie_to_env_parent()` ties a process to the one its environment names (PARENT_ENV: a
`serve` worker to its server); `import paperatlas` calls it before anything else loads, so
this module imports `concurrent.futures` (and multiprocessing) only when a pool starts.

Without the parent-death signal (not Linux) each worker watches its parent instead and
exits within a second of it.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sized
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

Batch = TypeVar("Batch", bound=Sized)

_PR_SET_PDEATHSIG = 1
PARENT_ENV = "PAPERATLAS_SERVE_PARENT"  # the server's pid, in `serve`'s worker processes only


def _set_parent_death_signal(sig: int = signal.SIGKILL) -> bool:
    """Ask the kernel to send `sig` to this process when its parent dies (Linux)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        # the running program's own symbols (libc among them): ctypes.util.find_library
        # would start an ldconfig process in every worker
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_PDEATHSIG, int(sig), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


WATCH_SECONDS = 1.0  # how often the fallback watchdog looks for its parent


def _watch_parent(parent: int) -> None:
    """Fallback where there is no parent-death signal: exit once re-parented."""

    def watch() -> None:
        import time

        while os.getppid() == parent:
            time.sleep(WATCH_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def tie_to_parent(parent: int) -> None:
    """End this process when `parent` ends, however it ends (SIGKILL included): the
    kernel's parent-death signal where there is one, else a watchdog thread."""
    if not _set_parent_death_signal():
        _watch_parent(parent)
    if os.getppid() != parent:  # the parent died before the signal was armed
        os._exit(1)


def tie_to_env_parent() -> None:
    """In a process whose environment names its parent (PARENT_ENV: a `serve` worker), end
    with that parent from here on; no-op in any other process. Runs first in `import
    paperatlas`: a worker is tied before its seconds of imports (a server that dies while
    its workers start leaves none of them behind) and exits at once if the server is gone."""
    parent = os.environ.get(PARENT_ENV, "")
    if parent.isascii() and parent.isdigit() and int(parent) != os.getpid():
        tie_to_parent(int(parent))


def tied_subprocess(args: list[str], **popen: object) -> subprocess.Popen[bytes]:
    """Run `args` in a process that dies with this one, however this one ends (SIGKILL
    included; `tie_to_parent`, armed in the child before it runs `args`). Linux sends the
    signal when the *thread* that started the child ends: start it from a thread that
    outlives it (the main thread, or one that waits for it). The child gets a session of
    its own, so Ctrl-C in the terminal reaches only this process, which stops the child
    itself (`stop_subprocess`)."""
    parent = os.getpid()
    return subprocess.Popen(  # type: ignore[call-overload]
        args, preexec_fn=lambda: tie_to_parent(parent), start_new_session=True, **popen
    )


def stop_subprocess(process: subprocess.Popen[bytes], grace: float = 10.0) -> None:
    """End a child started by `tied_subprocess`: SIGTERM (a paperatlas command rolls back
    its open transaction and keeps finished work), SIGKILL if it has not ended in `grace` s."""
    if process.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        process.terminate()
    try:
        process.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


# Held back from the fork until a worker has set its own handlers: a Ctrl-C as the workers
# start reaches the parent alone, and a stop (SIGTERM) sent before then does not run a
# handler the worker inherited from its host (Ray's, in a process that started Ray, raises
# SystemExit wherever the worker happens to be, even before it has left the fork).
_HELD = {signal.SIGINT, signal.SIGTERM}


def init_worker(parent: int) -> None:
    """Runs first in every worker (the pool's initializer)."""
    global _started
    _started = False  # forked from a process that may have run `_timed` itself
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):  # held back since the fork (process_pool): now handled
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)
    tie_to_parent(parent)


@contextlib.contextmanager
def process_pool(workers: int) -> Iterator[ProcessPoolExecutor]:
    """A ProcessPoolExecutor of `workers` processes that die with this one (see above).
    A worker killed from outside (the OOM killer) breaks the pool with BrokenProcessPool
    instead of leaving the parent waiting. Start it before any progress bar or other
    thread: the workers are forked here, with Ctrl-C and SIGTERM held back (blocked) from the
    fork until each has set its own handlers (`_HELD`)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else None)
    pool = ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=init_worker, initargs=(os.getpid(),)
    )
    hold = hasattr(signal, "pthread_sigmask")
    held = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD) if hold else set()
    try:
        pool.submit(int)  # the first submit forks the workers; they inherit the blocked signals
    finally:
        if hold:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
    try:
        yield pool
    except BaseException:
        _terminate(pool)
        raise
    else:
        pool.shutdown(wait=True)


def _terminate(pool: ProcessPoolExecutor) -> None:
    """Stop the workers now (they may be in the middle of a task) and reap them."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14+
    if terminate is not None:
        terminate()
        return
    processes = list((getattr(pool, "_processes", None) or {}).values())
    # (read before shutdown, which lets go of the queue)
    writer = getattr(getattr(pool, "_result_queue", None), "_writer", None)
    for process in processes:
        with contextlib.suppress(Exception):
            process.terminate()
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with contextlib.suppress(Exception):
            process.join(timeout=5)
            if process.is_alive():
                process.kill()
                process.join(timeout=5)
    # A worker stopped while writing a result leaves half a message in the result pipe,
    # and the pool's manager thread waits for the rest; the interpreter joins that thread
    # at exit, so the command would never end. With the workers gone, this process holds
    # the pipe's last write end: closing it ends the read (EOF), and the thread with it.
    if writer is not None:
        with contextlib.suppress(Exception):
            writer.close()


def worker_count(n_items: int, parallel_from: int) -> int:
    """How many worker processes a CPU-bound stage of `n_items` should use: every core
    (at most 8) from `parallel_from` items, none below (starting workers costs more than a
    few thousand items take). PAPERATLAS_WORKERS=N sets the number whatever the size
    (1: never a worker process)."""
    forced = os.environ.get("PAPERATLAS_WORKERS", "").strip()
    if forced.isdigit() and int(forced) > 0:
        return int(forced)
    if n_items < parallel_from:
        return 1
    return max(1, min(os.cpu_count() or 1, 8))


class InOrder(Generic[Batch]):
    """(batch, fn(*args_of(batch))) in the batches' order, computed by `pool` with `ahead`
    batches always submitted: the next batch goes to the pool as each one is handed back,
    so the workers never wait while this process finishes the last batches of a window
    (and this process holds `ahead` batches, not all of them). `warm`: the worker's
    start-up (loading a model), run before its first batch and timed apart from it, so
    the first batches' time is the work's alone. `on_back(when, share, start_up, seconds)`
    is called (in the pool's thread) as each result comes back: time.monotonic(), the
    share of a core the worker got for that batch (its CPU seconds over its wall
    seconds), the wall seconds of its start-up (None but for a worker's first batch) and
    of the batch itself. `ready()`: items of the batches computed and not handed out yet."""

    def __init__(
        self,
        pool: Any,
        fn: Callable[..., Any],
        batches: Iterable[Batch],
        args_of: Callable[[Batch], tuple[Any, ...]],
        ahead: int,
        on_back: Callable[[float, float, float | None, float], None] | None = None,
        warm: Callable[[], object] | None = None,
    ) -> None:
        self.pool, self.fn, self.batches, self.args_of = pool, fn, iter(batches), args_of
        self.ahead, self.on_back, self.warm = max(1, ahead), on_back, warm
        self.pending: deque[tuple[Batch, Future[Any]]] = deque()

    def __iter__(self) -> Iterator[tuple[Batch, Any]]:
        for batch in self.batches:
            future = self.pool.submit(_timed, self.fn, self.warm, *self.args_of(batch))
            future.add_done_callback(self._came_back)
            self.pending.append((batch, future))
            if len(self.pending) >= self.ahead:
                first, future = self.pending.popleft()
                yield first, future.result()[0]
        while self.pending:
            first, future = self.pending.popleft()
            yield first, future.result()[0]

    def _came_back(self, future: Future[Any]) -> None:
        import time

        if self.on_back is not None and not future.cancelled() and future.exception() is None:
            self.on_back(time.monotonic(), *future.result()[1:])

    def ready(self) -> int:
        return sum(len(batch) for batch, future in self.pending if future.done())


_started = False  # in a worker process: whether its start-up (InOrder's `warm`) has run


def _timed(
    fn: Callable[..., Any], warm: Callable[[], object] | None, *args: Any
) -> tuple[Any, float, float | None, float]:
    """fn(*args) in a worker, after the worker's start-up (`warm`) if it has not started
    yet: the result, the share of a core the batch got, the start-up's wall seconds (None
    once started) and the batch's."""
    import time

    global _started
    start_up = None
    if not _started:
        began = time.perf_counter()
        if warm is not None:
            warm()
        _started, start_up = True, time.perf_counter() - began
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn(*args)
    seconds = max(time.perf_counter() - wall, 1e-9)
    return result, (time.process_time() - cpu) / seconds, start_up, seconds
