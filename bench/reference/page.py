"""The reference page's shape: the calculator's count of form controls and table rows.

``bench/serving.py`` counts them on the calculator page as the app serves it (:func:`count`) and
hands the counts to the reference server (``REFERENCE_PAGE``, e.g. ``input=9,select=3,option=20,
textarea=0,button=4,tr=15``), whose ``GET /page`` renders a template with that many of each through
Django's template engine; ``bench/serving.py`` counts the reference page too and stops if they differ.
"""

from __future__ import annotations

from html.parser import HTMLParser

KINDS = ("input", "select", "option", "textarea", "button", "tr")


class _Counter(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.counts = dict.fromkeys(KINDS, 0)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.counts:
            self.counts[tag] += 1


def count(html: str) -> dict[str, int]:
    """How many of each form control (``input``, ``select``, ``option``, ``textarea``, ``button``)
    and table row (``tr``) a page has."""
    parser = _Counter()
    parser.feed(html)
    parser.close()
    return parser.counts


def encode(counts: dict[str, int]) -> str:
    return ",".join(f"{k}={counts.get(k, 0)}" for k in KINDS)


def decode(text: str) -> dict[str, int]:
    out = dict.fromkeys(KINDS, 0)
    for part in text.split(","):
        if "=" in part:
            k, v = part.split("=", 1)
            if k in out:
                out[k] = int(v)
    return out
