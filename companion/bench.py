"""``labyrinth-companion bench``: performance goals, measured (medians in milliseconds).

Each area contributes benchmarks through a module in :data:`BENCH_MODULES`
exposing ``benchmarks() -> dict[str, Callable[[], float]]``: a name and a
function that runs the measurement and returns the median in ms. Modules that
have not landed yet are skipped.
"""

from __future__ import annotations

import argparse
import importlib
import json
import statistics
import time
from collections.abc import Callable

BENCH_MODULES: tuple[str, ...] = ("companion.bench_rules", "vision.bench")


def median_ms(func: Callable[[], object], repeat: int, warmup: int = 1) -> float:
    """Median wall time of ``func()`` over ``repeat`` runs, in milliseconds."""
    for _ in range(warmup):
        func()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append((time.perf_counter() - start) * 1000.0)
    return statistics.median(times)


def collect() -> dict[str, Callable[[], float]]:
    found: dict[str, Callable[[], float]] = {}
    for name in BENCH_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue
            raise
        found.update(module.benchmarks())
    return found


def run(args: argparse.Namespace) -> int:
    benches = collect()
    selected = args.only or list(benches)
    unknown = [n for n in selected if n not in benches]
    if unknown:
        from companion.errors import UsageError

        raise UsageError(f"unknown benchmark {unknown[0]!r}; known: {', '.join(benches)}")
    results = {}
    for name in selected:
        results[name] = round(benches[name](), 3)
        if not args.json:
            print(f"{name:28s} {results[name]:10.3f} ms")
    if args.json:
        print(json.dumps(results))
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("bench", help="measure performance goals (medians in ms)")
    p.add_argument("--json", action="store_true", help="print one JSON object of medians")
    p.add_argument("--only", action="append", metavar="NAME", help="run only this benchmark (repeatable)")
    p.set_defaults(func=run)
