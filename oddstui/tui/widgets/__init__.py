"""Reusable widgets of the TUI."""
