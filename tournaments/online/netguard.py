"""Where a webhook may send: public addresses only, checked at registration and at every delivery.

A URL's host is resolved and *every* address it resolves to must be a public one (not private,
loopback, link-local, shared, reserved or multicast; an IPv4 address mapped into IPv6 is judged as
IPv4), unless ``WEBHOOK_ALLOW_PRIVATE_ADDRESSES`` is set (a receiver on the LAN; the tests). The
delivery then connects to an address that was just checked (:func:`post`), never resolving the
name a second time: a DNS answer that changes between the check and the connection (DNS
rebinding) cannot send it inside. Redirects are not followed (a redirect could point inside).
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

from scoring.engine import N_, EngineError

__all__ = ["Target", "UnsafeUrl", "check_url", "post"]

#: Read at most this much of a receiver's answer (only its status matters).
MAX_ANSWER = 4096


class UnsafeUrl(EngineError):
    """The URL cannot be used: not http(s), no host, a host that does not resolve, or an address
    that is not public."""


@dataclass(frozen=True, slots=True)
class Target:
    scheme: str
    host: str
    port: int
    path: str
    #: Every address the host resolved to, all checked.
    addresses: tuple[str, ...]


def _public(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


def _resolve(host: str, port: int) -> tuple[str, ...]:
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError, OSError):
        return ()
    return tuple(dict.fromkeys(str(info[4][0]) for info in infos))


def check_url(url: str) -> Target:
    """Parse and check ``url`` (resolving its host now); raise :class:`UnsafeUrl` with the reason."""
    try:
        parts = urlsplit((url or "").strip())
        port = parts.port
    except ValueError:
        raise UnsafeUrl(N_("Địa chỉ nhận không hợp lệ.")) from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UnsafeUrl(N_("Địa chỉ nhận phải bắt đầu bằng http:// hoặc https:// và có tên máy."))
    if parts.username or parts.password:
        raise UnsafeUrl(N_("Địa chỉ nhận không được chứa tên đăng nhập hay mật khẩu."))
    port = port or (443 if parts.scheme == "https" else 80)
    addresses = _resolve(parts.hostname, port)
    if not addresses:
        raise UnsafeUrl(N_("Không tìm thấy máy {host} (tên miền không phân giải được)."), host=parts.hostname)
    if not settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES:
        inside = [a for a in addresses if not _public(a)]
        if inside:
            raise UnsafeUrl(
                N_(
                    "Địa chỉ nhận trỏ vào mạng nội bộ hoặc chính máy chủ ({address}): chỉ gửi được "
                    "đến địa chỉ công khai trên Internet."
                ),
                address=inside[0],
            )
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(parts.scheme, parts.hostname, port, path, addresses)


class _Pinned(http.client.HTTPConnection):
    """HTTP to an address already checked (the Host header still names the host)."""

    def __init__(self, host: str, port: int, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self._address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self._address, self.port), self.timeout)


class _PinnedTLS(http.client.HTTPSConnection):
    """HTTPS to an address already checked; the certificate is verified for the host's name."""

    def __init__(self, host: str, port: int, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout, context=ssl.create_default_context())
        self._address = address

    def connect(self) -> None:
        sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)  # type: ignore[attr-defined]


def post(target: Target, body: bytes, headers: dict[str, str], *, timeout: float) -> int:
    """POST ``body`` to the first address of ``target`` (checked by :func:`check_url`); the answer's
    HTTP status. Network errors raise OSError / http.client.HTTPException."""
    kind = _PinnedTLS if target.scheme == "https" else _Pinned
    connection = kind(target.host, target.port, target.addresses[0], timeout)
    try:
        connection.request("POST", target.path, body=body, headers=headers)
        answer = connection.getresponse()
        answer.read(MAX_ANSWER)
        return int(answer.status)
    finally:
        connection.close()
