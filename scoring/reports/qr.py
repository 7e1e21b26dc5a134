"""QR codes as inline SVG (segno): printed on score sheets, they open the sitting's entry page."""

from __future__ import annotations

import segno
from django.utils.safestring import SafeString, mark_safe

__all__ = ["qr_svg"]


def qr_svg(url: str, *, scale: int = 3) -> SafeString:
    """An ``<svg>`` element encoding ``url`` (error correction M, with its quiet zone)."""
    code = segno.make(url, error="m", micro=False)
    svg = code.svg_inline(scale=scale, dark="#000", light="#fff", title=url, omitsize=False)
    return mark_safe(svg)  # noqa: S308 - segno's own markup; the URL is escaped by segno
