"""`oddstui record` and `oddstui replay`: their subcommands and how they start.

Here, above the service, because a record with no key and no --base-url taps the built-in
service, as the desk and the batch commands do.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
from pathlib import Path
from typing import Any


def add_recording_commands(commands: argparse._SubParsersAction) -> None:
    from oddstui.recording.options import add_record_arguments
    from oddstui.replay.options import add_replay_arguments

    record = commands.add_parser(
        "record",
        help="record a v3 feed (REST snapshots and every message) into a folder",
        description="Record what a v3 feed sends into DIR: hourly zstandard segments and a "
        'manifest (README, "Recording format"). The key comes from the environment or the '
        "config, as the desk's does.",
    )
    add_record_arguments(record)
    replay = commands.add_parser(
        "replay",
        help="serve a recording as a v3 service on loopback (REST and feed)",
        description="Serve a recording as `oddstui serve` serves its world: the desk, the relay "
        "and the SDK connect to it unchanged.",
    )
    add_replay_arguments(replay)


def run_recording_command(args: argparse.Namespace) -> int:
    if args.command == "replay":
        from oddstui.replay.server import replay_command

        return replay_command(args)
    return record_command(args)


def record_command(args: argparse.Namespace) -> int:
    from oddstui.api.errors import RequestRejected
    from oddstui.api.redact import install_log_redaction
    from oddstui.api.rest import check_base_url
    from oddstui.config import (
        KEY_ENV,
        PUBLIC_BASE_URL,
        ConfigError,
        config_path,
        load_settings,
        resolve_api_key,
    )
    from oddstui.recording.recorder import RecordOptions
    from oddstui.recording.records import RecordingError

    install_log_redaction()
    try:
        settings = load_settings()
    except ConfigError as error:
        return _fail(str(error), 2)
    out = Path(args.out)
    if (out / "manifest.json").exists():
        return _fail(f"--out {out}: a recording is already there; choose a new folder", 2)
    if out.exists() and not out.is_dir():
        return _fail(f"--out {out}: not a folder", 2)
    key = resolve_api_key(settings)
    named = args.base_url or settings.base_url
    service: Any = None
    if named is None and not key:
        from oddstui.service.assembly import Options
        from oddstui.service.embedded import start_embedded

        sys.stderr.write("oddstui record: no API key: recording the built-in service\n")
        try:
            service = start_embedded(Options(seed=args.seed))
        except Exception as error:  # noqa: BLE001 - one line, never a traceback
            return _fail(f"the built-in service did not start: {error}", 1)
        base, key = service.base_url, service.api_key
    else:
        try:
            base = check_base_url(named or PUBLIC_BASE_URL)
        except RequestRejected as error:
            return _fail(f"--base-url: {error}", 2)
        if not key:
            return _fail(f"no API key for {base}: set {KEY_ENV} or api_key in {config_path()}", 2)
    options = RecordOptions(
        out=out,
        base_url=base,
        key=key or "",
        markets=tuple(args.markets),
        duration=args.duration,
        max_size=args.max_size,
    )
    try:
        return asyncio.run(_record(options))
    except RecordingError as error:
        return _fail(str(error), 2)
    finally:
        if service is not None:
            service.stop()


async def _record(options: Any) -> int:
    from oddstui.api.errors import OddsApiError
    from oddstui.api.redact import plain, redact
    from oddstui.recording.recorder import Recorder

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    recorder = Recorder(options, on_ready=_say)
    try:
        await recorder.run(stop)
    except OddsApiError as error:
        return _fail(plain(redact(str(error), options.key)), 1)
    writer = recorder.writer
    if writer is not None:
        _say(f"recorded {writer.records} records, {writer.size()} bytes, into {options.out}")
    return 0


def _say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def _fail(message: str, status: int) -> int:
    sys.stderr.write(f"oddstui: {message}\n")
    sys.stderr.flush()
    return status
