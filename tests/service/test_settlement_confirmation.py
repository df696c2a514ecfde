"""A match the world plays to its end is `awaiting_result` (not final, grades pending) for a
minute of simulated time, then settled and final: /settlements and /settlements/grade on a world
stepped in-process."""

from __future__ import annotations

from oddstui.server.accounts import demo_accounts
from oddstui.server.ratelimit import RateLimiter
from oddstui.service.context import ServiceContext
from oddstui.service.routes.call import Call
from oddstui.service.routes.settlements import CONFIRM_AFTER, get_settlements, grade
from oddstui.service.world import World

START = 1_790_000_000.0


def test_a_just_ended_match_awaits_its_result_then_is_final() -> None:
    world = World(seed=4, bookmakers=12, updates_per_second=50.0, start=START,
                  real_clock=lambda: 0.0)  # fmt: skip
    svc = ServiceContext(world=world, accounts=demo_accounts(), limiter=RateLimiter(), indexes=None)
    ended = None
    for _ in range(720):  # two simulated hours at most
        world.advance(10.0)
        ended = next((e for e in world.events.values() if e.settled_at is not None), None)
        if ended is not None:
            break
    assert ended is not None, "a live match ended within two simulated hours"
    ask = Call(svc, None, {"eventIds": [ended.id]}, {})
    (entry,) = get_settlements(ask)["settlements"]
    assert (entry["status"], entry["final"]) == ("awaiting_result", False)
    assert entry["scores"] == ended.scores.to_wire()
    body = {"selections": [{"eventId": ended.id, "market": "ML", "side": "home"}]}
    (pending,) = grade(Call(svc, None, {}, {}, body=body))["grades"]
    assert (pending["result"], pending["final"]) == ("pending", False)
    assert pending["score"] == ended.scores.to_wire()
    world.advance(CONFIRM_AFTER + 1.0)
    (entry,) = get_settlements(ask)["settlements"]
    assert (entry["status"], entry["final"]) == ("settled", True)
    (graded,) = grade(Call(svc, None, {}, {}, body=body))["grades"]
    assert graded["result"] in ("won", "lost", "void") and graded["final"] is True


def test_a_free_plan_has_no_feed_and_a_hundred_requests_an_hour(tmp_path) -> None:
    from oddstui.server.accounts import load_accounts

    path = tmp_path / "accounts.toml"
    path.write_text('[[account]]\nkey = "f"\nplan = "free"\nfeed = true\n'
                    '[[account]]\nkey = "p"\nfeed = true\n')  # fmt: skip
    accounts = load_accounts(path)
    free, paid = accounts.get("f"), accounts.get("p")
    assert free is not None and paid is not None
    assert (free.has_feed, free.requests_per_hour) == (False, 100)
    assert (paid.has_feed, paid.requests_per_hour) == (True, 5000)
