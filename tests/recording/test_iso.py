"""Times as ISO-8601 text: the quick formatting agrees with `datetime.isoformat` everywhere."""

from __future__ import annotations

import math

from hypothesis import example, given
from hypothesis import strategies as st

from oddstui.recording.manifest import _iso, iso


@given(st.floats(min_value=-1e10, max_value=3e11, allow_nan=False) | st.sampled_from([math.nan]))
@example(1795642846.0)
@example(1795642846.9995)
@example(1795642846.0005)
@example(1795642846.9999995)  # rounds up into the next second
@example(1795642846.9999994)
@example(0.0)
@example(-0.0005)
def test_iso_is_isoformat_to_the_millisecond(unix: float) -> None:
    try:
        expected = _iso(unix)
    except (ValueError, OverflowError, OSError) as error:
        try:
            iso(unix)
        except type(error):
            return
        raise AssertionError(f"iso({unix!r}) took what datetime refuses") from None
    assert iso(unix) == expected


def test_a_recording_time_in_iso() -> None:
    assert iso(1795642846.21) == "2026-11-25T21:40:46.210Z"
