"""One progress bar for every long stage (embedding, enriching, adding files, mapping, indexing).

`progress_bar(show)` is a rich progress bar when `show` is true and a silent stand-in with the
same methods when it is not, so a stage writes its progress calls once and never tests
whether a bar is shown. rich is imported only when a bar is shown.

The time left is the pace over all the work done so far (`time_left`), not rich's own
estimate: rich measures the pace over the last 30 s of updates, and a stage whose worker
processes first load a model hands in a window of batches at once after a slow start, so
rich read that burst as the pace and showed seconds where minutes remained. A stage whose
workers compute ahead of what this process finishes (enrich: the workers extract, this
process predicts areas and writes; embed: the workers embed, this process writes) passes
`ready`, `batch`, `held`, OwnPace's `own_seconds` and `alone_pace` and, once its PoolPace
knows, `pool_left` with each update, and its time left is that of the slower of the two
(`two_stage_time_left`).
"""

from __future__ import annotations

from typing import Any

from paperatlas.printable import console


class SilentProgress:
    """What a stage gets when no bar is shown: rich.progress.Progress's calls, doing nothing."""

    def __enter__(self) -> SilentProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def start(self) -> None:
        pass

    def stop(self) -> None:
        pass

    def add_task(self, description: str, **kwargs: Any) -> int:
        return 0

    def update(self, task: int, **kwargs: Any) -> None:
        pass

    def advance(self, task: int, advance: float = 1) -> None:
        pass

    def reset(self, task: int, **kwargs: Any) -> None:
        pass


STEADY_SECONDS = 1.0  # the least time after the first units whose pace is trusted


def time_left(
    elapsed: float | None, done: float, total: float | None, first: tuple[float, float] | None = None
) -> float | None:
    """Seconds left at the average pace so far (`elapsed` seconds for `done` of `total`
    units); None before anything is done. `first`: (elapsed, done) when the first units
    came in. What came before them was the start (a model loading): the pace is taken
    from then on, so the start does not inflate the estimate, but only once the work
    since spans at least half that start (and a second), since a burst of results just
    after the start would read as a pace far too fast. Until then the average over all
    the time so far is used: too long by the start, never "nearly done" too early."""
    if not elapsed or not done or total is None:
        return None
    left = max(0.0, total - done)
    if first is not None:
        start, start_done = first
        since = elapsed - start
        if done > start_done and since >= max(start / 2, STEADY_SECONDS):
            return since * left / (done - start_done)
    return elapsed * left / done


def two_stage_time_left(
    elapsed: float | None,
    done: float,
    total: float | None,
    first: tuple[float, float] | None,
    ready: float,
    own_seconds: float,
    pool_left: float | None = None,
    batch: float = 0,
    alone_pace: float | None = None,
    held: float | None = None,
) -> float | None:
    """Seconds left of a stage whose units go through two hands: worker processes compute
    them (`ready` of `total` computed so far, taken ahead of this process) and this
    process then finishes each (`own_seconds` spent on the `done` units it finished:
    predicting, writing). The stage ends when the slower hand does: this process's own
    part left, or the workers' part (`pool_left`, PoolPace's seconds until their last
    batch is back, plus this process's part of that `batch`; before PoolPace knows,
    `time_left` on `ready`, `first` = (elapsed, ready) when the first units came in).
    Near the end the workers are nearly done and mostly this process's part is left:
    the pace of the two together read the last batches as several times longer.

    This process shares the cores with the workers until they are done, and then runs
    alone, several times faster (OwnPace): its units left go at its pace so far
    (`own_seconds` / `done`) for as long as the workers still run, and at `alone_pace`
    (seconds a unit; None: the pace so far) after. `held`: units the pool is given ahead
    of this process (a batch goes out as one is handed back): the workers are not done
    before this process has taken all but those, however fast they are."""
    if not elapsed or not done or total is None:
        return None
    left = max(0.0, total - done)
    own_pace = own_seconds / done
    alone = own_pace if alone_pace is None else alone_pace
    if pool_left is not None:
        pool, last = pool_left, alone * min(batch, left)
    else:
        pool, last = time_left(elapsed, ready, total, first) or 0.0, 0.0
    beside = min(left, pool / own_pace) if own_pace else left  # units done beside the workers
    if held is not None:
        beside = max(beside, left - held)
    return max(pool + last, own_pace * beside + alone * (left - beside))


