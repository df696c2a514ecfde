"""Suite-wide: the tests that wait longest on the live world are handed out first."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # xdist (`--dist loadfile`) hands files to its workers in the order collected. A file whose
    # test waits a minute on the world, started last, would end the run alone while the other
    # worker sits idle; started first, it runs beside the many short files.
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
