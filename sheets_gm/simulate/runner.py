"""Running a plan: chunks of matches in worker processes, records gathered in match order.

With one worker the chunks are played in this process (no pool to start). With more, a
``ProcessPoolExecutor`` plays them; each worker sends back a whole chunk of small records
at once, so the cost of crossing processes is paid once per chunk, not per match. The
records are put back in match order before any figure is computed, so the figures do not
depend on the worker count or on which chunk finished first. It works with the 'fork'
start method (Linux's default) and with 'spawn': a chunk is plain data and the function
that plays it is importable.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from multiprocessing.context import BaseContext

from sheets_gm.rulesets.parts.figures import SimulationSpec
from sheets_gm.rulesets.registry import create_ruleset, game_of
from sheets_gm.simulate.plan import Chunk, Plan, chunks
from sheets_gm.simulate.stats import VariantFigures, summarize
from sheets_gm.simulate.worker import ChunkTask, MatchRecord, rules_of, run_chunk, start_worker

#: Called with the number of matches just finished.
ProgressCallback = Callable[[int], None]


def default_workers() -> int:
    """One worker per CPU."""
    return os.cpu_count() or 1


@dataclass(frozen=True, slots=True)
class SimulationRun:
    """A finished simulation: its plan, every record by variant in match order, and its timing."""

    plan: Plan
    records: tuple[tuple[MatchRecord, ...], ...]  # per variant, in match order
    workers: int
    seconds: float  # wall clock, worker start-up included

    @property
    def matches_played(self) -> int:
        """Matches played over all variants."""
        return sum(len(r) for r in self.records)

    @property
    def matches_per_second(self) -> float:
        """Matches played per wall-clock second."""
        return self.matches_played / self.seconds if self.seconds > 0 else float("inf")

    @property
    def spec(self) -> SimulationSpec:
        """What the ruleset reports (with the default variant's settings)."""
        return simulation_spec(self.plan)

    def figures(self) -> tuple[VariantFigures, ...]:
        """The figures of every variant, in the plan's order."""
        spec = self.spec
        return tuple(summarize(self.plan, spec, v, records) for v, records in enumerate(self.records))


def simulation_spec(plan: Plan) -> SimulationSpec:
    """What the plan's ruleset reports, with the default variant's settings."""
    rules = create_ruleset(plan.ruleset, plan.variants[0].settings, plan.map_text)
    simulation = game_of(rules).simulation
    if simulation is None:
        raise ValueError(f"the {rules.traits.title} game has no simulation")
    return simulation.spec(rules)


def _task(plan: Plan, chunk: Chunk) -> ChunkTask:
    return ChunkTask(plan.ruleset, plan.map_text, plan.variants[chunk.variant].settings, plan.bots, plan.seed,
                     chunk.variant, chunk.start, chunk.stop)


def _prepare(plan: Plan, todo: list[Chunk], context: BaseContext | None) -> None:
    """Each variant's rules made and prepared (``Simulation.prepare``: the board's path tables) in this process, when
    the workers are forked from it: they inherit them, rather than each computing them as it plays."""
    if (context or multiprocessing.get_context()).get_start_method() != "fork":
        return
    done: set[int] = set()
    for chunk in todo:
        if chunk.variant not in done:
            done.add(chunk.variant)
            rules = rules_of(_task(plan, chunk))
            simulation = game_of(rules).simulation
            if simulation is not None and simulation.prepare is not None:
                simulation.prepare(rules)


def run_simulation(plan: Plan, workers: int | None = None, on_progress: ProgressCallback | None = None,
                   mp_context: BaseContext | None = None) -> SimulationRun:
    """Play every match of ``plan`` with ``workers`` processes (default: one per CPU)."""
    count = default_workers() if workers is None else workers
    if count < 1:
        raise ValueError(f"workers must be 1 or more; got {count}")
    began = time.perf_counter()
    todo = chunks(plan, count)
    done: list[list[MatchRecord]] = [[] for _ in todo]
    if count == 1:
        for i, chunk in enumerate(todo):
            done[i] = run_chunk(_task(plan, chunk))
            if on_progress is not None:
                on_progress(chunk.size)
    else:
        _prepare(plan, todo, mp_context)
        with ProcessPoolExecutor(max_workers=min(count, len(todo)), mp_context=mp_context,
                                 initializer=start_worker) as pool:
            pending: dict[Future[list[MatchRecord]], int] = {
                pool.submit(run_chunk, _task(plan, chunk)): i for i, chunk in enumerate(todo)
            }
            try:
                while pending:
                    finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                    for future in finished:
                        i = pending.pop(future)
                        done[i] = future.result()
                        if on_progress is not None:
                            on_progress(todo[i].size)
            except BaseException:
                pool.shutdown(wait=False, cancel_futures=True)
                raise
    by_variant: list[list[MatchRecord]] = [[] for _ in plan.variants]
    for chunk, records in zip(todo, done, strict=True):
        by_variant[chunk.variant].extend(records)
    seconds = time.perf_counter() - began
    return SimulationRun(plan, tuple(tuple(r) for r in by_variant), count, seconds)
