"""``python manage.py event_import FILE``: restore a backup written by ``event_export`` (or a
sitting's backup) into a database that does not hold it yet; the leaderboard is rebuilt."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.backup import backup_restore
from scoring.engine import EngineError


class Command(BaseCommand):
    help = "Khôi phục một bản sao lưu (giải hoặc canh bài) vào cơ sở dữ liệu chưa có nó."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="Tệp JSON của bản sao lưu ('-': stdin).")

    def handle(self, *args: Any, **options: Any) -> None:
        raw = (
            sys.stdin.read() if options["file"] == "-" else Path(options["file"]).read_text(encoding="utf-8")
        )
        try:
            restored = backup_restore(document=json.loads(raw))
        except json.JSONDecodeError as exc:
            raise CommandError(f"JSON không hợp lệ (dòng {exc.lineno}, cột {exc.colno}): {exc.msg}.") from exc
        except EngineError as exc:
            raise CommandError(exc.message) from exc
        what = f"giải '{restored.event_slug}'" if restored.event_slug else "canh bài"
        self.stdout.write(
            f"Đã khôi phục {what}: {restored.sittings} canh bài, {restored.van} ván, "
            f"{restored.transactions} bút toán."
        )
