"""Entry points: `oddstui` (the TUI), `oddstui serve`, and the batch commands."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from oddstui import __version__
from oddstui.config import ConfigError
from oddstui.record_replay import add_recording_commands
from oddstui.server.connection_limits import add_max_connections


class UsageError(Exception):
    """Bad input on the command line or in the config: one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        # argparse prints usage plus a message; the house rule is one line and exit 2.
        sys.stderr.write(f"oddstui: {message}\n")
        raise SystemExit(2)


def _positive_float(flag: str) -> Callable[[str], float]:
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{flag} must be a number, got {text!r}") from None
        if not value > 0 or value != value or value == float("inf"):
            raise argparse.ArgumentTypeError(f"{flag} must be a positive number, got {text!r}")
        return value

    return parse


def _non_negative_float(flag: str) -> Callable[[str], float]:
    positive = _positive_float(flag)

    def parse(text: str) -> float:
        return 0.0 if text.strip() in ("0", "0.0") else positive(text)

    return parse


def _int_in(flag: str, low: int, high: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{flag} must be an integer, got {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{flag} must be from {low} to {high}, got {value}")
        return value

    return parse


def add_serve_arguments(parser: argparse.ArgumentParser) -> None:
    """The `oddstui serve` flags: a contract (see SERVICE.md)."""
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument(
        "--port", type=_int_in("--port", 0, 65535), default=8765, help="port; 0 binds a free one"
    )
    parser.add_argument("--accounts", metavar="FILE", help="TOML file of accounts")
    parser.add_argument(
        "--seed", type=_int_in("--seed", 0, 2**63 - 1), default=1, help="world seed (default 1)"
    )
    parser.add_argument(
        "--speed", type=_positive_float("--speed"), default=1.0, help="simulated time multiplier"
    )
    parser.add_argument(
        "--bookmakers",
        type=_int_in("--bookmakers", 30, 1000),
        default=265,
        help="how many bookmakers exist (default 265)",
    )
    parser.add_argument(
        "--updates-per-second",
        type=_positive_float("--updates-per-second"),
        default=50.0,
        help="odds messages the world produces per real second (default 50)",
    )
    parser.add_argument(
        "--replay-window",
        type=_positive_float("--replay-window"),
        default=600.0,
        help="feed replay window in seconds (default 600)",
    )
    add_max_connections(parser)
    parser.add_argument(
        "--truth",
        metavar="FILE",
        help="write what the world simulates for each bookmaker (sharp, latency, sister) as "
        "JSON to FILE (docs/books.md)",
    )


def _key_env() -> str:
    from oddstui.config import KEY_ENV

    return KEY_ENV


def add_relay_arguments(parser: argparse.ArgumentParser) -> None:
    """The `oddstui relay` flags (README, "One key, many terminals")."""
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument(
        "--port",
        type=_int_in("--port", 0, 65535),
        default=8766,
        help="port (default 8766); 0 binds a free one",
    )
    parser.add_argument(
        "--accounts", metavar="FILE", help="TOML file of the relay's own client keys (required)"
    )
    parser.add_argument(
        "--upstream", metavar="URL", help="the v3 service to relay (default: the public service)"
    )
    parser.add_argument(
        "--markets",
        metavar="A,B",
        help="markets the relay carries (default: the 20 the desk subscribes to)",
    )
    parser.add_argument(
        "--replay-window",
        type=_positive_float("--replay-window"),
        default=600.0,
        metavar="SECONDS",
        help="seconds of lastSeq replay kept (default 600)",
    )
    add_max_connections(parser)
    parser.add_argument(
        "--nats",
        metavar="URL",
        help="also publish the feed to this NATS server's JetStream "
        "('embedded' starts nats-server)",
    )
    parser.add_argument(
        "--from-nats", metavar="URL", help="serve from this NATS server's stream, not upstream"
    )
    parser.add_argument(
        "--stream", default="ODDSTUI", help="the JetStream stream name (default ODDSTUI)"
    )
    parser.add_argument(
        "--catalog-every",
        type=_non_negative_float("--catalog-every"),
        default=600.0,
        metavar="SECONDS",
        help="list every sport's events this often, for clients' sport/league/status filters "
        "(default 600; 0: never)",
    )
    parser.add_argument(
        "--deflate",
        action="store_true",
        help="compress the feed for clients that ask (permessage-deflate); off by default: "
        "on a LAN it costs the relay more CPU than it saves",
    )


def _help_epilog() -> str:
    from oddstui.config import HOME_ENV, KEY_ENV, config_path, watchlist_path

    return (
        "environment:\n"
        f"  {KEY_ENV}   API key of the public service (else `api_key` in the config file);\n"
        "                    with no key, oddstui starts its built-in service on loopback\n"
        f"  {HOME_ENV}      one folder for the config and the watchlist (tests use it)\n"
        "  NO_COLOR          turn colour off (TERM=dumb does too)\n"
        "files:\n"
        f"  config:    {config_path()}\n"
        f"  watchlist: {watchlist_path()}\n"
    )


def add_tui_arguments(parser: argparse.ArgumentParser) -> None:
    add_client_arguments(parser)
    parser.add_argument(
        "--demo",
        action="store_true",
        help="use the built-in service even when an API key is configured",
    )
    parser.add_argument(
        "--seed",
        type=_int_in("--seed", 0, 2**63 - 1),
        default=1,
        help="built-in world seed (default 1); the world is a function of its seed and the time",
    )
    parser.add_argument(
        "--speed",
        type=_positive_float("--speed"),
        default=1.0,
        help="built-in world's simulated time multiplier (default 1)",
    )
    parser.add_argument(
        "--record", metavar="DIR", help="record what the desk receives into a new folder"
    )
    parser.add_argument("--version", action="version", version=f"oddstui {__version__}")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="oddstui",
        description="A terminal trading desk for sports odds. With no command, runs the desk.",
        epilog=_help_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_tui_arguments(parser)
    commands = parser.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND")
    serve = commands.add_parser("serve", help="run the built-in v3 service")
    add_serve_arguments(serve)
    relay = commands.add_parser(
        "relay",
        help="hold a key's one feed connection and serve it to many desks",
        description="Serve the v3 interface to any number of desks and SDK clients from one "
        f"upstream feed connection. The upstream key comes from {_key_env()} or the config.",
    )
    add_relay_arguments(relay)
    web = commands.add_parser(
        "web",
        help="serve the desk to browsers: a desk per tab, one feed for all",
        description="Serve the desk to web browsers: each tab runs its own desk, behind the "
        "one-time address printed at start; every tab shares one upstream feed.",
    )
    from oddstui.web.options import add_web_arguments

    add_web_arguments(web, add_client_arguments)
    add_batch_commands(commands)
    add_recording_commands(commands)
    from oddstui.backtest.command import add_backtest_commands
    from oddstui.betlog.command import add_bets_command

    add_backtest_commands(commands)
    add_bets_command(commands)
    return parser


def add_client_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--base-url",
        metavar="URL",
        help="any v3 service, e.g. http://127.0.0.1:8765/v3 (default: the public service)",
    )


_EVENT_HELP = "an event id, or live: the live match most bookmakers quote (see `oddstui live`)"


def add_batch_commands(commands: argparse._SubParsersAction) -> None:
    """Commands for scripts and tmux status lines; the key comes from ODDSTUI_API_KEY or config
    (with neither, nor a --base-url, they ask the built-in service, as the desk does)."""
    from oddstui.api.validate import TIME_WINDOWS
    from oddstui.batch_checks import event_ref, line_value

    live = commands.add_parser("live", help="print the live matches with their ids")
    live.add_argument("--sport", metavar="SLUG")
    arbs = commands.add_parser("arbs", help="print current arbitrage bets")
    arbs.add_argument("--bookmakers", metavar="A,B", help="bookmakers (default: the selection)")
    arbs.add_argument("--limit", type=_int_in("--limit", 1, 500), default=50)
    value = commands.add_parser("value", help="print value bets for one bookmaker")
    value.add_argument("--bookmaker", metavar="NAME", required=True)
    value.add_argument("--sport", metavar="SLUG")
    odds = commands.add_parser("odds", help="print one event's odds")
    odds.add_argument("event_id", metavar="EVENT_ID", type=event_ref, help=_EVENT_HELP)
    odds.add_argument("--bookmakers", metavar="A,B", help="bookmakers (default: the selection)")
    odds.add_argument("--sport", metavar="SLUG", help="with EVENT_ID live: a match of this sport")
    dropping = commands.add_parser("dropping", help="print prices that dropped (paid plans)")
    dropping.add_argument("--window", choices=TIME_WINDOWS, default="opening")
    dropping.add_argument("--min-drop", metavar="PCT", type=_non_negative_float("--min-drop"))
    dropping.add_argument("--sport", metavar="SLUG")
    dropping.add_argument("--markets", metavar="A,B", help="e.g. ML,Totals (default: all)")
    dropping.add_argument("--limit", type=_int_in("--limit", 1, 200), default=50)
    movements = commands.add_parser("movements", help="print one price's moves since opening")
    movements.add_argument("event_id", metavar="EVENT_ID", type=event_ref, help=_EVENT_HELP)
    movements.add_argument("--sport", metavar="SLUG", help="with EVENT_ID live: of this sport")
    movements.add_argument("--bookmaker", metavar="NAME", required=True)
    movements.add_argument("--market", metavar="NAME", default="ML", help="default: ML")
    movements.add_argument(
        "--line", metavar="HDP", type=line_value, help="the line of a Spread or Totals"
    )
    for command in (live, arbs, value, odds, dropping, movements):
        add_client_arguments(command)
        command.add_argument("--json", action="store_true", help="print JSON")
        command.add_argument(
            "--seed",
            type=_int_in("--seed", 0, 2**63 - 1),
            default=1,
            help="with no key: the built-in world's seed, the desk's (default 1)",
        )


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "serve":
            from oddstui.service.server import serve

            return serve(args)
        if args.command == "relay":
            from oddstui.relay.server import relay_command

            return relay_command(args)
        if args.command == "web":
            from oddstui.web.server import web_command

            return web_command(args)
        if args.command in ("record", "replay"):
            from oddstui.record_replay import run_recording_command

            return run_recording_command(args)
        if args.command in ("backtest", "export", "books"):
            from oddstui.backtest.command import run_command

            return run_command(args)
        if args.command == "bets":
            from oddstui.betlog.command import run_bets

            return run_bets(args)
        if args.command in ("live", "arbs", "value", "odds", "dropping", "movements"):
            from oddstui.batch import run_batch

            return run_batch(args)
        return run_desk(args)
    except (UsageError, ConfigError) as error:
        sys.stderr.write(f"oddstui: {error}\n")
        return 2


def run_desk(args: argparse.Namespace) -> int:
    """The desk against the configured service, or against the built-in one when there is no key."""
    from oddstui.config import (
        KEY_ENV,
        PUBLIC_BASE_URL,
        config_path,
        load_settings_recovering,
        resolve_api_key,
    )

    if args.record and (Path(args.record) / "manifest.json").exists():
        raise UsageError(f"--record {args.record}: a recording is already there; use a new folder")
    settings, warning = load_settings_recovering()
    warnings = [warning] if warning else []
    key = None if args.demo else resolve_api_key(settings)
    base = None if args.demo else args.base_url or settings.base_url
    if base is None and key is None:
        from oddstui.service.child import start_child

        # The service builds its world in its own process while this one loads the desk.
        service = start_child(seed=args.seed, speed=args.speed)
        from oddstui.service import desk_service

        try:
            from oddstui.tui.launch import run_tui

            try:
                base_url = service.wait_ready()
            except Exception as error:  # noqa: BLE001 - one line, never a traceback
                sys.stderr.write(f"oddstui: the built-in service did not start: {error}\n")
                return 1
            desk_service.publish(base_url, args.seed)  # `oddstui odds` asks the same world
            return run_tui(
                base_url,
                service.api_key,
                settings,
                startup_warnings=warnings,
                record=args.record,
            )
        finally:
            desk_service.withdraw()
            service.stop()
    from oddstui.api.errors import RequestRejected
    from oddstui.api.rest import check_base_url

    try:
        base = check_base_url(base or PUBLIC_BASE_URL)
    except RequestRejected as error:
        raise UsageError(f"--base-url: {error}") from None
    if key is None:
        raise UsageError(f"no API key for {base}: set {KEY_ENV} or api_key in {config_path()}")
    from oddstui.tui.launch import run_tui

    return run_tui(base, key, settings, startup_warnings=warnings, record=args.record)
