"""Where a webhook may send, and how: public addresses only, checked on the address connected to;
one total deadline per delivery; a bounded read of the answer.

**Addresses.** A URL's host is resolved and *every* address it resolves to must be public
(:func:`public`): not private, loopback, link-local, shared, reserved, multicast or site-local
(``fec0::/10``); an IPv6 address that carries an IPv4 one is judged by the IPv4 it carries
(mapped ``::ffff:a.b.c.d``, compatible ``::a.b.c.d``, translated ``::ffff:0:a.b.c.d``, 6to4
``2002::/16``, NAT64 ``64:ff9b::/96``, Teredo ``2001::/32``: its server and its client), and the
local-use NAT64 prefix ``64:ff9b:1::/48`` is refused whole (each network maps it its own way).
:func:`check_url` is asked at registration (the early check) and again by :func:`post` at every
delivery, which resolves the name once and connects to the very address it checked: no second
look-up that could answer differently (DNS rebinding). The socket is opened only through
:func:`_connect`, which checks the address it is about to connect to. ``WEBHOOK_ALLOW_PRIVATE_ADDRESSES``
(off by default; the test suite's receiver on 127.0.0.1, or a receiver on the LAN) lifts the check.

**Time and size.** ``WEBHOOK_TIMEOUT`` bounds the *whole* delivery (connect, TLS, send, the
answer), not each read: every socket operation waits at most the time left, and a watchdog
shuts the socket down when the deadline passes, whatever the receiver drips. At most
``WEBHOOK_MAX_ANSWER`` bytes of the answer are read (only its status matters). Redirects are not
followed (a redirect could point inside).
"""

from __future__ import annotations

import contextlib
import ipaddress
import re
import socket
import ssl
import threading
import time
from dataclasses import dataclass
from urllib.parse import quote, urlsplit

from django.conf import settings

from scoring.engine import N_, EngineError

__all__ = ["Answer", "DeliveryError", "Target", "UnsafeUrl", "check_url", "embedded_ipv4", "post", "public"]

IP = ipaddress.IPv4Address | ipaddress.IPv6Address

MAPPED = ipaddress.ip_network("::ffff:0:0/96")
TRANSLATED = ipaddress.ip_network("::ffff:0:0:0/96")
COMPATIBLE = ipaddress.ip_network("::/96")
NAT64 = ipaddress.ip_network("64:ff9b::/96")
NAT64_LOCAL = ipaddress.ip_network("64:ff9b:1::/48")
SIX_TO_FOUR = ipaddress.ip_network("2002::/16")
TEREDO = ipaddress.ip_network("2001::/32")
SITE_LOCAL = ipaddress.ip_network("fec0::/10")
#: What stays as it is in the request line (the rest of a path is percent-encoded, as a browser does).
PATH_SAFE = "/?&=%:@!$'()*+,;~"


class UnsafeUrl(EngineError):
    """The URL cannot be used: not http(s), no host, a host that does not resolve, or an address
    that is not public."""

    code = "unsafe_url"


class DeliveryError(EngineError):
    """The delivery did not get a whole answer: the deadline passed, or the answer was not HTTP."""

    code = "delivery_failed"


@dataclass(frozen=True, slots=True)
class Target:
    scheme: str
    host: str
    port: int
    path: str
    #: Every address the host resolved to, all checked.
    addresses: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Answer:
    status: int
    #: Bytes of the answer read (at most ``WEBHOOK_MAX_ANSWER``).
    read: int
    #: The answer went on past what was read (more than the cap, or past the deadline after its head).
    cut: bool
    #: The address connected to.
    address: str


def embedded_ipv4(ip: IP) -> tuple[ipaddress.IPv4Address, ...] | None:
    """The IPv4 address(es) an IPv6 address carries (Teredo: server and client), or None."""
    if isinstance(ip, ipaddress.IPv4Address):
        return None
    low = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    if ip in MAPPED or ip in TRANSLATED or ip in COMPATIBLE or ip in NAT64:
        return (low,)
    if ip in SIX_TO_FOUR:
        return (ip.sixtofour,)  # type: ignore[return-value]
    if ip in TEREDO:
        return ip.teredo  # type: ignore[return-value]
    return None


def public(address: str | IP) -> bool:
    """True if ``address`` is one a webhook may reach (see the module's docstring)."""
    ip = address if not isinstance(address, str) else ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.scope_id or ip in SITE_LOCAL or ip in NAT64_LOCAL:
            return False
        inner = embedded_ipv4(ip)
        if inner is not None:
            return all(public(v4) for v4 in inner)
    return ip.is_global and not ip.is_multicast


def _allowed(address: str) -> bool:
    return bool(settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES) or public(address)


def _refuse(address: str) -> UnsafeUrl:
    return UnsafeUrl(
        N_(
            "Địa chỉ nhận trỏ vào mạng nội bộ hoặc chính máy chủ ({address}): chỉ gửi được "
            "đến địa chỉ công khai trên Internet."
        ),
        address=address,
    )


def _resolve(host: str, port: int) -> tuple[str, ...]:
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError, OSError):
        return ()
    return tuple(dict.fromkeys(str(info[4][0]) for info in infos))


def _resolve_within(host: str, port: int, timeout: float) -> tuple[str, ...]:
    """The host's addresses, or () if it does not resolve within ``timeout`` seconds (a name server
    that never answers holds a thread of its own, not the caller: the system resolver cannot be
    interrupted)."""
    found: list[tuple[str, ...]] = []
    worker = threading.Thread(target=lambda: found.append(_resolve(host, port)), daemon=True)
    worker.start()
    worker.join(timeout)
    return found[0] if found else ()


