"""Sparklines as inline SVG (no script needed): a member's running points over the canh of a
period, and a rating's history with its uncertainty band. Printed in pages and PDFs alike."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

__all__ = ["band_sparkline", "sparkline"]

WIDTH, HEIGHT, PAD = 120, 30, 2


def _scale(
    values: Sequence[float], low: float, high: float, width: int, height: int
) -> list[tuple[float, float]]:
    span = (high - low) or 1.0
    step = (width - 2 * PAD) / max(len(values) - 1, 1)
    return [(PAD + i * step, PAD + (high - v) / span * (height - 2 * PAD)) for i, v in enumerate(values)]


def _points(pairs: Sequence[tuple[float, float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in pairs)


def sparkline(values: Sequence[float], *, label: str, width: int = WIDTH, height: int = HEIGHT) -> SafeString:
    """A line of ``values`` (a zero line when they cross it; the last point marked), described by
    ``label`` for screen readers."""
    values = list(values) or [0]
    if len(values) == 1:
        values = [0, *values]
    low, high = min(0, *values), max(0, *values)
    pairs = _scale(values, low, high, width, height)
    zero_y = _scale([0], low, high, width, height)[0][1]
    last = values[-1]
    colour = "#0b6b2b" if last > 0 else "#a3121a" if last < 0 else "#4a4a4a"
    x, y = pairs[-1]
    return mark_safe(  # noqa: S308 - numbers we computed and an escaped label
        f'<svg class="spark" role="img" aria-label="{escape(label)}" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}"><title>{escape(label)}</title>'
        f'<line x1="0" x2="{width}" y1="{zero_y:.1f}" y2="{zero_y:.1f}" stroke="#c9c2b0" stroke-width="1"/>'
        f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{_points(pairs)}"/>'
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.5" fill="{colour}"/></svg>'
    )


def band_sparkline(
    mus: Sequence[float], sigmas: Sequence[float], *, label: str, width: int = WIDTH, height: int = HEIGHT
) -> SafeString:
    """A rating's history: μ as a line inside its μ ± 2σ band (how sure the estimate is)."""
    if not mus:
        return mark_safe("")
    mus, sigmas = list(mus), list(sigmas)
    if len(mus) == 1:
        mus, sigmas = mus * 2, sigmas * 2
    upper = [m + 2 * s for m, s in zip(mus, sigmas, strict=True)]
    lower = [m - 2 * s for m, s in zip(mus, sigmas, strict=True)]
    low, high = min(lower), max(upper)
    top, line, bottom = (_scale(v, low, high, width, height) for v in (upper, mus, lower))
    band = _points([*top, *reversed(bottom)])
    return mark_safe(  # noqa: S308 - numbers we computed and an escaped label
        f'<svg class="spark" role="img" aria-label="{escape(label)}" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}"><title>{escape(label)}</title>'
        f'<polygon points="{band}" fill="#f2c230" fill-opacity=".35" stroke="none"/>'
        f'<polyline fill="none" stroke="#7a1414" stroke-width="2" points="{_points(line)}"/></svg>'
    )
