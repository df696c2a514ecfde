"""The built-in v3 service (`oddstui serve`): the server core answering from a simulated world.

Layering: `service` may import `server`, `api` models and `book` maths; it never imports `tui`,
`relay` or textual.
"""
