"""The one QR helper: codes drawn as inline SVG (segno), for the score sheets (they open the
sitting's page), check-in cards, a table's entry page and scorekeeper links."""

from __future__ import annotations

from functools import lru_cache

import segno
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

__all__ = ["qr_svg"]


@lru_cache(maxsize=4096)
def qr_svg(data: str, *, scale: int = 4, title: str = "", border: int = 2) -> SafeString:
    """The QR code of ``data`` as an ``<svg>`` element to put in a page (medium error correction,
    so a card printed on a village printer and creased in a pocket still scans; ``border``: the
    quiet zone in modules, 4 on printed sheets).

    The element has a ``viewBox`` as well as its natural width and height, so a style (or a
    print layout) that sizes it scales the whole code instead of cropping it (the
    cards drew only a corner of each code, a dot once printed)."""
    code = segno.make(data, error="m", micro=False)
    svg = code.svg_inline(
        scale=scale,
        border=border,
        title=title or None,
        svgclass="qr-svg",
        lineclass=None,
        dark="#000",
        light="#fff",
        omitsize=True,
    )
    side = code.symbol_size(scale=scale, border=border)[0]
    label = escape(title or data)
    attrs = f'<svg role="img" aria-label="{label}" width="{side}" height="{side}" '
    return mark_safe(svg.replace("<svg ", attrs, 1))  # noqa: S308 - segno's own markup
