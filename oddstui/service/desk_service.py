"""Where a running desk's built-in service is, so that the batch commands ask the world the desk
shows.

Two built-in services at one seed hold the same matches at the same moment, but not the same
prices: each world requotes on its own process's schedule, so `oddstui odds` with a service of
its own printed 28.389 where the desk showed 28.083 for the same bookmaker and moment. The desk
writes its service's address to a small file while it runs; a batch command at the same seed
asks that service when it is there and answering, and says which one it asked.
"""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path
from urllib.parse import urlsplit

from oddstui.config import data_dir, write_atomic

FILE_NAME = "desk-service.json"


def desk_service_path() -> Path:
    return data_dir() / FILE_NAME


def publish(url: str, seed: int) -> None:
    """Say where this desk's service is (no key: the built-in service takes the demo key)."""
    record = {"url": url, "seed": seed, "pid": os.getpid()}
    try:
        write_atomic(desk_service_path(), json.dumps(record).encode())
    except OSError:
        pass  # the batch commands then start a service of their own, and say so


def withdraw() -> None:
    """Forget the address, when this process wrote it."""
    path = desk_service_path()
    if _read(path).get("pid") == os.getpid():
        path.unlink(missing_ok=True)


def find(seed: int) -> str | None:
    """The base URL of a running desk's service at `seed`, when one answers; else None."""
    record = _read(desk_service_path())
    url, pid = record.get("url"), record.get("pid")
    if record.get("seed") != seed or not isinstance(url, str) or not isinstance(pid, int):
        return None
    parts = urlsplit(url)
    if parts.scheme != "http" or parts.hostname not in ("127.0.0.1", "::1", "localhost"):
        return None  # only ever a loopback service
    try:
        os.kill(pid, 0)
        with socket.create_connection((parts.hostname, parts.port or 80), timeout=0.5):
            pass
    except (OSError, ValueError):
        return None
    return url


def _read(path: Path) -> dict[str, object]:
    try:
        record = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return record if isinstance(record, dict) else {}
