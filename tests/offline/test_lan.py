"""The festival's LAN, piece by piece (the journey is tests/journeys/test_festival_lan.py):

* headers the origin cannot honour are not sent: ``Cross-Origin-Opener-Policy`` only on HTTPS and
  on this machine's loopback names, decided per request;
* the local CA is made once and kept; the server certificate names the hosts served, is made again
  (by the same CA) when they change, and verifies for them against the CA;
* the TLS listener hands the app server each request with this run's token (a client's own
  ``X-Sotom-Tls`` never gets through), and refuses what is not an HTTP/1 request;
* ``/mang-noi-bo/`` offers the CA (download, fingerprint, QR) only when HTTPS is served.
"""

from __future__ import annotations

import hashlib
import http.server
import json
import os
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cryptography import x509

from tests.subprocesses import free_port
from totom_site import tls

ROOT = Path(__file__).resolve().parents[2]


# ---- headers ---------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("host", "secure", "sent"),
    [
        ("festival.lan:8000", False, False),
        ("192.168.1.23:8000", False, False),
        ("festival.lan:8443", True, True),
        ("127.0.0.1:8000", False, True),
        ("localhost:8000", False, True),
        ("[::1]:8000", False, True),
    ],
)
def test_cross_origin_opener_policy_only_where_the_origin_is_secure(
    client: Any, settings: Any, host: str, secure: bool, sent: bool
) -> None:
    settings.ALLOWED_HOSTS = ["festival.lan", "192.168.1.23", "127.0.0.1", "localhost", "[::1]"]
    response = client.get("/mang-noi-bo/", HTTP_HOST=host, secure=secure)
    assert response.status_code == 200
    assert ("Cross-Origin-Opener-Policy" in response) is sent
    assert response["Content-Security-Policy"]  # the rest of the security headers stay


# ---- certificates ----------------------------------------------------------------------------


def test_the_ca_is_made_once_and_the_server_certificate_follows_the_hosts(tmp_path: Path) -> None:
    tls.ensure_certificates(["festival.lan", "192.168.1.23"], tmp_path)
    ca = (tmp_path / "ca.pem").read_bytes()
    first = (tmp_path / "server.pem").read_bytes()

    tls.ensure_certificates(["192.168.1.23", "festival.lan"], tmp_path)  # same names: kept as is
    assert (tmp_path / "server.pem").read_bytes() == first

    tls.ensure_certificates(["festival.lan", "192.168.1.42"], tmp_path)  # a new DHCP address
    assert (tmp_path / "ca.pem").read_bytes() == ca  # phones that trusted it still do
    leaf = x509.load_pem_x509_certificate((tmp_path / "server.pem").read_bytes())
    names = leaf.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert names.get_values_for_type(x509.DNSName) == ["festival.lan"]
    assert [str(a) for a in names.get_values_for_type(x509.IPAddress)] == ["192.168.1.42"]
    assert (tmp_path / "ca.key").stat().st_mode & 0o077 == 0
    assert (tmp_path / "server.key").stat().st_mode & 0o077 == 0
    assert tls.names_from_hosts(["[::1]", "*", ".example.org", "Festival.LAN", "localhost"]) == [
        "::1",
        "festival.lan",
        "localhost",
    ]


# ---- the listener ----------------------------------------------------------------------------


