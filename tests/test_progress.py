"""paperatlas.progress: one progress bar for every long stage."""

from __future__ import annotations

import pytest
from rich.progress import (
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from paperatlas.progress import (
    OwnPace,
    PoolPace,
    SilentProgress,
    pace_of_pool,
    progress_bar,
    time_left,
    two_stage_time_left,
)


def _eta_column(bar):
    """The bar's time-left column (the last one when `eta` is on and `elapsed` off)."""
    return bar.columns[-1]


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
    assert MofNCompleteColumn in kinds and type(_eta_column(bar)).__name__ == "AverageTimeLeftColumn"
    assert SpinnerColumn not in kinds and TimeElapsedColumn not in kinds

    stages = progress_bar(True, done=None, eta=False, elapsed=True)
    kinds = [type(c) for c in stages.columns]
    assert MofNCompleteColumn not in kinds and TaskProgressColumn not in kinds
    assert "AverageTimeLeftColumn" not in {k.__name__ for k in kinds} and kinds[-1] is TimeElapsedColumn

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


def _pool_completions(
    batches: int, workers: int, load: float, cost: float, write: float = 0.05
) -> list[float]:
    """When each batch's result reaches the bar in embed's pool: every worker first loads
    the model (`load` s), windows of 2 * workers batches are handed out, each batch costs
    `cost` s, results are taken in order and written (`write` s each), so a window's
    results arrive in bursts."""
    times: list[float] = []
    free = [load] * workers  # when each worker can start its next batch
    start = 0.0
    for first in range(0, batches, 2 * workers):
        window = range(first, min(batches, first + 2 * workers))
        ends = []
        for i, _ in enumerate(window):
            w = i % workers
            free[w] = max(free[w], start) + cost
            ends.append(free[w])
        for end in ends:  # in order: a result waits for those before it
            times.append(max(end, times[-1] + write if times else 0.0))
        start = times[-1]  # the next window is handed out once this one is taken
    return times


def _shown_seconds(text: str) -> float | None:
    if "-" in text:
        return None
    hours, minutes, seconds = (int(x) for x in text.split(":"))
    return 3600 * hours + 60 * minutes + seconds


def _shown_at(column, completions: list[float], marks: list[int]) -> list[tuple[float | None, float]]:
    """(time left shown, time actually left) when `marks` batches are in, `column`
    rendered after every update of a bar driven by a clock set to each completion."""
    clock = [0.0]
    bar = Progress(get_time=lambda: clock[0])
    task_id = bar.add_task("embedding", total=len(completions))
    task = bar.tasks[0]
    end = completions[-1]
    seen = []
    for done, at in enumerate(completions, start=1):
        clock[0] = at
        bar.update(task_id, advance=1)
        shown = column.render(task).plain  # a live bar redraws after every update
        if done in marks:
            seen.append((_shown_seconds(shown), end - at))
    return seen


# 2 workers each load a model for 40 s, then 200 batches of 6 s: the first window of
# results lands in bursts after the slow start
COMPLETIONS = _pool_completions(200, workers=2, load=40.0, cost=6.0)


def test_time_left_is_within_a_factor_of_1_5_from_10_percent_on():
    shown = _shown_at(_eta_column(progress_bar(True)), COMPLETIONS, [20, 100, 180])
    for displayed, actual in shown:
        assert displayed is not None and actual / 1.5 <= displayed <= actual * 1.5, (displayed, actual)


def test_a_burst_after_the_slow_start_is_not_read_as_the_pace():
    # the first two results arrive together after the load: rich's own column (the pace
    # over the last 30 s of updates) shows seconds where ten minutes remain; ours errs
    # long (the load counted in) until the work since the burst is enough to go by
    [(rich_shown, actual)] = _shown_at(TimeRemainingColumn(), COMPLETIONS, [2])
    assert actual > 500 and rich_shown is not None and rich_shown < 60
    [(shown, actual)] = _shown_at(_eta_column(progress_bar(True)), COMPLETIONS, [2])
    assert shown is not None and shown >= actual
    [(shown, actual)] = _shown_at(_eta_column(progress_bar(True)), COMPLETIONS, [12])
    assert shown is not None and actual / 1.5 <= shown <= actual * 1.5


def test_time_left_counts_from_the_average_pace():
    assert time_left(None, 0, 100) is None
    assert time_left(10.0, 0, 100) is None  # nothing done yet: no pace to go by
    assert time_left(10.0, 25, 100) == 30.0
    assert time_left(10.0, 100, 100) == 0.0
    assert time_left(10.0, 5, None) is None  # no total: no end to count to
    # 40 s of loading, then 10 units in 20 s: the pace since the first units, 2 s a unit
    assert time_left(60.0, 11, 100, first=(40.0, 1)) == 178.0
    # a burst just after the start is no pace: the overall average until time has passed
    assert time_left(40.5, 4, 100, first=(40.0, 1)) == 40.5 * 96 / 4


def _enrich_updates(
    batches: int,
    size: int,
    workers: int,
    load: float,
    extract: float,
    own: float,
    alone: float | None = None,
    cpu: float | None = None,
    timed_start: bool = True,
) -> list[tuple[float, dict]]:
    """enrich's updates as (time, the bar's fields): `workers` processes load the
    extractors (`load` s), then take batches in order (`extract` s each), 4 * workers
    submitted ahead, another as each is handed back; this process takes results in order
    and predicts areas and writes each (`own` s while the workers still compute, `alone`
    s once they have all their batches back, `cpu` CPU seconds either way), then updates
    the bar as enrich does (papers stored, extracted, OwnPace's fields, the PoolPace of
    the results so far). The last batches of the workers finish together: only this
    process's part is left. `timed_start`: each worker's first result tells its start-up
    and its batch's time apart (workers.InOrder's `warm`)."""
    ahead = 4 * workers
    free = [load] * workers
    ends: dict[int, float] = {}
    firsts: set[int] = set()  # the batches each worker took first

    def submit(i: int, at: float) -> None:
        w = min(range(workers), key=lambda k: free[k])
        if free[w] == load:
            firsts.add(i)
        ends[i] = free[w] = max(free[w], at) + extract

    for i in range(min(ahead, batches)):
        submit(i, 0.0)
    submitted, clock, updates = min(ahead, batches), 0.0, []
    own_pace = OwnPace(workers)
    for i in range(batches):
        clock = max(clock, ends[i])
        on_its_own = submitted == batches and max(ends.values()) <= clock
        took = own if alone is None or not on_its_own else alone
        own_pace.add(size, took, own if cpu is None else cpu, on_its_own)
        clock += took
        pace = PoolPace(workers, batches)
        for j, end in ends.items():
            if end <= clock:
                pace.done(end, None, *((load, extract) if timed_start and j in firsts else (None, None)))
        ready = sum(size for j in range(i + 1, submitted) if ends[j] <= clock)
        fields = {"completed": (i + 1) * size, "ready": (i + 1) * size + ready, "held": ahead * size}
        fields |= own_pace.fields()
        pool_left = pace.seconds_left(clock)
        if pool_left is not None:
            fields |= {"pool_left": pool_left, "batch": size}
        updates.append((clock, fields))
        if submitted < batches:
            submit(submitted, clock)
            submitted += 1
    return updates


def _enrich_shown(
    updates, total: int, two_stage: bool, alone: bool = True
) -> list[tuple[float | None, float]]:
    """(time left shown, time actually left) at 10%, 50% and 90% of the papers stored,
    the bar's column rendered after each update as a live bar redraws it (`two_stage`:
    given the two hands' fields; `alone`: with this process's pace once alone)."""
    clock = [0.0]
    bar = Progress(get_time=lambda: clock[0])
    task_id = bar.add_task("enrich", total=total)
    column = _eta_column(progress_bar(True))
    end, seen, marks = updates[-1][0], [], [0.1, 0.5, 0.9]
    for at, fields in updates:
        clock[0] = at
        given = fields if alone else {k: v for k, v in fields.items() if k != "alone_pace"}
        bar.update(task_id, **(given if two_stage else {"completed": fields["completed"]}))
        shown = column.render(bar.tasks[0]).plain
        while marks and fields["completed"] >= marks[0] * total:
            seen.append((_shown_seconds(shown), end - at))
            marks.pop(0)
    return seen


def _within(seen, factor: float = 1.5) -> list[bool]:
    return [shown is not None and actual / factor <= shown <= actual * factor for shown, actual in seen]


def test_enrich_time_left_is_the_slower_hands_when_the_workers_set_the_pace():
    # 12 batches of 500 on 2 workers (18 s each), 2 s of areas and writing per batch: the
    # last two batches are extracted together, so at 90% only 2 s of writing is left
    updates = _enrich_updates(12, 500, workers=2, load=2.0, extract=18.0, own=2.0)
    assert _within(_enrich_shown(updates, 6000, two_stage=True)) == [True, True, True]
    # the pace of the two together (the workers') reads those 2 s as several times longer
    assert _within(_enrich_shown(updates, 6000, two_stage=False))[2] is False


def test_enrich_time_left_is_the_slower_hands_when_this_process_sets_the_pace():
    # areas and writing (2.5 s a batch) slower than 2 workers extracting (3 s each)
    updates = _enrich_updates(12, 500, workers=2, load=5.0, extract=3.0, own=2.5)
    assert _within(_enrich_shown(updates, 6000, two_stage=True)) == [True, True, True]
    assert _within(_enrich_shown(updates, 6000, two_stage=False))[0] is False


def test_enrich_time_left_counts_this_process_faster_once_the_workers_are_done():
    # as traced on 2 shared cores (load 10): 2 workers extract a batch of 500 in 75 s;
    # areas and writing take this process 1.5 s of CPU a batch, 15 s beside the workers
    # and 5 s once they are done. At 90% the workers are done: 5 s a batch is left, which
    # its pace beside them (15 s) read as 3 times longer
    updates = _enrich_updates(12, 500, workers=2, load=2.0, extract=75.0, own=15.0, alone=5.0, cpu=1.5)
    assert _within(_enrich_shown(updates, 6000, two_stage=True)) == [True, True, True]
    assert _within(_enrich_shown(updates, 6000, two_stage=True, alone=False))[1:] == [True, False]


def test_enrich_time_left_at_10_percent_leaves_the_workers_start_up_out():
    # the workers take 20 s to start (a model loading), then 10 s a batch: at 17% only
    # each worker's first batch is back, and the pace from them read the start-up as
    # work; told apart, the batches' work sets the pace
    updates = _enrich_updates(12, 500, workers=2, load=20.0, extract=10.0, own=1.0)
    assert _within(_enrich_shown(updates, 6000, two_stage=True)) == [True, True, True]
    untimed = _enrich_updates(12, 500, workers=2, load=20.0, extract=10.0, own=1.0, timed_start=False)
    assert _within(_enrich_shown(untimed, 6000, two_stage=True))[0] is False


def test_pool_pace_before_every_worker_has_answered():
    # 2 workers start at 0: one answered at 7 (5 s of start-up, 2 s of its batch), the
    # other is still starting: back at 7 too, then 4 batches left 2 s each, two at a time
    pace = PoolPace(workers=2, batches=6)
    pace.done(7.0, None, start_up=5.0, seconds=2.0)
    assert pace.seconds_left(7.0) == 4.0
    # at 8 the other is late: counted as about to answer, then taking the next batches
    # (back at 10 and 12) while the first worker's second is back at 9 and its third at 11
    assert pace.seconds_left(8.0) == 4.0
    # without the start-up told apart, nothing is known until a worker's second result
    untold = PoolPace(workers=2, batches=6)
    untold.done(7.0)
    assert untold.seconds_left(7.0) is None


def test_own_pace_alone_from_cpu_until_measured_alone():
    pace = OwnPace(workers=2)
    assert pace.alone_pace() is None and pace.fields() == {"own_seconds": 0.0}
    # beside 2 workers: 1.5 s of CPU in 15 s of wall a batch of 500, a tenth of a core;
    # alone it gets the three processes' share, 0.3 of a core: 5 s a batch
    pace.add(500, 15.0, 1.5, alone=False)
    assert pace.alone_pace() == pytest.approx(1.5 / 500 / 0.3)
    # on a quiet machine (2/3 of a core beside them) at most one core: its CPU time
    quiet = OwnPace(workers=2)
    quiet.add(500, 3.0, 2.0, alone=False)
    assert quiet.alone_pace() == 2.0 / 500
    # once it has run alone, what it took then
    pace.add(500, 4.0, 1.5, alone=True)
    assert pace.alone_pace() == 4.0 / 500 and pace.fields() == {"own_seconds": 19.0, "alone_pace": 4.0 / 500}


def test_two_stage_time_left_is_the_slower_of_the_two():
    assert two_stage_time_left(None, 0, 100, None, 0, 0.0) is None
    # workers: 60 of 100 in 30 s (20 s left at their pace), this process: 2 s for 20 (8 s left)
    assert two_stage_time_left(30.0, 20, 100, None, 60, 2.0) == 20.0
    # the pool says 3 s until its last batch of 10 is back, then 10 * 0.1 s of this process's
    assert two_stage_time_left(30.0, 20, 100, None, 60, 2.0, pool_left=3.0, batch=10) == 8.0
    assert two_stage_time_left(30.0, 90, 100, None, 100, 9.0, pool_left=0.5, batch=10) == 1.5
    # alone at 0.05 s a unit: 5 units beside the workers' 0.5 s, the other 5 in 0.25 s;
    # the workers' last batch of 10 then takes 0.5 s of this process's
    assert two_stage_time_left(30.0, 90, 100, None, 100, 9.0, 0.5, 10, alone_pace=0.05) == 1.0
    assert two_stage_time_left(30.0, 80, 100, None, 100, 8.0, 0.0, 10, alone_pace=0.05) == 1.0


def test_pool_pace_counts_the_batches_in_flight_as_partly_done():
    pace = PoolPace(workers=2, batches=6)
    for end in (10.0, 12.0):  # each worker's first batch: its start (a load) inside
        pace.done(end)
    assert pace.seconds_left(12.0) is None
    for end in (14.0, 16.0, 18.0):  # from then on a batch takes a worker 4 s
        pace.done(end)
    # one batch left, in flight since 16 (the end that freed its worker): back at 20,
    # not a whole batch's time from now
    assert pace.seconds_left(19.0) == 1.0
    pace.done(20.0)
    assert pace.seconds_left(20.0) == 0.0
    # two left, both in flight
    early = PoolPace(workers=2, batches=7)
    for end in (10.0, 12.0, 14.0, 16.0, 18.0):
        early.done(end)
    assert early.seconds_left(18.0) == 4.0  # in flight since 16 and 18: back at 20 and 22


def test_pool_pace_counts_the_last_batch_at_its_size():
    # 600 papers in batches of 32: 19 batches, the last of 24, three quarters of one's time
    pace = pace_of_pool(workers=2, units=600, batch=32)
    assert (pace.batches, pace.last) == (19, 0.75)
    for k in range(18):  # a batch takes a worker 4 s; two out at a time, 2 s apart
        pace.done(10.0 + 2 * k)
    # the last went out at the 17th result (42): back at 45, not 46
    assert pace.seconds_left(44.0) == 1.0


def test_pool_pace_runs_the_last_batch_faster_alone():
    # a batch takes a worker 4 s beside the other, on a quarter of a core (a busy machine):
    # alone it gets the idle worker's quarter too, and is back twice as soon
    busy = PoolPace(workers=2, batches=6)
    for end in (10.0, 12.0, 14.0, 16.0, 18.0):
        busy.done(end, share=0.25)
    assert busy.seconds_left(19.0) == 0.5  # 1 s of its pace beside the other, at 2x
    # on 0.8 of a core beside the other it gets at most a whole core alone
    quiet = PoolPace(workers=2, batches=6)
    for end in (10.0, 12.0, 14.0, 16.0, 18.0):
        quiet.done(end, share=0.8)
    assert quiet.seconds_left(19.0) == pytest.approx(0.8)
    # two left: both in flight, beside each other until the first is back (20), then the
    # second, 2 s of its pace left, alone at 2x
    two = PoolPace(workers=2, batches=7)
    for end in (10.0, 12.0, 14.0, 16.0, 18.0):
        two.done(end, share=0.25)
    assert two.seconds_left(18.0) == 3.0


def _pool_ends(workers: int, costs: list[float]) -> list[float]:
    """When each batch comes back from `workers` processes kept fed, batch i taking costs[i]."""
    free, ends = [0.0] * workers, []
    for cost in costs:
        k = min(range(workers), key=lambda j: free[j])
        free[k] += cost
        ends.append(free[k])
    return sorted(ends)


def test_pool_pace_follows_a_load_that_rose_halfway():
    # 40 batches on 2 workers: 4 s each, then 10 s each from the 21st on (other processes
    # took the cores). At 80% the 8 batches left run at 10 s: an even mean over the whole
    # run (the first half's 4 s counted as much as the last) reads them as far shorter
    ends = _pool_ends(2, [4.0] * 20 + [10.0] * 20)
    pace = PoolPace(workers=2, batches=40)
    for end in ends[:32]:
        pace.done(end)
    now, actual = ends[31], ends[-1] - ends[31]
    predicted = pace.seconds_left(now)
    assert predicted is not None and actual / 1.5 <= predicted <= actual * 1.5, (predicted, actual)
    spans = [ends[k] - ends[k - 2] for k in range(2, 32)]
    even = PoolPace(workers=2, batches=40)
    even._recent_batch_seconds = lambda ends: sum(spans) / len(spans)  # type: ignore[method-assign]
    for end in ends[:32]:
        even.done(end)
    assert even.seconds_left(now) < actual / 1.5


def test_the_column_shows_its_estimate_rounded():
    # what `benchmarks/progress_eta.py` reads (seconds_left) is what the column shows
    clock = [0.0]
    bar = Progress(get_time=lambda: clock[0])
    task = bar.add_task("embedding", total=1000)
    column = _eta_column(progress_bar(True))
    assert column.seconds_left(bar.tasks[0]) is None
    assert column.render(bar.tasks[0]).plain == "-:--:--"
    for at, done in ((3.0, 70), (9.0, 333), (20.0, 997)):
        clock[0] = at
        bar.update(task, completed=done)
        seconds = column.seconds_left(bar.tasks[0])
        minutes, secs = divmod(round(seconds), 60)
        assert column.render(bar.tasks[0]).plain == f"0:{minutes:02d}:{secs:02d}"
    assert 0 < seconds < 1  # 3 of 1,000 left: under a second, which the column shows as 0
