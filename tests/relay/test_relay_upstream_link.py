"""The relay's upstream link offers permessage-deflate only to an upstream that is far away."""

from __future__ import annotations

import pytest

from oddstui.relay.upstream import near


@pytest.mark.parametrize(
    ("url", "is_near"),
    [
        ("http://127.0.0.1:8766/v3", True),
        ("http://localhost:8766/v3", True),
        ("http://[::1]:8766/v3", True),
        ("http://10.1.2.3:8766/v3", True),
        ("http://192.168.0.7/v3", True),
        ("https://api.odds-api.io/v3", False),
        ("http://8.8.8.8/v3", False),
        ("http://box-a:8766/v3", False),  # a name: it may be anywhere
    ],
)
def test_near_means_this_machine_or_a_private_network(url: str, is_near: bool) -> None:
    assert near(url) is is_near
