"""Benchmark of the simulated world: build time, and step cost at 50 and 2,000 updates/s.

Run: `python benchmarks/world_step.py [--seconds 10] [--speed 1]`. The world is stepped every
50 ms of (simulated) real time, as `World.run()` does; the figures are CPU per real second,
which is the share of a core the world takes (process CPU time, so other load on the machine
does not inflate it), and the journal entries it produced per second.
"""

from __future__ import annotations

import argparse
import statistics
import time
import tracemalloc

from measure import emit

from oddstui.service.world import World

START = 1_800_000_000.0


def build_time(repeats: int = 3) -> float:
    times = []
    for _ in range(repeats):
        began = time.process_time()
        World(seed=1, start=START)
        times.append(time.process_time() - began)
    return min(times)


def run(
    updates: float, seconds: float, speed: float, interval: float = 0.05, warmup: float = 3.0
) -> dict[str, float]:
    clock = [0.0]
    world = World(
        seed=1, start=START, speed=speed, updates_per_second=updates, real_clock=lambda: clock[0]
    )
    world.freeze_heap()  # as World.run() does
    for _ in range(int(warmup / interval)):  # live events open their quotes over the first steps
        clock[0] += interval
        world.step()
    steps = int(seconds / interval)
    costs = []
    first_seq = world.journal.seq
    for _ in range(steps):
        clock[0] += interval
        began = time.process_time()
        world.step()
        costs.append(time.process_time() - began)
    entries = world.journal.seq - first_seq
    return {
        "cpu_share": sum(costs) / seconds,
        "step_p50_ms": statistics.median(costs) * 1000,
        "step_p99_ms": sorted(costs)[int(len(costs) * 0.99) - 1] * 1000,
        "entries_per_s": entries / seconds,
        "live": len(world.live_events()),
        "history_lines": world.history.line_count(),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=10.0, help="real seconds simulated")
    parser.add_argument("--speed", type=float, default=1.0)
    args = parser.parse_args()
    print(f"World() build: {build_time() * 1000:.0f} ms CPU (best of 3, defaults)")
    for updates in (50.0, 2000.0):
        r = run(updates, args.seconds, args.speed)
        print(
            f"updates/s={updates:.0f} speed={args.speed:g}: "
            f"{r['entries_per_s']:.0f} entries/s, "
            f"CPU {r['cpu_share'] * 100:.1f}% of a core, "
            f"step p50 {r['step_p50_ms']:.2f} ms p99 {r['step_p99_ms']:.2f} ms, "
            f"live {r['live']:.0f}, history lines {r['history_lines']:.0f}"
        )
        emit(f"world step at {updates:,.0f} updates/s", entries_per_s=r["entries_per_s"],
             core_pct=r["cpu_share"] * 100, step_p99_ms=r["step_p99_ms"])  # fmt: skip
    tracemalloc.start()
    world = World(seed=1, start=START)
    current, _ = tracemalloc.get_traced_memory()
    del world
    tracemalloc.stop()
    print(f"World() memory: {current / 1e6:.0f} MB")


if __name__ == "__main__":
    main()
