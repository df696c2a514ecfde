"""Any bytes in config.toml, watchlist.toml or alerts.toml: the loaders the desk uses never raise
(bar a readable config with a bad value, which the CLI turns into one line and exit 2), say what
they did in one line, and keep the file's exact bytes as `.bak` whenever they do not use it."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import tomli_w
from hypothesis import given, settings
from hypothesis import strategies as st

from oddstui import config
from oddstui.tui.alerts.store import load_rules_recovering

Loader = Callable[[Path], tuple[object, str | None]]

LOADERS: dict[str, Loader] = {
    "config.toml": config.load_settings_recovering,
    "watchlist.toml": config.load_watchlist_recovering,
    "alerts.toml": load_rules_recovering,
}

_scalars = st.one_of(
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.integers(min_value=-(10**400), max_value=10**400),  # beyond a float
    st.floats(allow_nan=True),
    st.text(max_size=8),
    st.sampled_from(["decimal", "ML", "home", "over", "Bet365"]),
)
_values = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["id", "event", "market", "side", "threshold"]), inner)
    ),
    max_leaves=8,
)
_keys = st.sampled_from(
    ["event", "price", "arbitrage", "odds_format", "bankroll", "exchange_commission", "x"]
)
_entry_keys = st.sampled_from(
    ["id", "event", "market", "side", "threshold", "above", "hdp", "label", "min_profit", "home"]
)
_entries = st.lists(st.dictionaries(_entry_keys, _values, max_size=6), max_size=3)
# Documents that are valid TOML, shaped roughly like ours, so the shape checks are reached too.
_documents = st.dictionaries(_keys, _values | _entries, max_size=4).map(
    lambda document: tomli_w.dumps(document).encode()
)
_contents = st.binary(max_size=300) | _documents | st.text(max_size=200).map(str.encode)


def _check(name: str, data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(data)
        try:
            loaded, warning = LOADERS[name](path)
        except config.ConfigError as error:
            # Only a readable config with a bad value is refused, and it is left as it is.
            assert name == "config.toml" and "\n" not in str(error)
            assert path.read_bytes() == data
            return
        assert loaded is not None
        if warning is None:
            assert path.read_bytes() == data  # used as it is, never rewritten on load
            return
        assert "\n" not in warning and str(path) in warning
        assert f"{name}.bak" in warning
        assert (Path(folder) / f"{name}.bak").read_bytes() == data
        assert not path.exists()


@settings(max_examples=150, deadline=None)
@given(data=_contents)
def test_config_loader_takes_any_bytes(data: bytes) -> None:
    _check("config.toml", data)


@settings(max_examples=150, deadline=None)
@given(data=_contents)
def test_watchlist_loader_takes_any_bytes(data: bytes) -> None:
    _check("watchlist.toml", data)


@settings(max_examples=150, deadline=None)
@given(data=_contents)
def test_alerts_loader_takes_any_bytes(data: bytes) -> None:
    _check("alerts.toml", data)


def test_the_generated_documents_reach_the_shape_checks() -> None:
    # Guards the strategy: a valid document with a wrong shape is set aside, a right one is used.
    rules: Any
    rules, warning = _load_alerts(b"price = 3\n")
    assert warning is not None and "array of tables" in warning
    rules, warning = _load_alerts(
        b'[[price]]\nevent = 4\nmarket = "ML"\nside = "home"\nthreshold = 2.5\n'
    )
    assert warning is None and len(rules.prices) == 1


def _load_alerts(data: bytes) -> tuple[object, str | None]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "alerts.toml"
        path.write_bytes(data)
        return load_rules_recovering(path)
