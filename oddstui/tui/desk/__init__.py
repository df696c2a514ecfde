"""The desk under the screens: the hub, the feed boundary, REST loads and the state screens read.

No textual here but the hub's signal, which tells subscribed screens of each change set."""
