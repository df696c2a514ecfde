"""The built-in service as a child process, for the desk without a key.

```python
service = start_child(seed=1, speed=1.0)   # returns at once: the world builds meanwhile
...                                         # the desk loads its own modules on this core
url = service.wait_ready()                  # `oddstui serve`'s ready line
service.stop()
```

A process of its own, not a thread: the world is built on the other core while the desk loads
(two threads would take turns on one interpreter lock), and the world's steps never hold up the
desk's screen. The child's standard input is a pipe from the desk; the service stops when it
closes, so a desk that is killed never leaves a service behind.
"""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from oddstui.server.accounts import DEMO_KEY
from oddstui.server.ready_line import url_of_ready_line

#: Set in the child's environment: stop serving when standard input closes (see server.py).
STOP_ON_EOF_ENV = "ODDSTUI_SERVE_STOP_ON_EOF"


class ChildFailed(RuntimeError):
    """The service process ended, or never said it was ready; the message says why."""


@dataclass
class ChildService:
    process: subprocess.Popen[bytes]
    log: Path
    api_key: str = field(default=DEMO_KEY, repr=False)
    base_url: str = ""

    def wait_ready(self, timeout: float = 30.0) -> str:
        """The service's base URL, once its ready line came; raises `ChildFailed`."""
        assert self.process.stdout is not None
        with selectors.DefaultSelector() as selector:
            selector.register(self.process.stdout, selectors.EVENT_READ)
            if not selector.select(timeout):
                self.stop()
                raise ChildFailed(f"no ready line within {timeout:.0f} s")
        line = self.process.stdout.readline().decode(errors="replace")
        url = url_of_ready_line(line)
        if url is None:
            why = self._last_words() or f"it said {line.strip()!r}"
            self.stop()
            raise ChildFailed(why)
        self.base_url = url
        return url

    def stop(self, timeout: float = 5.0) -> None:
        """SIGTERM (feed connections close with 1001), then SIGKILL if it lingers."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                stream.close()
        self.log.unlink(missing_ok=True)

    def _last_words(self) -> str:
        """The last line the process wrote to its standard error."""
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            pass
        lines = self.log.read_text(errors="replace").strip().splitlines()
        return lines[-1].removeprefix("oddstui: ") if lines else ""


def start_child(*, seed: int = 1, speed: float = 1.0) -> ChildService:
    """Launch `oddstui serve` on a free loopback port (with the `demo` account); returns at once."""
    handle, name = tempfile.mkstemp(prefix="oddstui-serve-", suffix=".log")
    env = {**os.environ, STOP_ON_EOF_ENV: "1"}
    command = [sys.executable, "-m", "oddstui", "serve", "--host", "127.0.0.1", "--port", "0"]
    command += ["--seed", str(seed), "--speed", repr(speed)]
    try:
        process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=handle, env=env
        )
    finally:
        os.close(handle)
    return ChildService(process, Path(name))
