"""The built-in v3 service (`oddstui serve`): REST and feed over a simulated world.

Layering: `service` may import `api` models and `book` maths; it never imports `tui` or textual.
"""
