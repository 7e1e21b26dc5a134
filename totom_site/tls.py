"""HTTPS on the festival's LAN: a local certificate authority the phones trust once, and the TLS
listener in front of the app.

Why: ``make run HOST=0.0.0.0`` serves phones at ``http://192.168.x.y:8000/``, which is not a
secure context, so the browser runs no service worker there: a scorekeeper page reloaded or
reopened while the Wi-Fi is down is gone (the page's outbox still keeps its ván). On
``https://192.168.x.y:8443/`` with a certificate the phone trusts, the service worker
(``scoring/offline``) keeps the pages and a reload with no network opens them again.

* **The CA** (``ca.pem``, ``ca.key`` in ``SOTOM_TLS_DIR``, by default ``var/tls``) is made once and
  kept: a phone that trusted it trusts every later certificate of this laptop. The organiser's page
  ``/mang-noi-bo/`` offers it for download and as a QR code, with the steps for Android and iOS.
* **The server certificate** (``server.pem``: leaf then CA; ``server.key``) names every host the
  app answers (``DJANGO_ALLOWED_HOSTS``, which ``.ci/lan.sh`` fills with this machine's addresses
  and names); it is made again, signed by the same CA, when that list changes (a new DHCP address).
* **The listener** (``python -m totom_site.tls proxy BIND HTTPS_PORT PORT``) ends TLS and hands
  each request to the app server on ``127.0.0.1:PORT`` (the one granian process: the displays'
  events stay in one process), adding ``X-Sotom-Tls: <token>``, a secret made for this run that the
  app's ``SECURE_PROXY_SSL_HEADER`` compares (a plain-HTTP client cannot pass as HTTPS), and
  ``Connection: close`` (one request a connection: the listener never parses a response). It is
  started by ``totom_site/serve.py`` and stops when the server it was started for is gone.

Bounded: a request's head is read within 30 s and up to 64 KiB; at most ``MAX_CONNECTIONS`` at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import hashlib
import ipaddress
import os
import socket
import ssl
import sys
from pathlib import Path

__all__ = [
    "CA_FILE",
    "TOKEN_HEADER",
    "ca_fingerprint",
    "ensure_certificates",
    "names_from_hosts",
    "spki_hash",
]

ROOT = Path(__file__).resolve().parent.parent
CA_FILE, CA_KEY = "ca.pem", "ca.key"
SERVER_FILE, SERVER_KEY, SERVER_NAMES = "server.pem", "server.key", "server.names"
#: The header the listener adds (and strips from what a client sent).
TOKEN_HEADER = "X-Sotom-Tls"
HEAD_TIMEOUT = 30.0
HEAD_LIMIT = 64 * 1024
MAX_CONNECTIONS = 256
#: A leaf certificate lives 397 days (the longest browsers accept); the CA ten years.
LEAF_DAYS, CA_DAYS = 397, 3650
_HOP_BY_HOP = {b"connection", b"keep-alive", b"proxy-connection", b"upgrade", b"te", b"trailer"}


def tls_dir() -> Path:
    return Path(os.environ.get("SOTOM_TLS_DIR") or ROOT / "var" / "tls")


# ---- certificates ---------------------------------------------------------------------------


def names_from_hosts(hosts: list[str]) -> list[str]:
    """The certificate's names from an ALLOWED_HOSTS list: addresses and host names, without the
    brackets of IPv6 and without patterns (``*``, ``.example.org``)."""
    out = []
    for host in hosts:
        name = host.strip().lower()
        if name.startswith("[") and name.endswith("]"):
            name = name[1:-1]
        if not name or name == "*" or name.startswith("."):
            continue
        out.append(name)
    return sorted(set(out))


def _write_private(path: Path, data: bytes) -> None:
    path.write_bytes(data)
    path.chmod(0o600)


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def _make_ca(folder: Path) -> None:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name(
        [
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Sổ Tôm"),
            x509.NameAttribute(NameOID.COMMON_NAME, f"Sổ Tôm CA ({socket.gethostname()[:40]})"),
        ]
    )
    now = _now()
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(days=1))
        .not_valid_after(now + dt.timedelta(days=CA_DAYS))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                key_cert_sign=True,
                crl_sign=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256())
    )
    _write_private(
        folder / CA_KEY,
        key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        ),
    )
    (folder / CA_FILE).write_bytes(cert.public_bytes(serialization.Encoding.PEM))


def _make_server(folder: Path, names: list[str]) -> None:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    ca_cert = x509.load_pem_x509_certificate((folder / CA_FILE).read_bytes())
    ca_key = serialization.load_pem_private_key((folder / CA_KEY).read_bytes(), password=None)
    assert isinstance(ca_key, ec.EllipticCurvePrivateKey)
    key = ec.generate_private_key(ec.SECP256R1())
    alt: list[x509.GeneralName] = []
    for name in names:
        try:
            alt.append(x509.IPAddress(ipaddress.ip_address(name)))
        except ValueError:
            alt.append(x509.DNSName(name))
    now = _now()
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, names[0] if names else "sotom")]))
        .issuer_name(ca_cert.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(days=1))
        .not_valid_after(now + dt.timedelta(days=LEAF_DAYS))
        .add_extension(x509.SubjectAlternativeName(alt), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False
        )
        .sign(ca_key, hashes.SHA256())
    )
    _write_private(
        folder / SERVER_KEY,
        key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        ),
    )
    (folder / SERVER_FILE).write_bytes(
        cert.public_bytes(serialization.Encoding.PEM) + (folder / CA_FILE).read_bytes()
    )
    (folder / SERVER_NAMES).write_text("\n".join(names) + "\n")


def _server_current(folder: Path, names: list[str]) -> bool:
    from cryptography import x509

    try:
        kept = (folder / SERVER_NAMES).read_text().split()
        cert = x509.load_pem_x509_certificate((folder / SERVER_FILE).read_bytes())
    except (OSError, ValueError):
        return False
    return kept == names and cert.not_valid_after_utc - _now() > dt.timedelta(days=30)


def ensure_certificates(names: list[str], folder: Path | None = None) -> Path:
    """The CA (made once, kept) and a server certificate for ``names`` (made again when they
    change or it nears its end) in ``folder``; returns the folder."""
    folder = folder or tls_dir()
    folder.mkdir(parents=True, exist_ok=True)
    if not (folder / CA_FILE).exists() or not (folder / CA_KEY).exists():
        _make_ca(folder)
    names = sorted(set(names))
    if not _server_current(folder, names):
        _make_server(folder, names)
    return folder


def _der(pem: bytes) -> bytes:
    return ssl.PEM_cert_to_DER_cert(pem.decode("ascii"))


def ca_fingerprint(pem: bytes) -> str:
    """SHA-256 of the CA certificate, as phones show it (AB:CD:…)."""
    digest = hashlib.sha256(_der(pem)).hexdigest().upper()
    return ":".join(digest[i : i + 2] for i in range(0, len(digest), 2))


def spki_hash(pem: bytes) -> str:
    """base64 SHA-256 of the certificate's public key (Chromium's --ignore-certificate-errors-spki-list)."""
    import base64

    from cryptography import x509
    from cryptography.hazmat.primitives import serialization

    cert = x509.load_pem_x509_certificate(pem)
    spki = cert.public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return base64.b64encode(hashlib.sha256(spki).digest()).decode()


# ---- the listener ---------------------------------------------------------------------------


def _rewrite_head(head: bytes, token: bytes, peer: str) -> bytes | None:
    """The request's head as the app server gets it; None when it is not an HTTP/1 request."""
    lines = head.split(b"\r\n")
    request_line = lines[0]
    if request_line.count(b" ") != 2 or not request_line.endswith((b"HTTP/1.1", b"HTTP/1.0")):
        return None
    kept = []
    for line in lines[1:]:
        if not line:
            continue
        name, colon, _value = line.partition(b":")
        if not colon:
            return None
        lowered = name.strip().lower()
        if lowered in _HOP_BY_HOP or lowered in {TOKEN_HEADER.lower().encode(), b"x-forwarded-for"}:
            continue
        kept.append(line)
    kept += [
        TOKEN_HEADER.encode() + b": " + token,
        b"X-Forwarded-For: " + peer.encode(),
        b"Connection: close",
    ]
    return request_line + b"\r\n" + b"\r\n".join(kept) + b"\r\n\r\n"


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    with contextlib.suppress(ConnectionError, OSError, ssl.SSLError, asyncio.IncompleteReadError):
        while chunk := await reader.read(65536):
            writer.write(chunk)
            await writer.drain()
    with contextlib.suppress(ConnectionError, OSError, RuntimeError, ssl.SSLError):
        if writer.can_write_eof():
            writer.write_eof()


