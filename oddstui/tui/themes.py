"""The dark and light themes, with colour-blind-safe rise and fall colours (blue / orange)."""

from __future__ import annotations

from textual.theme import Theme

# Blue for a rise and orange for a fall read apart under every common colour-vision deficiency,
# unlike green/red.
ODDS_VARIABLES_DARK = {"odds-up": "#5fa8ff", "odds-down": "#ff9e3d", "stale": "#7c7c7c"}
ODDS_VARIABLES_LIGHT = {"odds-up": "#0057b8", "odds-down": "#c15400", "stale": "#8a8a8a"}

DARK = Theme(
    name="oddstui-dark",
    primary="#3d8bd9",
    secondary="#7aa2c8",
    accent="#ff9e3d",
    foreground="#e0e0e0",
    background="#121417",
    surface="#1b1e23",
    panel="#23272e",
    success="#5fa8ff",
    warning="#ff9e3d",
    error="#e0605e",
    dark=True,
    variables=ODDS_VARIABLES_DARK,
)

LIGHT = Theme(
    name="oddstui-light",
    primary="#0057b8",
    secondary="#44617f",
    accent="#c15400",
    foreground="#1c1c1c",
    background="#f7f7f5",
    surface="#ffffff",
    panel="#e7e9ec",
    success="#0057b8",
    warning="#c15400",
    error="#b3261e",
    dark=False,
    variables=ODDS_VARIABLES_LIGHT,
)

THEMES = (DARK, LIGHT)
