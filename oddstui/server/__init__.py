"""The v3 server core: the route table, params, errors, rate limit, accounts, the app's JSON
helpers, serving on a socket, and the feed core. It serves whatever source stands behind it:
the simulated world (`oddstui.service`) or an upstream feed (`oddstui.relay`).

Layering: `server` may import `api` and `book`; it never imports `service`, `relay` or `tui`.
"""
