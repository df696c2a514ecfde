"""The built-in service's world between launches of the desk: the same seed and start as last
time, so the same match keeps its id (and the watchlist its matches).

Kept in `builtin-world.toml` in the desk's data folder. Asking for a seed (`--seed`) makes a new
world, which is then the one kept.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import tomli_w

from oddstui import config

FILE_NAME = "builtin-world.toml"
DEFAULT_SEED = 1


@dataclass(frozen=True, slots=True)
class WorldIdentity:
    seed: int
    start: float  # the world's simulated time at its start (epoch seconds)


def world_path() -> Path:
    return config.data_dir() / FILE_NAME


def remembered_world(seed: int | None, path: Path | None = None) -> WorldIdentity:
    """The world to start: the last one unless `seed` asks for another; saved for next time.

    A missing or unreadable file starts a new world at the wall clock's now.
    """
    path = path or world_path()
    kept = _load(path)
    if kept is not None and (seed is None or seed == kept.seed):
        return kept
    world = WorldIdentity(DEFAULT_SEED if seed is None else seed, time.time())
    document = {"seed": world.seed, "start": world.start}
    try:
        config.write_atomic(path, tomli_w.dumps(document).encode())
    except OSError:
        pass  # the world just won't be the same next time
    return world


def _load(path: Path) -> WorldIdentity | None:
    try:
        raw = config.read_toml(path)
    except config.ConfigError:
        return None
    seed, start = raw.get("seed"), raw.get("start")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        return None
    if isinstance(start, bool) or not isinstance(start, int | float) or start <= 0:
        return None
    return WorldIdentity(seed, float(start))
