"""Random and hostile query strings against every endpoint: never a 500, always JSON errors."""

from __future__ import annotations

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from oddstui.server.routes import ROUTES
from tests.service.conftest import Service

SERVICE_OPTIONS = {"bookmakers": 40}

NAMES = sorted({p.name for route in ROUTES for p in route.params} | {"apiKey", "x", ""})
HOSTILE = [
    "",
    " ",
    "-1",
    "0",
    "1e400",
    "nan",
    "inf",
    "99999999999999999999999",
    "1,2,3" * 50,
    "%00",
    "\x00",
    "\n",
    "'; DROP TABLE",
    "[red]x[/red]",
    "../../etc/passwd",
    "Bet365",
    "football",
    "true",
    "2026-13-45T99:99:99Z",
    "😀" * 30,
    ",,,",
    "a" * 5000,
    "%",
    "%ZZ",
    "&&",
]
values = st.one_of(st.sampled_from(HOSTILE), st.text(max_size=60), st.integers().map(str))
queries = st.lists(st.tuples(st.sampled_from(NAMES), values), max_size=6)
paths = st.sampled_from([route.path.replace("{id}", "{ID}") for route in ROUTES])
ids = st.one_of(st.integers(-5, 10**20).map(str), st.sampled_from(["abc", "%20", "1.5", "0x1f"]))


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    path=paths,
    query=queries,
    with_key=st.booleans(),
    ident=ids,
    method=st.sampled_from(["GET", "GET", "GET", "PUT", "POST", "DELETE"]),
)
def test_no_input_gives_a_500(
    http: httpx.Client,
    service: Service,
    path: str,
    query: list[tuple[str, str]],
    with_key: bool,
    ident: str,
    method: str,
) -> None:
    params = list(query)
    if with_key:
        params.append(("apiKey", service.keys.default))
    target = path.replace("{ID}", httpx.URL(ident).raw_path.decode() if ident else "1")
    response = http.request(method, target, params=params)
    assert response.status_code < 500, (method, target, params, response.text[:300])
    assert "Traceback" not in response.text
    if response.status_code != 200:
        assert response.headers["content-type"].startswith("application/json")
        assert isinstance(response.json()["error"], str)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(raw=st.binary(max_size=120))
def test_raw_query_bytes(http: httpx.Client, service: Service, raw: bytes) -> None:
    query = raw.replace(b"#", b"").replace(b" ", b"+")
    safe = bytes(b for b in query if 0x21 <= b < 0x7F) or b"x"
    url = httpx.URL(
        service.url("/events"), query=safe + b"&apiKey=" + service.keys.default.encode()
    )
    response = http.get(url)
    assert response.status_code < 500, response.text[:300]
