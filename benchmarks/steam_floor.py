"""How far the built-in world's in-play ML prices shorten in a minute with no score change: the
figures behind the steam rule's in-play floor per sport (`IN_PLAY_STEAM_FLOOR`).

Starts `oddstui serve --port 0 --speed S`, polls GET /events/live and GET /odds/multi (Pinnacle,
up to 4 live events per sport) twice a (real) second, and prints per sport the largest
shortening of an ML price within 60 simulated seconds during which the event's scores did not
change, with the prices and the event.

    python benchmarks/steam_floor.py [--speed 10] [--seconds 150] [--seed 5]
"""

from __future__ import annotations

import argparse
import json
import time

import httpx
from service_rest import KEY, start

WINDOW_S = 60.0
PER_SPORT = 4

Point = tuple[float, float, str]  # simulated seconds, price, the scores as text


def sample(client: httpx.Client, at: float, series: dict[tuple[int, str], list[Point]],
           sport_of: dict[int, str]) -> None:  # fmt: skip
    by_sport: dict[str, list[int]] = {}
    for event in client.get("/events/live").json():
        by_sport.setdefault(event["sport"]["slug"], []).append(event["id"])
    ids = [i for found in by_sport.values() for i in found[:PER_SPORT]]
    for slug, found in by_sport.items():
        sport_of.update(dict.fromkeys(found[:PER_SPORT], slug))
    for start_at in range(0, len(ids), 10):
        chunk = ",".join(map(str, ids[start_at : start_at + 10]))
        answer = client.get("/odds/multi", params={"eventIds": chunk, "bookmakers": "Pinnacle"})
        if answer.status_code != 200:
            continue  # an event settled between the two calls
        for record in answer.json():
            scores = json.dumps(record.get("scores"), sort_keys=True)
            for markets in (record.get("bookmakers") or {}).values():
                for market in markets:
                    if market.get("name") != "ML" or not market.get("odds"):
                        continue
                    for side in ("home", "away", "draw"):
                        price = market["odds"][0].get(side)
                        if price:
                            point = (at, float(price), scores)
                            series.setdefault((record["id"], side), []).append(point)


def largest_shortening(points: list[Point]) -> tuple[float, float, float]:
    """(move %, from, to): the largest shortening within the window with the scores unchanged."""
    worst = (0.0, 0.0, 0.0)
    for index, (at, price, scores) in enumerate(points):
        for later, then, later_scores in points[index + 1 :]:
            if later - at > WINDOW_S or later_scores != scores:
                break
            move = (then - price) / price * 100.0
            if move < worst[0]:
                worst = (move, price, then)
    return worst


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--speed", type=float, default=10.0)
    parser.add_argument("--seconds", type=float, default=150.0, help="real seconds to poll")
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    process, url = start(200, "--speed", str(args.speed), "--seed", str(args.seed))
    try:
        client = httpx.Client(base_url=url, params={"apiKey": KEY}, timeout=30)
        series: dict[tuple[int, str], list[Point]] = {}
        sport_of: dict[int, str] = {}
        began = time.monotonic()
        while time.monotonic() - began < args.seconds:
            sample(client, (time.monotonic() - began) * args.speed, series, sport_of)
            time.sleep(0.5)
        worst: dict[str, tuple[float, float, float, int]] = {}
        for (event_id, _), points in series.items():
            move, price, then = largest_shortening(points)
            slug = sport_of[event_id]
            if move < worst.get(slug, (0.0,))[0]:
                worst[slug] = (move, price, then, event_id)
        simulated = args.seconds * args.speed / 60
        print(f"ML at Pinnacle, {len(series)} prices, {simulated:.0f} simulated minutes")
        for slug, (move, price, then, event_id) in sorted(worst.items(), key=lambda w: w[1][0]):
            print(f"  {slug:<20} {move:7.2f} %  {price} -> {then}  (event {event_id})")
    finally:
        process.terminate()
        process.wait()


if __name__ == "__main__":
    main()
