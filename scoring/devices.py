"""A client, as the lock-out counts it: the request's address and its device cookie.

Every browser that opens a sign-in page or a table's PIN page gets a long-lived cookie
(:data:`COOKIE`, signed so it cannot be forged, HttpOnly) holding a random device id and the
accounts (and tables) this device signed in to before, as short keyed digests. The lock-out
(:mod:`scoring.services.throttle`) counts wrong tries per *client and secret*: the client is the
address plus the device id the request *brought* (a request without the cookie is the address
alone, so dropping the cookie does not make a fresh client: only a forged new cookie would, and
those are refused). A device that signed in to an account before is *known* to it: the ceiling
per account (:func:`scoring.services.throttle.pace`) never slows it.

:class:`DeviceCookieMiddleware` writes the cookie on the answer when a view asked for a device id
or recorded a sign-in.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core import signing
from django.http import HttpRequest, HttpResponse

__all__ = [
    "COOKIE",
    "DeviceCookieMiddleware",
    "client_address",
    "client_of",
    "device_id",
    "is_known",
    "remember_sign_in",
]

COOKIE = "sotom_device"
_SALT = "scoring.devices"
#: A cookie longer than this is not read (a device cookie is about 150 characters).
_COOKIE_MAX = 1024
#: Sign-ins a device remembers (the oldest forgotten first).
_KNOWN_MAX = 8
_MAX_AGE = 400 * 24 * 3600


def _read(request: HttpRequest) -> dict[str, Any]:
    cached = getattr(request, "_sotom_device", None)
    if cached is not None:
        return cached
    raw = request.COOKIES.get(COOKIE, "")
    state: dict[str, Any] = {"id": "", "known": [], "brought": ""}
    if raw and len(raw) <= _COOKIE_MAX:
        try:
            value = signing.loads(raw, salt=_SALT)
        except signing.BadSignature:
            value = None
        if isinstance(value, dict) and isinstance(value.get("d"), str) and isinstance(value.get("k"), list):
            state = {"id": value["d"][:64], "known": [str(k)[:32] for k in value["k"][:_KNOWN_MAX]]}
            state["brought"] = state["id"]
    request._sotom_device = state  # type: ignore[attr-defined]
    return state


def _tag(name: str) -> str:
    """A short keyed digest of what the device signed in to (never the name itself)."""
    return hmac.new(
        settings.SECRET_KEY.encode(), name.encode("utf-8", "surrogatepass"), hashlib.sha256
    ).hexdigest()[:24]


def device_id(request: HttpRequest) -> str:
    """The device's id, given one now (written on the answer) if it brought none."""
    state = _read(request)
    if not state["id"]:
        state["id"] = secrets.token_urlsafe(16)
        state["dirty"] = True
    return state["id"]


#: The header ``make run``'s own HTTPS listener (totom_site/tls.py) marks what it passes on with.
_LAN_TLS_HEADER = "HTTP_X_SOTOM_TLS"


def client_address(request: HttpRequest) -> str:
    """The address a request came from. Behind the LAN's HTTPS listener every phone reaches the app
    from 127.0.0.1; the listener drops any ``X-Forwarded-For`` a client sends and writes the peer's,
    so that one is read, but only on a request that carries this run's secret (a plain-HTTP client
    cannot forge it). Any other proxy's header is not trusted."""
    header = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if header and header[0] == _LAN_TLS_HEADER and request.META.get(_LAN_TLS_HEADER) == header[1]:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")[:64].strip()
        if forwarded:
            return forwarded
    return str(request.META.get("REMOTE_ADDR", ""))


def client_of(request: HttpRequest) -> str:
    """The client a try is counted for: the address and the device id the request brought ("" for
    none). Also gives a device without a cookie its id for the next request."""
    device_id(request)
    return f"{client_address(request)}|{_read(request)['brought']}"


def is_known(request: HttpRequest, name: str) -> bool:
    """Whether this device signed in to ``name`` (an account name, a table) before."""
    return _tag(name) in _read(request)["known"]


def remember_sign_in(request: HttpRequest, name: str) -> None:
    """This device signed in to ``name``: from now on it is known to it."""
    device_id(request)
    state = _read(request)
    tag = _tag(name)
    state["known"] = ([tag] + [k for k in state["known"] if k != tag])[:_KNOWN_MAX]
    state["dirty"] = True


class DeviceCookieMiddleware:
    """Writes the device cookie on the answer when the request gave the device an id or a sign-in."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        state = getattr(request, "_sotom_device", None)
        if state is not None and state.get("dirty"):
            response.set_cookie(
                COOKIE,
                signing.dumps({"d": state["id"], "k": state["known"]}, salt=_SALT),
                max_age=_MAX_AGE,
                httponly=True,
                samesite="Lax",
                secure=settings.SESSION_COOKIE_SECURE,
            )
        return response
