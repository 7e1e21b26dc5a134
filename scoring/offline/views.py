"""The installable app: service worker (served at the site root so its scope covers every
scorekeeper page), web app manifest, the sitting's offline pack, the offline fallback page."""

from __future__ import annotations

import hashlib
import json
import ssl
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.http.request import split_domain_port
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from scoring.access import Refusal, sitting_for
from scoring.engine import N_
from scoring.middleware import trustworthy
from scoring.offline.pack import offline_pack
from scoring.permissions import VIEW
from scoring.refusals import Missing
from scoring.reports.qr import qr_svg
from scoring.respond import respond

#: Static files the service worker caches at install: the app shell of the scorekeeper pages.
SHELL = (
    "django_htmx/htmx-2.min.js",
    "css/sotom.css",
    "css/sitting.css",
    "offline/offline.css",
    "offline/outbox.js",
    "offline/indicator.js",
    "offline/preview.js",
    "offline/offline.js",
    "scoring/chips.js",
    "scoring/card_picker.js",
    "scoring/phom_fill.js",
    "i18n/fallback.js",
    "offline/icons/so-tom-192.png",
    "offline/icons/so-tom-512.png",
)
#: The service worker's own code (the view prepends its configuration).
WORKER = "offline/sw.js"


def _read(name: str) -> bytes:
    found = finders.find(name)
    if not found:
        raise Http404(f"Thiếu tệp tĩnh {name}.")
    return Path(str(found)).read_bytes()


@lru_cache(maxsize=4)
def _shell_version(mtimes: tuple[float, ...]) -> str:
    """A digest of the worker and every shell file: a new digest makes browsers install anew."""
    digest = hashlib.sha256()
    for name in (WORKER, *SHELL):
        digest.update(name.encode())
        digest.update(_read(name))
    return digest.hexdigest()[:12]


def _mtimes() -> tuple[float, ...]:
    out = []
    for name in (WORKER, *SHELL):
        found = finders.find(name)
        out.append(Path(str(found)).stat().st_mtime if found else 0.0)
    return tuple(out)


def _catalogs() -> list[str]:
    out = []
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            out.append(reverse("javascript-catalog"))
    return out


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """``/sw.js``: the worker, with the shell's URLs (as ``static()`` names them) and a version."""
    config = {
        "version": _shell_version(_mtimes()),
        "shell": [static(name) for name in SHELL],
        "offline": reverse("scoring:offline_page"),
        "manifest": reverse("scoring:manifest"),
        # The scripts' text in each language (Django's JavaScript catalog, one URL per language).
        "catalogs": _catalogs(),
    }
    body = f"const SOTOM = {json.dumps(config)};\n".encode() + _read(WORKER)
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    """``/manifest.webmanifest``: installable as "Sổ Tôm", opening the sổ điểm."""
    icons = [
        {
            "src": static(f"offline/icons/so-tom-{n}.png"),
            "sizes": f"{n}x{n}",
            "type": "image/png",
            "purpose": "any",
        }
        for n in (192, 512)
    ] + [
        {
            "src": static(f"offline/icons/so-tom-maskable-{n}.png"),
            "sizes": f"{n}x{n}",
            "type": "image/png",
            "purpose": "maskable",
        }
        for n in (192, 512)
    ]
    data = {
        "name": "Sổ Tôm — sổ điểm Tổ Tôm",
        "short_name": "Sổ Tôm",
        "description": "Ghi điểm Tổ Tôm, Chắn, Tài Bàn ngay ở chiếu bài, cả khi mất mạng.",
        "lang": "vi",
        "dir": "ltr",
        "start_url": reverse("scoring:sitting_list"),
        "scope": "/",
        "id": "/",
        "display": "standalone",
        "orientation": "portrait",
        "background_color": "#fbf6ee",
        "theme_color": "#7a1414",
        "icons": icons,
    }
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response


@require_GET
def pack(request: HttpRequest, pk: int) -> JsonResponse:
    """The sitting's offline pack (rules and history), refreshed by the page whenever it is online;
    as private as the sitting (401 / 403 JSON for whoever may not see it)."""
    try:
        sitting = sitting_for(request, pk, VIEW)
    except Http404:
        return respond(Missing(N_("Không có canh bài số {pk}."), pk=pk), request)
    except Refusal as refusal:  # 401 / 403 JSON
        return respond(refusal, request)
    response = JsonResponse(offline_pack(sitting), json_dumps_params={"ensure_ascii": False})
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def offline_page(request: HttpRequest) -> HttpResponse:
    """What the service worker shows for a page it has not kept: the sittings it has."""
    return render(request, "offline/offline.html", {"nav": "sitting"})


# ---- the festival's LAN: HTTPS with the laptop's own CA (totom_site/tls.py) ----------------------

#: The CA certificate as served (DER, the form Android and iOS both install from a download).
CA_NAME = "so-tom-ca.crt"


def _ca_pem() -> bytes | None:
    """The local CA's certificate when this server serves the LAN's HTTPS, else None."""
    if not settings.SOTOM_HTTPS_PORT:
        return None
    try:
        return (Path(settings.SOTOM_TLS_DIR) / "ca.pem").read_bytes()
    except OSError:
        return None


def _fingerprint(pem: bytes) -> str:
    digest = hashlib.sha256(ssl.PEM_cert_to_DER_cert(pem.decode("ascii"))).hexdigest().upper()
    return ":".join(digest[i : i + 2] for i in range(0, len(digest), 2))


@require_GET
def lan_page(request: HttpRequest) -> HttpResponse:
    """``/mang-noi-bo/``: what works for phones on the festival's Wi-Fi, and, when ``make run``
    serves the LAN's HTTPS, the laptop's CA certificate (download and QR) with the steps to trust
    it on Android and iOS, and the HTTPS address to open afterwards."""
    pem = _ca_pem()
    host, _port = split_domain_port(request.get_host())
    context: dict[str, object] = {"nav": "", "secure": trustworthy(request), "https": request.is_secure()}
    if pem is not None:
        plain = request.build_absolute_uri(reverse("scoring:lan_certificate"))
        secure_url = f"https://{host}:{settings.SOTOM_HTTPS_PORT}{reverse('scoring:sitting_list')}"
        context |= {
            "ca_url": reverse("scoring:lan_certificate"),
            "ca_qr": qr_svg(plain, scale=4, title=plain),
            "https_url": secure_url,
            "https_qr": qr_svg(secure_url, scale=4, title=secure_url),
            "fingerprint": _fingerprint(pem),
        }
    return render(request, "offline/lan.html", context)


@require_GET
def lan_certificate(request: HttpRequest) -> HttpResponse:
    """The CA certificate to install (404 when this server does not serve the LAN's HTTPS)."""
    pem = _ca_pem()
    if pem is None:
        raise Http404(gettext("Máy này chưa phục vụ HTTPS trong mạng nội bộ."))
    response = HttpResponse(
        ssl.PEM_cert_to_DER_cert(pem.decode("ascii")), content_type="application/x-x509-ca-cert"
    )
    response["Content-Disposition"] = f'attachment; filename="{CA_NAME}"'
    response["Cache-Control"] = "no-cache"
    return response
