"""Start the TUI: `run_tui(base_url, api_key, settings)` is what `oddstui` (cli.py) calls."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from oddstui import config
from oddstui.api.feed import FeedTimings
from oddstui.api.rest import ApiClient
from oddstui.tui.app import OddsApp
from oddstui.tui.desk.feed import open_feed


def build_app(
    base_url: str,
    api_key: str | None,
    settings: config.Settings | None = None,
    *,
    now: Callable[[], float] = time.time,
    watchlist_path: Path | None = None,
    start_mode: str | None = None,
    with_feed: bool = True,
    feed_timings: FeedTimings | None = None,
    startup_warnings: Sequence[str] = (),
    record: str | None = None,
) -> OddsApp:
    """The app wired to a service: one REST client and one feed connection (`record`: a new
    folder the feed is recorded into, `--record DIR`)."""
    api = ApiClient(base_url, api_key)
    markets = settings.feed_markets if settings is not None else None
    feed = (
        open_feed(base_url, api_key, feed_timings, record, markets)
        if with_feed and api_key
        else None
    )
    return OddsApp(
        api,
        feed,
        settings=settings,
        now=now,
        watchlist_path=watchlist_path,
        start_mode=start_mode,
        startup_warnings=startup_warnings,
    )


def run_tui(
    base_url: str,
    api_key: str | None,
    settings: config.Settings | None = None,
    *,
    startup_warnings: Sequence[str] = (),
    record: str | None = None,
) -> int:
    """Run the app in the terminal until the trader quits; returns the exit status.

    `startup_warnings` are one-line notices shown once the app is up, e.g. the line from
    `config.load_settings_recovering()` when a corrupt config file was set aside.
    """
    if os.environ.get("TERM") == "dumb":
        # A dumb terminal shows no colour: it gets what NO_COLOR gets (no colour escapes).
        os.environ.setdefault("NO_COLOR", "1")
    app = build_app(base_url, api_key, settings, startup_warnings=startup_warnings, record=record)
    result = app.run()
    if app.return_code:  # Textual sets 1 after an unhandled exception: never report success
        return app.return_code
    return result if isinstance(result, int) else 0
