"""`keys.toml` in the config folder: the trader's own keys, by binding id.

    # keys.toml: a binding's id = the key (or keys, comma-separated) that fires it instead
    screen-arbitrage = "a"
    board-sort = "S"
    help = "f1,question_mark"

Every binding of the desk has an id (`?` lists the keys in force). Textual applies the map
(`App.set_keymap`). A file that cannot be used is reported in one line and the desk starts with
the keys it can use: a bad entry is skipped, the others still apply.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import reprlib
from collections.abc import Iterator
from pathlib import Path

from textual.binding import Binding
from textual.dom import DOMNode
from textual.keys import KEY_NAME_REPLACEMENTS, Keys, key_to_character

from oddstui import config

#: One key as Textual spells it: `x`, `S`, `f1`, `ctrl+s`, `question_mark`, `?`.
KEY = re.compile(r"[^\s,]{1,40}")
MODIFIERS = frozenset({"ctrl", "shift", "alt", "meta", "super", "hyper"})
#: Key names that are not one character: `f1`, `escape`, `pageup`, `slash`...
NAMED_KEYS = frozenset(
    key.value for key in Keys if "+" not in key.value and not key.value.startswith("<")
) | frozenset(KEY_NAME_REPLACEMENTS.values())


def is_key(text: str) -> bool:
    """True when `text` names a key Textual can fire: modifiers (`ctrl+`...) and one key, which
    is a single character or a key's name. `ctrl+!!bad` is not (Textual would take it silently,
    and the binding would never fire)."""
    if not KEY.fullmatch(text):
        return False
    *modifiers, base = text.split("+") if text != "+" else [text]
    if base == "" and text.endswith("++"):  # `ctrl++`: the plus key
        modifiers, base = text[:-2].split("+") if text[:-2] else [], "+"
    if not all(modifier in MODIFIERS for modifier in modifiers):
        return False
    return len(base) == 1 or base in NAMED_KEYS or key_to_character(base) is not None


def keys_path() -> Path:
    return config.config_dir() / "keys.toml"


def binding_ids() -> frozenset[str]:
    """The id of every binding of the desk's screens and widgets (all of `oddstui.tui`)."""
    import oddstui.tui

    for module in pkgutil.walk_packages(oddstui.tui.__path__, "oddstui.tui."):
        importlib.import_module(module.name)
    ids = set()
    for node in _subclasses(DOMNode):
        if not node.__module__.startswith("oddstui.tui."):
            continue
        for binding in node.__dict__.get("BINDINGS", ()):
            if isinstance(binding, Binding) and binding.id:
                ids.add(binding.id)
    return frozenset(ids)


def _subclasses(cls: type) -> Iterator[type]:
    subs: list[type] = cls.__subclasses__()
    for sub in subs:
        yield sub
        yield from _subclasses(sub)


def load_keymap(path: Path | None = None) -> tuple[dict[str, str], str | None]:
    """The keymap in `path` (keys.toml by default) and one line about what could not be used
    (None when all was well). A missing file is an empty keymap."""
    path = path or keys_path()
    try:
        raw = config.read_toml(path)
    except config.ConfigError as error:
        return {}, f"{error}; the default keys apply"
    if not raw:
        return {}, None  # no file (the usual case): no need to load every screen to check it
    known = binding_ids()
    keymap: dict[str, str] = {}
    problems: list[str] = []
    for binding_id, keys in raw.items():
        if binding_id not in known:
            problems.append(f"'{binding_id}' is not the id of a key binding")
        elif not isinstance(keys, str) or not all(is_key(key.strip()) for key in keys.split(",")):
            problems.append(
                f"'{binding_id}' must be a key name or keys separated by commas"
                f" (not {reprlib.repr(keys)})"
            )
        else:
            keymap[binding_id] = ",".join(key.strip() for key in keys.split(","))
    if not problems:
        return keymap, None
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    kept = "skipped (the default keys stay for those), the other keys apply"
    return keymap, f"{path}: {problems[0]}{more}; {kept}"
