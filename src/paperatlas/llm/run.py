"""Every paper that lacks an answer asked of the user's model, `concurrency` calls at a
time; each answer checked (tasks.check) and stored the moment it comes, in its own
transaction, so an interrupted run keeps all it got and a rerun asks only for the rest
(at most the calls in flight when it stopped are asked again)."""

from __future__ import annotations

import time
from collections import Counter
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field

from paperatlas.errors import PaperatlasError
from paperatlas.llm.endpoint import Endpoint, chat
from paperatlas.llm.tasks import TASKS, Task, check, cleaned, prompt
from paperatlas.progress import progress_bar

CHARS_PER_TOKEN = 4.0  # English text; a Chinese character is about one token
_READ_BATCH = 500


@dataclass
class Estimate:
    """What a run would ask for, before any call."""

    task: str
    model: str
    papers: int  # without an answer yet
    prompt_tokens: int
    answer_tokens: int  # at most (each answer's max_tokens)
    seconds: float | None  # from the calls made so far at this concurrency; None before any
    measured_calls: int


@dataclass
class RunReport:
    task: str
    model: str
    asked: int = 0
    accepted: int = 0
    rejected: int = 0
    failed: int = 0  # no answer (the endpoint failed after its retries): asked again next run
    reasons: Counter[str] = field(default_factory=Counter)
    tokens: int = 0
    seconds: float = 0.0


def _task(name: str) -> Task:
    if name not in TASKS:
        raise PaperatlasError(f"unknown task {name!r} ({', '.join(TASKS)})")
    return TASKS[name]


def pending(store, task: Task, model: str, list_name: str | None = None, limit: int | None = None):
    """(id, title, abstract) of the papers with no answer yet for this task, model and prompt
    version, in the atlas's order (a list's, when named)."""
    done = store.llm.done(task.name, model, task.version)
    ids = [pid for pid in store.papers.ids(list_name) if pid not in done]
    out = []
    for start in range(0, len(ids), _READ_BATCH):
        for row in store.papers.iter(ids=ids[start : start + _READ_BATCH]):
            title, abstract = (row.get("title") or "").strip(), (row.get("abstract") or "").strip()
            if not abstract or (task.untitled_only and title):
                continue
            out.append((row["id"], title or None, abstract))
            if limit is not None and len(out) >= limit:
                return out
    return out


def estimate(
    store,
    task_name: str,
    endpoint: Endpoint,
    concurrency: int = 8,
    list_name: str | None = None,
    limit: int | None = None,
) -> Estimate:
    """Papers, tokens and (once calls have been made) time a run would take; no call is made."""
    task = _task(task_name)
    todo = pending(store, task, endpoint.model, list_name, limit)
    chars = sum(len(task.system) + len(prompt(task, title, abstract)) for _, title, abstract in todo)
    stats = store.llm.stats(task.name, endpoint.model, task.version)
    seconds = stats["seconds"] * len(todo) / max(1, concurrency) if stats["answers"] else None
    return Estimate(
        task=task.name,
        model=endpoint.model,
        papers=len(todo),
        prompt_tokens=round(chars / CHARS_PER_TOKEN),
        answer_tokens=len(todo) * task.max_tokens,
        seconds=seconds,
        measured_calls=int(stats["answers"]),
    )


def _ask(endpoint: Endpoint, task: Task, title: str | None, abstract: str) -> tuple[str, int, float]:
    started = time.monotonic()
    answer, tokens = chat(endpoint, task.system, prompt(task, title, abstract), task.max_tokens)
    return answer, tokens, time.monotonic() - started


def run_task(
    store,
    task_name: str,
    endpoint: Endpoint,
    concurrency: int = 8,
    list_name: str | None = None,
    limit: int | None = None,
    progress: bool = False,
) -> RunReport:
    """Ask for every paper without an answer; returns what was asked, accepted, rejected and why."""
    if concurrency < 1:
        raise PaperatlasError("concurrency must be at least 1")
    task = _task(task_name)
    store.require_writable("store the model's answers")
    todo = pending(store, task, endpoint.model, list_name, limit)
    report = RunReport(task.name, endpoint.model)
    started = time.monotonic()
    queue = iter(todo)
    running: dict[Future, tuple[str, str | None, str]] = {}
    pool = ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="paperatlas-llm")
    try:
        with progress_bar(progress, stderr=True) as bar:
            bar_task = bar.add_task(f"{task.name} ({endpoint.model})", total=len(todo))
            while True:
                while len(running) < concurrency:
                    paper = next(queue, None)
                    if paper is None:
                        break
                    running[pool.submit(_ask, endpoint, task, paper[1], paper[2])] = paper
                if not running:
                    break
                finished, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in finished:
                    pid, title, abstract = running.pop(future)
                    report.asked += 1
                    try:
                        answer, tokens, seconds = future.result()
                    except PaperatlasError:
                        report.failed += 1
                        if report.failed >= concurrency and report.failed == report.asked:
                            raise  # nothing has worked: the endpoint is down or wrong
                        continue
                    reason = check(task, answer, f"{title or ''}\n{abstract}")
                    store.llm.put_result(
                        pid,
                        task.name,
                        endpoint.model,
                        task.version,
                        cleaned(answer),
                        reason is None,
                        reason,
                        tokens,
                        seconds,
                    )
                    report.tokens += tokens
                    if reason is None:
                        report.accepted += 1
                    else:
                        report.rejected += 1
                        report.reasons[reason.split(":")[0]] += 1
                    bar.advance(bar_task)
    finally:
        # calls in flight are not waited for: their papers are asked again next run
        pool.shutdown(wait=False, cancel_futures=True)
    report.seconds = time.monotonic() - started
    return report
