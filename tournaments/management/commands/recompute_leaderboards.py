"""`python manage.py recompute_leaderboards EVENT [EVENT ...]`: full rebuild, progress printed."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.models import Event
from tournaments.services.leaderboard import queue_recompute, rebuild_leaderboard


class Command(BaseCommand):
    help = "Tính lại bảng xếp hạng của giải từ sổ điểm (mã giải hoặc số hiệu; --all: mọi giải)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("events", nargs="*", help="mã (slug) hoặc số hiệu của giải")
        parser.add_argument("--all", action="store_true", help="mọi giải")
        parser.add_argument("--queue", action="store_true", help="chỉ gửi việc cho Celery, không chờ")

    def _events(self, refs: list[str], everything: bool) -> list[Event]:
        if everything:
            return list(Event.objects.order_by("id"))
        if not refs:
            raise CommandError("Hãy nêu ít nhất một giải (mã hoặc số hiệu), hoặc dùng --all.")
        found = []
        for ref in refs:
            event = Event.objects.filter(slug=ref).first()
            if event is None and ref.isdigit():
                event = Event.objects.filter(pk=int(ref)).first()
            if event is None:
                raise CommandError(f"Không có giải '{ref}'.")
            found.append(event)
        return found

    def handle(self, *args: Any, **options: Any) -> None:
        events = self._events(options["events"], options["all"])
        for i, event in enumerate(events, start=1):
            prefix = f"[{i}/{len(events)}] {event.name}"
            if options["queue"]:
                queue_recompute(event.pk, force=True)
                self.stdout.write(f"{prefix}: đã gửi việc tính lại cho Celery")
                continue
            self.stdout.write(f"{prefix}: đang tính lại…")
            done = rebuild_leaderboard(
                event_id=event.pk, force=True, progress=lambda msg: self.stdout.write(f"  · {msg}")
            )
            self.stdout.write(self.style.SUCCESS(
                f"{prefix}: xong, phiên bản {done.version}, {done.players} người, {done.van_count} ván, "
                f"{done.duration_ms} ms"
            ))
