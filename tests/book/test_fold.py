"""One fold for matching names: the desk's find and the service's /events/search alike."""

from __future__ import annotations

import pytest

from oddstui.book.clean_text import fold
from oddstui.service.routes.lookup import fold as service_fold
from oddstui.tui.kit.columns import matches


@pytest.mark.parametrize(
    ("typed", "name"),
    [("bodo", "Bodø/Glimt"), ("tromso", "Tromsø IL"), ("dnipro", "Dnipró"),
     ("lodz", "ŁKS Łódź"), ("strasse", "Straße"), ("aeroskobing", "Ærøskøbing"),
     ("zurich", "Zürich")],
)  # fmt: skip
def test_what_a_trader_types_finds_the_name(typed: str, name: str) -> None:
    assert fold(typed) in fold(name)
    assert service_fold(typed) in service_fold(name)  # the service's search folds the same
    assert matches({"event": name}, typed)  # the desk's find
    assert fold("bodø") == fold("bodo") == service_fold("BODØ")