class OwnPace:
    """This process's part of a two-hand stage (two_stage_time_left), timed per batch: its
    wall seconds, its CPU seconds (time.process_time()) and whether the workers had all
    their batches back (it ran alone). `alone_pace()`: its seconds a unit once alone.

    Its wall seconds beside the workers say little about that: sharing 2 cores with 2
    workers it took 1.2 to 1.9 s a batch of 500 papers of which 0.15 s was CPU, and alone
    0.5 to 0.8 s (enrich, 2026-12-07, load 10). What does not depend on the sharing is
    its CPU a unit; the CPU it gets once alone is what it got beside them times the
    processes it shared with (the workers and itself: the kernel shares the cores between
    sessions first, so the stage's processes split about a fixed share between them;
    2.5 to 3 times here), at most one core. Once it has run alone, that measured pace."""

    def __init__(self, workers: int) -> None:
        self.workers = max(1, workers)
        self.units = self.seconds = self.cpu = 0.0
        self.alone_units = self.alone_seconds = 0.0

    def add(self, units: float, seconds: float, cpu: float, alone: bool) -> None:
        self.units, self.seconds, self.cpu = self.units + units, self.seconds + seconds, self.cpu + cpu
        if alone:
            self.alone_units, self.alone_seconds = self.alone_units + units, self.alone_seconds + seconds

    def alone_pace(self) -> float | None:
        if self.alone_units:
            return self.alone_seconds / self.alone_units
        if not self.units or not self.cpu or not self.seconds:
            return None
        share = min(1.0, self.cpu / self.seconds * (self.workers + 1))  # of one core, once alone
        return self.cpu / self.units / share

    def fields(self) -> dict[str, float]:
        """The bar's fields for two_stage_time_left: own_seconds and, once known, alone_pace."""
        alone = self.alone_pace()
        return {"own_seconds": self.seconds} | ({} if alone is None else {"alone_pace": alone})


PACE_HALF_LIFE = 60.0  # seconds: how fast a pool's older batch times lose weight (PoolPace)