class _Echo(http.server.BaseHTTPRequestHandler):
    """The app server's stand-in: answers with the headers and body it received."""

    def _answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = json.dumps(
            {
                "headers": [[k.lower(), v] for k, v in self.headers.items()],
                "body": self.rfile.read(length).decode(),
                "path": self.path,
            }
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = _answer

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def listener(tmp_path: Path) -> Iterator[tuple[int, str, bytes]]:
    """The TLS listener (its own process, stopped by its PID) in front of an echoing server."""
    upstream = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Echo)
    threading.Thread(target=upstream.serve_forever, daemon=True).start()
    tls.ensure_certificates(["festival.lan", "127.0.0.1"], tmp_path)
    port, token = free_port(), "t0ken-of-this-run-" + os.urandom(6).hex()
    proc = subprocess.Popen(
        [sys.executable, "-m", "totom_site.tls", "proxy", "127.0.0.1", str(port), str(upstream.server_port)],
        cwd=ROOT,
        env={**os.environ, "SOTOM_TLS_DIR": str(tmp_path), "SOTOM_TLS_TOKEN": token},
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline and proc.poll() is None, "the listener did not start"
                time.sleep(0.1)
        yield port, token, (tmp_path / "ca.pem").read_bytes()
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        upstream.shutdown()
        upstream.server_close()


def _exchange(port: int, ca: bytes, request: bytes) -> bytes:
    context = ssl.create_default_context(cadata=ca.decode("ascii"))
    with (
        socket.create_connection(("127.0.0.1", port), timeout=10) as raw,
        context.wrap_socket(raw, server_hostname="festival.lan") as conn,
    ):
        conn.sendall(request)
        out = b""
        while chunk := conn.recv(65536):
            out += chunk
    return out


def test_the_listener_passes_each_request_on_with_this_runs_token_only(listener: Any) -> None:
    port, token, ca = listener
    answer = _exchange(
        port,
        ca,
        b"POST /api/v1/x HTTP/1.1\r\nHost: festival.lan\r\nX-Sotom-Tls: guessed\r\n"
        b"X-Forwarded-For: 10.9.9.9\r\nConnection: keep-alive\r\nContent-Length: 5\r\n\r\nhello",
    )
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.0 200") or head.startswith(b"HTTP/1.1 200")
    seen = json.loads(body)
    headers = seen["headers"]
    assert [v for k, v in headers if k == "x-sotom-tls"] == [token]  # never the client's own
    assert [v for k, v in headers if k == "x-forwarded-for"] == ["127.0.0.1"]
    assert [v for k, v in headers if k == "connection"] == ["close"]
    assert ["host", "festival.lan"] in headers
    assert seen["body"] == "hello" and seen["path"] == "/api/v1/x"


def test_the_listener_refuses_what_is_not_an_http_request(listener: Any) -> None:
    port, _token, ca = listener
    assert _exchange(port, ca, b"HELLO THERE\r\n\r\n").startswith(b"HTTP/1.1 400 Bad Request")


@pytest.mark.django_db
def test_a_plain_http_request_cannot_pass_as_https(client: Any, settings: Any) -> None:
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_SOTOM_TLS", "the-token-of-this-run")
    settings.ALLOWED_HOSTS = ["festival.lan"]
    guessed = client.get("/mang-noi-bo/", HTTP_HOST="festival.lan", HTTP_X_SOTOM_TLS="https")
    assert "Cross-Origin-Opener-Policy" not in guessed
    real = client.get("/mang-noi-bo/", HTTP_HOST="festival.lan", HTTP_X_SOTOM_TLS="the-token-of-this-run")
    assert real["Cross-Origin-Opener-Policy"] == "same-origin"


# ---- the page --------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_lan_page_offers_the_ca_only_when_https_is_served(
    client: Any, settings: Any, tmp_path: Path
) -> None:
    settings.ALLOWED_HOSTS = ["festival.lan"]
    settings.SOTOM_HTTPS_PORT = 0
    off = client.get("/mang-noi-bo/", HTTP_HOST="festival.lan:8000")
    assert 'data-testid="lan-off"' in off.content.decode()
    assert client.get("/mang-noi-bo/so-tom-ca.crt", HTTP_HOST="festival.lan:8000").status_code == 404

    tls.ensure_certificates(["festival.lan"], tmp_path)
    settings.SOTOM_HTTPS_PORT, settings.SOTOM_TLS_DIR = 8443, tmp_path
    page = client.get("/mang-noi-bo/", HTTP_HOST="festival.lan:8000").content.decode()
    assert 'data-testid="lan-plain"' in page  # plain HTTP: says what does not work here
    assert "https://festival.lan:8443/so-diem/" in page
    assert page.count("<svg") >= 2  # the two QR codes
    certificate = client.get("/mang-noi-bo/so-tom-ca.crt", HTTP_HOST="festival.lan:8000")
    assert certificate["Content-Type"] == "application/x-x509-ca-cert"
    der = certificate.content
    assert der == ssl.PEM_cert_to_DER_cert((tmp_path / "ca.pem").read_text())
    digest = hashlib.sha256(der).hexdigest().upper()
    assert ":".join(digest[i : i + 2] for i in range(0, 64, 2)) in page
    english = client.get("/en/mang-noi-bo/", HTTP_HOST="festival.lan:8000").content.decode()
    assert "Phones on the local network" in english and "Certificate Trust Settings" in english
