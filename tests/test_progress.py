"""paperatlas.progress: one progress bar for every long stage."""

from __future__ import annotations

from rich.progress import (
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from paperatlas.progress import SilentProgress, progress_bar


def test_hidden_bar_takes_every_call_and_does_nothing():
    bar = progress_bar(False)
    assert isinstance(bar, SilentProgress)
    with bar as b:
        b.start()
        task = b.add_task("embedding", total=10)
        b.update(task, advance=3, description="still embedding")
        b.advance(task)
        b.stop()
    assert task == 0


def test_shown_bar_is_rich_with_the_columns_asked_for():
    bar = progress_bar(True)
    assert isinstance(bar, Progress)
    kinds = [type(c) for c in bar.columns]
    assert MofNCompleteColumn in kinds and TimeRemainingColumn in kinds
    assert SpinnerColumn not in kinds and TimeElapsedColumn not in kinds

    stages = progress_bar(True, done=None, eta=False, elapsed=True)
    kinds = [type(c) for c in stages.columns]
    assert MofNCompleteColumn not in kinds and TaskProgressColumn not in kinds
    assert TimeRemainingColumn not in kinds and kinds[-1] is TimeElapsedColumn

    files = progress_bar(True, done="percent", spinner=True, fields=("{task.fields[papers]} papers",))
    kinds = [type(c) for c in files.columns]
    assert kinds[0] is SpinnerColumn and TaskProgressColumn in kinds
    assert any(
        isinstance(c, TextColumn) and c.text_format == "{task.fields[papers]} papers" for c in files.columns
    )


def test_shown_bar_counts_what_it_is_told():
    with progress_bar(True, stderr=True) as bar:
        task = bar.add_task("enrich", total=5)
        bar.update(task, advance=2)
        bar.update(task, advance=1)
        assert bar.tasks[task].completed == 3
    assert bar.live.console.stderr
