"""One progress bar for every long stage (embedding, enriching, adding files, mapping, indexing).

`progress_bar(show)` is a rich progress bar when `show` is true and a silent stand-in with the
same methods when it is not, so a stage writes its progress calls once and never tests
whether a bar is shown. rich is imported only when a bar is shown.

The time left is the pace over all the work done so far (`time_left`), not rich's own
estimate: rich measures the pace over the last 30 s of updates, and a stage whose worker
processes first load a model hands in a window of batches at once after a slow start, so
rich read that burst as the pace and showed seconds where minutes remained. A stage whose
workers compute ahead of what this process finishes (enrich: the workers extract, this
process predicts areas and writes) passes `ready` and `own_seconds` with each update, and
its time left is that of the slower of the two (`two_stage_time_left`).
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
) -> float | None:
    """Seconds left of a stage whose units go through two hands: worker processes compute
    them (`ready` of `total` computed so far, taken ahead of this process) and this
    process then finishes each (`own_seconds` spent on the `done` units it finished:
    predicting, writing). The stage ends when the slower hand does: the workers' part
    left at their pace (`time_left` on `ready`, `first` = (elapsed, ready) when the first
    units came in), or this process's own part left at its own pace. Near the end the
    workers are done and only this process's part is left, which is why the pace of the
    two together (the workers') read the last batches as several times longer than they
    took."""
    if not elapsed or not done or total is None:
        return None
    workers = time_left(elapsed, ready, total, first) or 0.0
    own = own_seconds * max(0.0, total - done) / done
    return max(workers, own)


def _average_time_left_column() -> Any:
    """A rich column showing `time_left` as H:MM:SS (rich imported here, with the bar)."""
    from rich.progress import ProgressColumn, Task
    from rich.text import Text

    class AverageTimeLeftColumn(ProgressColumn):
        def __init__(self) -> None:
            super().__init__()
            # per task: when its first units came in (elapsed, done, ready)
            self.first: dict[Any, tuple[float, float, float]] = {}

        def render(self, task: Task) -> Text:
            elapsed = task.elapsed
            ready = task.fields.get("ready")  # a stage of two hands (two_stage_time_left)
            if task.completed and elapsed is not None:
                self.first.setdefault(task.id, (elapsed, task.completed, ready or 0.0))
            first = self.first.get(task.id)
            if ready is not None:
                seconds = two_stage_time_left(
                    elapsed,
                    task.completed,
                    task.total,
                    None if first is None else (first[0], first[2]),
                    ready,
                    task.fields.get("own_seconds", 0.0),
                )
            else:
                seconds = time_left(elapsed, task.completed, task.total, None if first is None else first[:2])
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
