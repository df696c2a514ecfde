"""The desk under the screens: the hub, the feed boundary, REST loads and the state screens read.

No textual here."""
