"""The stake ticket: its stakes (no textual) and its modal."""
