"""oddstui: a terminal trading desk for sports odds, speaking the v3 odds interface."""

__version__ = "0.1.0"
