"""Every text the page scripts show goes through the JavaScript catalog and has its English.

A script's text is Vietnamese, wrapped in ``gettext("…")``; ``makemessages -d djangojs`` collects it
into ``locale/en/LC_MESSAGES/djangojs.po``. A new text without its English fails here."""

from __future__ import annotations

import json
import re
from pathlib import Path

from django.test import Client

ROOT = Path(__file__).resolve().parents[2]
CALL = re.compile(r'\bgettext\("((?:[^"\\]|\\.)*)"\)')


def _script_texts() -> set[str]:
    found = set()
    for path in (ROOT / "static").rglob("*.js"):
        if "vendor" in path.parts:
            continue
        found |= {json.loads(f'"{m}"') for m in CALL.findall(path.read_text(encoding="utf-8"))}
    return found


def test_every_script_text_has_its_english_in_the_catalog() -> None:
    texts = _script_texts()
    assert len(texts) > 40  # the offline scorekeeping, the console's sound switch, the chart
    english = Client().get("/en/jsi18n/")
    assert english.status_code == 200
    body = english.content.decode()
    catalog = json.loads(re.search(r"const newcatalog = (\{.*?\});\n", body, re.S).group(1))
    missing = sorted(t for t in texts if not catalog.get(t))
    assert missing == [], f"no English for: {missing} (run makemessages -d djangojs -l en and translate)"
    assert catalog["%(n)s ván chờ gửi"] == "%(n)s ván waiting to send"
    # Vietnamese, the source language, needs no catalog: the scripts show their own text.
    vietnamese = Client().get("/jsi18n/")
    assert vietnamese.status_code == 200 and "ván waiting" not in vietnamese.content.decode()