def pace_of_pool(workers: int, units: int, batch: int) -> PoolPace:
    """The PoolPace of `units` in batches of `batch`, the last one holding the rest."""
    batches = -(-units // batch)
    return PoolPace(workers, batches, (units - (batches - 1) * batch) / batch if batches else 1.0)


def two_stage_fields(pool: PoolPace, own: OwnPace, ready: float, batch: float, held: float) -> dict[str, Any]:
    """A two-hand stage's fields for its bar's update (two_stage_time_left): `ready` units
    computed by the workers (stored or waiting), `batch` units a batch, `held` units the
    pool is given ahead of this process, this process's pace (`own`) and, once it knows,
    the pool's seconds left."""
    import time

    fields = {"ready": ready, "batch": batch, "held": held, **own.fields()}
    pool_left = pool.seconds_left(time.monotonic())
    return fields if pool_left is None else fields | {"pool_left": pool_left}


class PoolPace:
    """When a pool of `workers` processes, each taking the next of `batches` batches as it
    comes free, will have computed them all, from when each batch came back (`done`).

    A batch came back `per` seconds (what the batches took, the recent ones weighing
    more: `_recent_batch_seconds`) after the one
    whose end freed its worker: the k-th result's batch started at the (k - workers)-th
    result (the pool is kept fed). So the batches in flight started at the last
    `workers` results, and those not started yet go to whichever worker comes free
    first. At the end only the last batches are in flight, most of their time already
    spent: the pace in papers per second read them as a whole batch's time each. Once
    fewer are left than workers, each goes faster by the share of a core the idle
    workers leave it (the workers' `share` per batch, told with `done`), at most a core. `last`:
    the last batch's size as a share of the others' (600 papers in batches of 32: 0.75),
    its time that share of theirs.

    Until a worker has a second result back, its first result's time holds its start-up
    (a model or the extractors loading) besides a batch's work: there the pace is the
    first batches' work alone (`seconds`, told with `done` beside the worker's `start_up`),
    each worker that has answered is computing its next batch since, and each that has
    not is still in its start-up and first batch, started when the first answered
    worker's start-up began, taking the answered workers' mean start-up and a batch."""

    def __init__(self, workers: int, batches: int, last: float = 1.0) -> None:
        self.workers, self.batches = max(1, workers), batches
        self.last = last  # the last batch's size, a share of the others' (the rest of the units)
        self.ends: list[float] = []  # when each result came back (a callback's thread appends)
        self.shares: list[float] = []  # the share of a core each batch's worker got
        self.firsts: list[tuple[float, float, float]] = []  # a worker's first: (back, start-up, work)

    def done(
        self,
        at: float,
        share: float | None = None,
        start_up: float | None = None,
        seconds: float | None = None,
    ) -> None:
        self.ends.append(at)
        if share:
            self.shares.append(share)
        if start_up is not None and seconds is not None:
            self.firsts.append((at, start_up, seconds))

    def all_back(self) -> bool:
        return len(self.ends) >= self.batches

    def _recent_batch_seconds(self, ends: list[float]) -> float:
        """A batch's time on a worker: the times between the results `workers` apart (each
        a batch's time), averaged with weights halving every PACE_HALF_LIFE seconds of
        age. The machine's load moves over about a minute (other processes come and go),
        and the batches left run at the load of now, not of the run's start; an even mean
        over the whole run read a load that rose or fell halfway as the pace for the rest."""
        w, last = self.workers, ends[-1]
        weights = [0.5 ** ((last - ends[k]) / PACE_HALF_LIFE) for k in range(w, len(ends))]
        spans = [ends[k] - ends[k - w] for k in range(w, len(ends))]
        return sum(s * x for s, x in zip(spans, weights, strict=True)) / sum(weights)

    def seconds_left(self, now: float) -> float | None:
        """Seconds until the last batch comes back; None until one batch's time is known."""
        ends = sorted(self.ends)
        n, w = len(ends), self.workers
        left = self.batches - n
        if left <= 0:
            return 0.0
        sizes = [self.last if n + i == self.batches - 1 else 1.0 for i in range(left)]
        if n > w:
            per, answered, starting = self._recent_batch_seconds(ends), w, []
        elif self.firsts:  # the first results hold the workers' start-up: their work alone
            per = sum(work for _, _, work in self.firsts) / len(self.firsts)
            answered = min(n, len(self.firsts))
            began = min(back - start_up - work for back, start_up, work in self.firsts)
            start_up = sum(s for _, s, _ in self.firsts) / len(self.firsts)
            # the first batches of the workers not back yet: their start-up and a batch
            starting = [max(0.0, began + start_up + per - now)] * min(w - answered, left)
        else:
            return None  # nothing but the workers' start-up and first batches known
        # the batches in flight started at the last results of the workers that answered
        running = starting + [
            max(0.0, ends[n - answered + i] + per * sizes[len(starting) + i] - now)
            for i in range(min(answered, left - len(starting)))
        ]
        waiting = [per * size for size in sizes[len(running) :]]
        # Fewer batches than workers at the end: the idle workers' share of the cores goes
        # to those still running, up to a core each (embed's last batch alone on 2 shared
        # cores: twice as fast as beside the other worker).
        share = sum(self.shares) / len(self.shares) if self.shares else None
        clock = 0.0
        while running:
            m = len(running)
            faster = 1.0 if share is None or m >= w else max(1.0, min(w / m, 1.0 / share))
            step = min(running) / faster
            clock += step
            running = [r - step * faster for r in running]
            for _ in [r for r in running if r <= 1e-9]:
                running.remove(min(running))
                if waiting:
                    running.append(waiting.pop(0))
        return clock


def _average_time_left_column() -> Any:
    """A rich column showing `time_left` as H:MM:SS (rich imported here, with the bar)."""
    from rich.progress import ProgressColumn, Task
    from rich.text import Text

    class AverageTimeLeftColumn(ProgressColumn):
        def __init__(self) -> None:
            super().__init__()
            # per task: when its first units came in (elapsed, done, ready)
            self.first: dict[Any, tuple[float, float, float]] = {}
            # per task: the last update's pool_left and how far along it came (elapsed)
            self.pool: dict[Any, tuple[tuple[float, float], float]] = {}

        def _pool_left(self, task: Task) -> float | None:
            """The workers' seconds left as of the last update, less the time since."""
            given = task.fields.get("pool_left")
            if given is None or task.elapsed is None:
                return None
            seen = self.pool.get(task.id)
            if seen is None or seen[0] != (given, task.completed):
                seen = self.pool[task.id] = ((given, task.completed), task.elapsed)
            return float(max(0.0, given - (task.elapsed - seen[1])))

        def seconds_left(self, task: Task) -> float | None:
            """The estimate this column shows, unrounded (None: no time yet)."""
            elapsed = task.elapsed
            ready = task.fields.get("ready")  # a stage of two hands (two_stage_time_left)
            if task.completed and elapsed is not None:
                self.first.setdefault(task.id, (elapsed, task.completed, ready or 0.0))
            first = self.first.get(task.id)
            if ready is not None:
                return two_stage_time_left(
                    elapsed,
                    task.completed,
                    task.total,
                    None if first is None else (first[0], first[2]),
                    ready,
                    task.fields.get("own_seconds", 0.0),
                    self._pool_left(task),
                    task.fields.get("batch", 0),
                    task.fields.get("alone_pace"),
                    task.fields.get("held"),
                )
            else:
                seconds = time_left(elapsed, task.completed, task.total, None if first is None else first[:2])
            return seconds

        def render(self, task: Task) -> Text:
            seconds = self.seconds_left(task)
            if seconds is None:
                return Text("-:--:--", style="progress.remaining")
            minutes, secs = divmod(round(seconds), 60)
            hours, minutes = divmod(minutes, 60)
            return Text(f"{hours}:{minutes:02d}:{secs:02d}", style="progress.remaining")

    return AverageTimeLeftColumn()


def progress_bar(
    show: bool = True,
    *,
    done: str | None = "count",
    eta: bool = True,
    elapsed: bool = False,
    spinner: bool = False,
    fields: tuple[str, ...] = (),
    transient: bool = True,
    stderr: bool = False,
) -> Any:
    """A rich Progress (or SilentProgress when not `show`). Columns, left to right: a spinner
    (`spinner`), the task's description, the bar, how much is done (`done`: "count" for
    "120/400", "percent", None for nothing), extra text columns (`fields`, rich templates such
    as "{task.fields[papers]} papers"), the time left (`eta`) and the time taken (`elapsed`).
    `transient`: the bar is cleared when it stops; `stderr`: drawn on stderr, leaving stdout
    to the command's output."""
    if not show:
        return SilentProgress()
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        SpinnerColumn,
        TaskProgressColumn,
        TextColumn,
        TimeElapsedColumn,
    )

    columns: list[ProgressColumn] = [SpinnerColumn()] if spinner else []
    # a description may name a file: read as text, never as rich markup
    columns += [TextColumn("{task.description}", markup=False), BarColumn()]
    if done == "count":
        columns.append(MofNCompleteColumn())
    elif done == "percent":
        columns.append(TaskProgressColumn())
    columns += [TextColumn(template) for template in fields]
    if eta:
        columns.append(_average_time_left_column())
    if elapsed:
        columns.append(TimeElapsedColumn())
    return Progress(*columns, transient=transient, console=console(stderr=stderr))
