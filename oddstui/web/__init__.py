"""`oddstui web`: the desk in a browser. Each tab is a desk process behind a one-time token, a
cookie and an Origin check; every tab reaches the upstream through one in-process relay."""
