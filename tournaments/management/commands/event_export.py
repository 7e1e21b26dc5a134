"""``python manage.py event_export <slug> [-o FILE]``: the whole event (every sitting, ván version,
ledger transaction, rule set, person) as one JSON backup (format ``so-tom-backup``, :mod:`scoring.backup`);
``event_import`` restores it."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.backup import event_backup
from tournaments.models import Event


class Command(BaseCommand):
    help = "Sao lưu một giải (mọi canh, ván, bút toán, lệ làng, người chơi) ra một tệp JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="Mã giải.")
        parser.add_argument("-o", "--output", help="Tệp ghi ra (mặc định: stdout).")

    def handle(self, *args: Any, **options: Any) -> None:
        event = Event.objects.filter(slug=options["slug"]).first()
        if event is None:
            raise CommandError(f"Không có giải mang mã '{options['slug']}'.")
        text = json.dumps(event_backup(event), ensure_ascii=False, indent=1) + "\n"
        if options.get("output"):
            Path(options["output"]).write_text(text, encoding="utf-8")
        else:
            sys.stdout.write(text)