async def _close(writer: asyncio.StreamWriter) -> None:
    with contextlib.suppress(ConnectionError, OSError, ssl.SSLError, asyncio.TimeoutError):
        writer.close()
        await asyncio.wait_for(writer.wait_closed(), 5)


class Listener:
    """Ends TLS on ``bind:port`` and passes each request to ``127.0.0.1:upstream``."""

    def __init__(self, upstream: int, token: str, context: ssl.SSLContext) -> None:
        self.upstream, self.token, self.context = upstream, token.encode(), context
        self.slots = asyncio.Semaphore(MAX_CONNECTIONS)

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.slots.locked():
            await _close(writer)
            return
        async with self.slots:
            upstream_writer = None
            try:
                head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), HEAD_TIMEOUT)
                peer = writer.get_extra_info("peername") or ("", 0)
                rewritten = _rewrite_head(head, self.token, str(peer[0]))
                if rewritten is None:
                    writer.write(
                        b"HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
                    )
                    return
                upstream_reader, upstream_writer = await asyncio.open_connection("127.0.0.1", self.upstream)
                upstream_writer.write(rewritten)
                # The request's body goes on while the answer comes back; the answer's end (the app
                # server closes: Connection: close) ends both.
                sending = asyncio.ensure_future(_pipe(reader, upstream_writer))
                try:
                    await _pipe(upstream_reader, writer)
                finally:
                    sending.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await sending
            except (
                TimeoutError,
                asyncio.IncompleteReadError,
                asyncio.LimitOverrunError,
                ConnectionError,
                OSError,
                ssl.SSLError,
            ):
                pass
            finally:
                if upstream_writer is not None:
                    await _close(upstream_writer)
                await _close(writer)


