"""The pages `oddstui web` serves: the desk's page, the cap's page and the refusal. Our own
template over textual-serve's script and its Roboto Mono files, so the page asks nothing of any
other server (textual-serve's own template loads the font from Google)."""

from __future__ import annotations

import html
from pathlib import Path

import textual_serve

#: textual.js (xterm.js and the protocol), xterm.css and the fonts, shipped in the wheel.
STATIC = Path(textual_serve.__file__).parent / "static"

_STYLE = """
@font-face { font-family: "Roboto Mono"; font-weight: 100 700;
  src: url("/static/fonts/RobotoMono-VariableFont_wght.ttf") format("truetype"); }
@font-face { font-family: "Roboto Mono"; font-style: italic; font-weight: 100 700;
  src: url("/static/fonts/RobotoMono-Italic-VariableFont_wght.ttf") format("truetype"); }
html, body { margin: 0; height: 100%; background: #0c181f; color: #e8eef2;
  font-family: "Roboto Mono", monospace; }
.note { display: flex; height: 100%; align-items: center; justify-content: center;
  text-align: center; padding: 0 2em; }
.textual-terminal { width: 100vw; height: 100vh; opacity: 0; }
body.-first-byte .textual-terminal { opacity: 1; }
body.-first-byte #starting { display: none; }
#starting, #ended { position: absolute; inset: 0; }
#ended { display: none; background: #0c181f; }
body.-closed #ended { display: flex; }
"""


def desk_page(path: str = "/ws", font_size: int = 16) -> str:
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>oddstui</title>
<link rel="stylesheet" href="/static/css/xterm.css">
<style>{_STYLE}</style>
<script src="/static/js/textual.js"></script>
<script>
// xterm.js measures its cells once, when the terminal starts: start it after our font has
// loaded, or the desk is sized in a fallback font's columns and its right edge is cut off.
const startTerminal = window.onload;
window.onload = null;
Promise.all([
  document.fonts.load('{font_size}px "Roboto Mono"'),
  new Promise((loaded) => window.addEventListener("load", loaded)),
]).finally(() => startTerminal());
</script>
</head>
<body>
<div id="starting" class="note">oddstui: starting the desk…</div>
<div id="ended" class="note">The desk ended. Reload the page for a new one.</div>
<div id="terminal" class="textual-terminal" data-font-size="{font_size}"></div>
<script>
// The socket is on this page's own host, ws: or wss: as the page came (a TLS proxy in front).
document.getElementById("terminal").dataset.sessionWebsocketUrl =
  (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "{path}";
</script>
</body>
</html>
"""


def note_page(title: str, text: str) -> str:
    return f"""<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>oddstui: {html.escape(title)}</title>
<style>{_STYLE}</style></head>
<body><div class="note"><p>{html.escape(text)}</p></div></body>
</html>
"""


def full_page(cap: int) -> str:
    return note_page(
        "every desk is taken",
        f"oddstui web serves at most {cap} desks at once (--sessions), and all are open. "
        "Close a tab with a desk in it, then reload this page.",
    )


def refused_page() -> str:
    return note_page(
        "not signed in",
        "Open the address `oddstui web` printed (with its token) to start; "
        "the token works once, in one browser.",
    )
