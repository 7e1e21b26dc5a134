"""Backup files written before the backup code became one package (``scoring.backup`` with a part
registered per app) still restore whole: each stored file, imported into an empty database and
exported again, gives back the same document (all but the time of the export).

The files in ``tests/reliability/backups/`` were written by the code of 25 November 2026 (before
the move): a festival mid-round (canh, a closed table, roles, scorekeeper links, history), a Tổ Tôm
Điếm festival with its Trung Quân console, and a table's own sitting with its console."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

FILES = Path(__file__).parent / "backups"


#: Fields a backup has gained since these files were written, with the value a restore gives an
#: old file: the re-export of an old file carries them, the old file does not.
ADDED_SINCE = {"stream_seq": 0}


def _drop_added_since(node: Any) -> None:
    if isinstance(node, dict):
        for key, default in ADDED_SINCE.items():
            if node.get(key, default) == default:
                node.pop(key, None)
        for value in node.values():
            _drop_added_since(value)
    elif isinstance(node, list):
        for value in node:
            _drop_added_since(value)


def _without_clock(doc: dict[str, Any]) -> dict[str, Any]:
    """The document but the time of the export, with the ids of the event and its roles (the
    database's own, for the restorer to map) renumbered in order of appearance: which history
    rows share a role is kept."""
    doc = json.loads(json.dumps({k: v for k, v in doc.items() if k != "exported_at"}))
    _drop_added_since(doc)
    if "event" in doc:
        ids: dict[int, int] = {}
        event = doc["event"]
        for item in event["roles"] + event.get("history", {}).get("roles", []):
            item["id"] = ids.setdefault(item["id"], len(ids))
        for item in event.get("history", {}).get("event", []):
            item["id"] = 0  # the one event
    return doc


@pytest.mark.parametrize("name", ["event-running.json", "event-console.json"])
def test_an_event_file_written_before_restores_and_exports_the_same(name: str, tmp_path: Path) -> None:
    stored = json.loads((FILES / name).read_text(encoding="utf-8"))
    call_command("event_import", str(FILES / name), stdout=open(tmp_path / "out.txt", "w"))  # noqa: SIM115
    again = tmp_path / "again.json"
    call_command("event_export", stored["event"]["slug"], output=str(again))
    assert _without_clock(json.loads(again.read_text(encoding="utf-8"))) == _without_clock(stored)


def test_a_sitting_file_with_its_console_written_before_restores_and_exports_the_same(tmp_path: Path) -> None:
    stored = json.loads((FILES / "sitting-console.json").read_text(encoding="utf-8"))
    call_command("event_import", str(FILES / "sitting-console.json"), stdout=open(tmp_path / "out.txt", "w"))  # noqa: SIM115
    client = Client()
    client.force_login(get_user_model().objects.get(username=stored["sittings"][0]["created_by"]))
    response = client.get(f"/so-diem/{stored['sitting']}/xuat/sao-luu.json")
    assert response.status_code == 200
    assert stored["console"]["signals"]  # the file does carry a console with its signals
    assert _without_clock(response.json()) == _without_clock(stored)
