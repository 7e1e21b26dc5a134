"""Serving a festival's LAN: which host names the app answers, and the addresses phones should open.

``make run HOST=0.0.0.0`` binds every interface so the phones on the village's Wi-Fi can reach the
club laptop; Django answers 400 to a Host it does not know, so without ``DJANGO_ALLOWED_HOSTS`` the
phones got 400. When it is not set, the run script asks this module for the machine's own names
and addresses (never a wildcard: a Host header naming any other site is still refused) and prints
the URLs to open::

    python -m totom_site.lan hosts 0.0.0.0        # localhost,127.0.0.1,[::1],192.168.1.23,laptop,laptop.local
    python -m totom_site.lan urls 0.0.0.0 8000    # the addresses phones should open

No package needed: the addresses come from the kernel (each interface's IPv4 address, Linux), the
route the machine would use to reach the outside (no packet is sent), and the host name.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import socket
import struct
import sys

__all__ = ["addresses", "allowed_hosts", "https_port", "urls"]

LOCAL = ["localhost", "127.0.0.1", "[::1]"]
EVERY_INTERFACE = {"0.0.0.0", "::", ""}


def _interface_addresses() -> set[str]:
    """The IPv4 address of each network interface (Linux; elsewhere nothing)."""
    found: set[str] = set()
    try:
        import fcntl
    except ImportError:  # pragma: no cover (not Linux)
        return found
    siocgifaddr = 0x8915
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        for _index, name in socket.if_nameindex():
            with contextlib.suppress(OSError):
                packed = fcntl.ioctl(sock.fileno(), siocgifaddr, struct.pack("256s", name[:15].encode()))
                found.add(socket.inet_ntoa(packed[20:24]))
    return found


def _route_address() -> set[str]:
    """The address the machine would send from to reach the outside (connecting UDP sends nothing)."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.connect(("192.0.2.1", 9))  # TEST-NET-1: never answered
        return {sock.getsockname()[0]}
    return set()


def _name_addresses() -> set[str]:
    with contextlib.suppress(OSError):
        return {info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)}
    return set()


def addresses() -> list[str]:
    """This machine's IPv4 addresses a phone on the LAN could use (no loopback, no unspecified)."""
    out = []
    for text in _interface_addresses() | _route_address() | _name_addresses():
        with contextlib.suppress(ValueError):
            ip = ipaddress.ip_address(text)
            if not (ip.is_loopback or ip.is_unspecified or ip.is_multicast):
                out.append(text)
    return sorted(out, key=lambda a: ipaddress.ip_address(a))


def _names() -> list[str]:
    name = socket.gethostname().strip().lower()
    if not name or name == "localhost":
        return []
    return [name] if name.endswith(".local") else [name, f"{name}.local"]  # .local: phones' mDNS


def allowed_hosts(bind: str) -> list[str]:
    """The host names to allow when serving on ``bind``: every own address and name for all
    interfaces (0.0.0.0, ::), else the address or name bound and the local ones."""
    if bind in EVERY_INTERFACE:
        hosts = [*LOCAL, *addresses(), *_names()]
    else:
        hosts = [*LOCAL, f"[{bind}]" if ":" in bind else bind]
    return list(dict.fromkeys(hosts))


def https_port(bind: str, port: int) -> int | None:
    """The LAN's HTTPS port (``totom_site/tls.py``): served on every interface only (the
    festival's LAN), ``SOTOM_HTTPS_PORT`` or PORT + 443 (8443 for 8000); ``SOTOM_HTTPS_PORT=0``
    turns it off."""
    if bind not in EVERY_INTERFACE:
        return None
    chosen = int(os.environ.get("SOTOM_HTTPS_PORT") or port + 443)
    return chosen if 0 < chosen < 65536 else None


def urls(bind: str, port: int) -> list[str]:
    """The addresses to open: on this machine, then (all interfaces) from a phone on the LAN."""
    if bind not in EVERY_INTERFACE:
        return [f"http://{f'[{bind}]' if ':' in bind else bind}:{port}/"]
    return [
        f"http://127.0.0.1:{port}/",
        *(f"http://{a}:{port}/" for a in addresses()),
        *(f"http://{n}:{port}/" for n in _names() if n.endswith(".local")),
    ]


def main(argv: list[str]) -> int:
    if len(argv) >= 2 and argv[0] == "hosts":
        print(",".join(allowed_hosts(argv[1])))
        return 0
    if len(argv) >= 3 and argv[0] == "urls":
        found = urls(argv[1], int(argv[2]))
        print(f"Sổ Tôm: {found[0]}  (Ctrl-C để dừng / to stop)")
        if len(found) > 1:
            print("Điện thoại cùng mạng mở / phones on the same network open:")
            for url in found[1:]:
                print(f"  {url}")
            https = https_port(argv[1], int(argv[2]))
            if https is not None:
                print(
                    "HTTPS, mở lại được khi mất mạng / reopens offline (tin cậy chứng chỉ một lần / trust the CA once):"
                )
                for url in found[1:]:
                    print(
                        f"  {url}mang-noi-bo/  →  {url.replace('http://', 'https://').replace(f':{argv[2]}/', f':{https}/')}"
                    )
        return 0
    print("usage: python -m totom_site.lan hosts BIND | urls BIND PORT", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
