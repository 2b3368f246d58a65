"""One progress bar for every long stage (embedding, enriching, adding files, mapping, indexing).

`progress_bar(show)` is a rich progress bar when `show` is true and a silent stand-in with the
same methods when it is not, so a stage writes its progress calls once and never tests
whether a bar is shown. rich is imported only when a bar is shown.
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
        TimeRemainingColumn,
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
        columns.append(TimeRemainingColumn())
    if elapsed:
        columns.append(TimeElapsedColumn())
    return Progress(*columns, transient=transient, console=console(stderr=stderr))
