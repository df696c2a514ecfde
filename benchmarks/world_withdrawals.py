"""The world's edge bound and what keeping it costs: messages a second, markets down, lines over.

Run: `python benchmarks/world_withdrawals.py SPEED UPS SECONDS [--sample]`, e.g. `1 50 240
--sample` (serve's defaults; `--sample` counts the in-play lines over the bound every 2 s) or
`60 50 60` (a world whose update budget is far too small). A World on a frozen clock is stepped
each 0.05 real s, as `World.run()` does, so the figures do not move with the machine's load.
"""

from __future__ import annotations

import argparse
import time

from oddstui.service.world import World
from tests.service.test_world_deadlines import START, lines_over_the_bound


def markets_down(world: World) -> int:
    down = 0
    for event_id, withdrawn in world._quoter.withdrawn.items():
        event = world.events.get(event_id)
        if event is not None:
            down += sum(1 for book, name in withdrawn if name not in (event.quotes.get(book) or {}))
    return down


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("speed", type=float)
    parser.add_argument("ups", type=float)
    parser.add_argument("seconds", type=float)
    parser.add_argument("--sample", action="store_true")
    args = parser.parse_args()
    world = World(start=START, speed=args.speed, updates_per_second=args.ups,
                  real_clock=lambda: 0.0)
    world.warm()
    messages, over, shown, cpu = 0, 0, 0, time.process_time()
    for index in range(int(args.seconds / 0.05)):
        messages += len(world.advance(0.05 * args.speed))
        if args.sample and index % 40 == 0:
            lines, standing = lines_over_the_bound(world)
            shown, over = shown + lines, over + len(standing)
    sampled = f", lines over the bound at 2 s samples {over:,} of {shown:,}" if args.sample else ""
    print(f"speed {args.speed:g}, {args.ups:g} updates/s, {args.seconds:g} real s: "
          f"{messages / args.seconds:.1f} messages/s, markets down at the end "
          f"{markets_down(world):,}{sampled} (cpu {time.process_time() - cpu:.0f} s)")


if __name__ == "__main__":
    main()