def server_context(folder: Path) -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(folder / SERVER_FILE, folder / SERVER_KEY)
    context.set_alpn_protocols(["http/1.1"])
    return context


async def _serve(bind: str, port: int, upstream: int, token: str, parent: int) -> None:
    listener = Listener(upstream, token, server_context(tls_dir()))
    server = await asyncio.start_server(
        listener.handle, host=bind or None, port=port, ssl=listener.context, limit=HEAD_LIMIT, backlog=512
    )
    async with server:
        while os.getppid() == parent:  # the app server it was started for (serve.py: exec)
            await asyncio.sleep(1)


def main(argv: list[str]) -> int:
    if len(argv) == 4 and argv[0] == "proxy":
        token = os.environ.get("SOTOM_TLS_TOKEN", "")
        if len(token) < 16:
            print("SOTOM_TLS_TOKEN is not set", file=sys.stderr)
            return 2
        try:
            asyncio.run(_serve(argv[1], int(argv[2]), int(argv[3]), token, os.getppid()))
        except KeyboardInterrupt:
            pass
        except OSError as exc:  # the port is taken: the app still answers on plain HTTP
            print(
                f"HTTPS: không mở được cổng {argv[2]} / cannot listen on port {argv[2]}: {exc}",
                file=sys.stderr,
            )
            return 1
        return 0
    if len(argv) == 2 and argv[0] == "spki":
        print(spki_hash(Path(argv[1]).read_bytes()))
        return 0
    print("usage: python -m totom_site.tls proxy BIND HTTPS_PORT PORT | spki CERT.pem", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