def check_url(url: str, *, timeout: float | None = None) -> Target:
    """Parse and check ``url`` (resolving its host now, within ``timeout`` seconds, by default
    ``WEBHOOK_TIMEOUT``); raise :class:`UnsafeUrl` with the reason."""
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
    addresses = _resolve_within(
        parts.hostname, port, settings.WEBHOOK_TIMEOUT if timeout is None else timeout
    )
    if not addresses:
        raise UnsafeUrl(N_("Không tìm thấy máy {host} (tên miền không phân giải được)."), host=parts.hostname)
    inside = [a for a in addresses if not _allowed(a)]
    if inside:
        raise _refuse(inside[0])
    path = quote((parts.path or "/") + (f"?{parts.query}" if parts.query else ""), safe=PATH_SAFE)
    return Target(parts.scheme, parts.hostname, port, path, addresses)


# -- one delivery, within its deadline ----------------------------------------------------------------


class _Deadline:
    """The time left, and a watchdog that shuts the socket down when there is none."""

    def __init__(self, seconds: float) -> None:
        self.ends = time.monotonic() + seconds
        self.timer: threading.Timer | None = None
        self.fired = False

    def left(self) -> float:
        left = self.ends - time.monotonic()
        if left <= 0:
            self.fired = True
            raise TimeoutError
        return left

    def watch(self, sock: socket.socket) -> None:
        guard = sock.dup()  # shutting a duplicate down stops the one in use, TLS or not

        def stop() -> None:
            self.fired = True
            with contextlib.suppress(OSError):
                guard.shutdown(socket.SHUT_RDWR)

        self.timer = threading.Timer(max(0.0, self.ends - time.monotonic()), stop)
        self.timer.daemon = True
        self.timer.start()
        self._guard = guard

    def close(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self._guard.close()


def _connect(address: str, port: int, deadline: _Deadline) -> socket.socket:
    """The one way a delivery opens a socket: to an address checked here, just before connecting."""
    if not _allowed(address):
        raise _refuse(address)
    return socket.create_connection((address, port), timeout=deadline.left())


def _request(target: Target, body: bytes, headers: dict[str, str]) -> bytes:
    try:
        name = target.host.encode("idna").decode("ascii")
    except UnicodeError:
        name = target.host
    host = name if ":" not in name else f"[{name}]"
    default = 443 if target.scheme == "https" else 80
    lines = [
        f"POST {target.path} HTTP/1.1",
        f"Host: {host}" + ("" if target.port == default else f":{target.port}"),
        f"Content-Length: {len(body)}",
        "Connection: close",
        *(f"{k}: {v}" for k, v in headers.items()),
    ]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


STATUS = re.compile(rb"HTTP/1\.[01] (\d{3})")


def _complete(data: bytes, head_end: int) -> bool:
    """The whole answer is in (by its Content-Length, or the last chunk)."""
    head = data[:head_end].lower()
    if head[9:12] in (b"204", b"304"):
        return True  # no body, whatever the headers say
    length = re.search(rb"\r\ncontent-length:\s*(\d+)", head)
    if length is not None:
        return len(data) - head_end - 4 >= int(length.group(1))
    if b"\r\ntransfer-encoding:" in head:
        return data.endswith(b"0\r\n\r\n")
    return False  # to the end of the connection


def post(
    target: Target,
    body: bytes,
    headers: dict[str, str],
    *,
    timeout: float,
    cap: int,
    total: float | None = None,
) -> Answer:
    """POST ``body`` to ``target`` (checked by :func:`check_url`), all of it within ``timeout``
    seconds (what is left of a deadline of ``total`` seconds), reading at most ``cap`` bytes of the answer. The answer's status once its head is in;
    :class:`DeliveryError` if it is not in by the deadline; OSError for a connection that fails."""
    deadline = _Deadline(timeout)
    sock: socket.socket | None = None
    used, errors = "", []
    data, head_end = b"", -1
    try:
        for address in target.addresses:
            try:
                sock, used = _connect(address, target.port, deadline), address
                break
            except TimeoutError:
                raise
            except OSError as exc:
                errors.append(exc)
        if sock is None:
            raise errors[-1]
        deadline.watch(sock)
        if target.scheme == "https":
            sock.settimeout(deadline.left())
            sock = ssl.create_default_context().wrap_socket(sock, server_hostname=target.host)
        sock.settimeout(deadline.left())
        sock.sendall(_request(target, body, headers))
        while len(data) < cap:
            sock.settimeout(deadline.left())
            chunk = sock.recv(min(65536, cap - len(data)))
            if not chunk:
                break
            data += chunk
            if head_end < 0:
                head_end = data.find(b"\r\n\r\n")
            if head_end >= 0 and _complete(data, head_end):
                return _answer(data, head_end, used, cut=False)
        return _answer(data, head_end, used, cut=len(data) >= cap or deadline.fired, late=deadline.fired)
    except OSError as exc:  # TimeoutError too
        if head_end >= 0 and (deadline.fired or isinstance(exc, TimeoutError)):
            return _answer(data, head_end, used, cut=True)  # its head came in time: the status stands
        if deadline.fired or isinstance(exc, TimeoutError):
            raise _late(timeout if total is None else total) from None
        raise
    finally:
        deadline.close()
        if sock is not None:
            sock.close()


def _late(timeout: float) -> DeliveryError:
    return DeliveryError(N_("Nơi nhận không trả lời trọn trong {seconds} giây."), seconds=f"{timeout:g}")


def _answer(data: bytes, head_end: int, address: str, *, cut: bool, late: bool = False) -> Answer:
    status = STATUS.match(data)
    if head_end < 0 and late:
        raise TimeoutError
    if status is None or head_end < 0:
        raise DeliveryError(N_("Nơi nhận không trả lời theo HTTP."))
    return Answer(int(status.group(1)), len(data), cut, address)
