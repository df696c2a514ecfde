"""One verified TLS context for every https client; none to build for plain http."""

from __future__ import annotations

import ssl

from oddstui.api.rest_session import tls_for


def test_https_clients_share_one_context_that_verifies_against_the_ca_bundle() -> None:
    context = tls_for("https://api.example.com/v3")
    assert context is tls_for("https://other.example.com/v3")
    assert context.verify_mode == ssl.CERT_REQUIRED and context.check_hostname
    assert context.cert_store_stats()["x509_ca"] > 50


def test_a_plain_http_client_gets_a_context_that_trusts_nothing() -> None:
    context = tls_for("http://127.0.0.1:8765/v3")
    assert context.verify_mode == ssl.CERT_REQUIRED and context.check_hostname
    assert context.cert_store_stats()["x509_ca"] == 0
