"""The built-in world kept between launches: the same seed and start, unless a seed is asked."""

from __future__ import annotations

from pathlib import Path

from oddstui.world_memory import remembered_world


def test_the_last_world_is_kept_unless_another_seed_is_asked(tmp_path: Path) -> None:
    path = tmp_path / "builtin-world.toml"
    first = remembered_world(None, path)
    assert first.seed == 1 and path.exists()
    assert remembered_world(None, path) == first  # the next launch: the same world
    assert remembered_world(1, path) == first  # asking for its own seed changes nothing
    other = remembered_world(9, path)
    assert other.seed == 9 and other.start >= first.start
    assert remembered_world(None, path) == other  # and that one is kept from now on


def test_a_broken_file_starts_a_new_world(tmp_path: Path) -> None:
    path = tmp_path / "builtin-world.toml"
    path.write_text("seed = 'x'\nstart = -1\n")
    world = remembered_world(None, path)
    assert world.seed == 1 and world.start > 0
    path.write_text("not toml [")
    assert remembered_world(None, path).seed == 1
