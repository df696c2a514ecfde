"""Wait for the world, with generous bounds: poll a live answer until it holds what a test checks.

A test that checks every item of a live answer first waits for an answer that has some, so it
cannot pass on an empty one; the bound is for a loaded 2-core CI machine, not a timing claim.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")

BOUND = 30.0


def eventually(
    fetch: Callable[[], T], what: str, holds: Callable[[T], object] = bool, seconds: float = BOUND
) -> T:
    """The first answer of ``fetch()`` that ``holds``; AssertionError after ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        answer = fetch()
        if holds(answer):
            return answer
        if time.monotonic() > deadline:
            raise AssertionError(
                f"no {what} within {seconds:g} s; the last answer: {answer!r:.300}"
            )
        time.sleep(0.3)


async def eventually_async(
    fetch: Callable[[], Awaitable[T]],
    what: str,
    holds: Callable[[T], object] = bool,
    seconds: float = BOUND,
) -> T:
    """``eventually`` for a coroutine function."""
    deadline = time.monotonic() + seconds
    while True:
        answer = await fetch()
        if holds(answer):
            return answer
        if time.monotonic() > deadline:
            raise AssertionError(
                f"no {what} within {seconds:g} s; the last answer: {answer!r:.300}"
            )
        await asyncio.sleep(0.3)
