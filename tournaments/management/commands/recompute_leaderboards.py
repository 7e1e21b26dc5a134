"""`python manage.py recompute_leaderboards EVENT [EVENT ...] | --all`: the full rebuild of each
event's leaderboard from the ledger, with its progress printed (``--queue``: handed to Celery).

Exit codes: 0 every board rebuilt (or queued); 1 a rebuild failed (the others still run; the
failure is recorded on the board, so the organiser's page says so too); 2 bad input (an event
that does not exist, no event named).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.models import Event
from tournaments.services.leaderboard import queue_recompute, recompute


class Command(BaseCommand):
    help = "Tính lại bảng xếp hạng của giải từ sổ điểm (mã giải hoặc số hiệu; --all: mọi giải)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("events", nargs="*", help="mã (slug) hoặc số hiệu của giải")
        parser.add_argument("--all", action="store_true", help="mọi giải")
        parser.add_argument("--queue", action="store_true", help="chỉ gửi việc cho Celery, không chờ")

    def _events(self, refs: list[str], everything: bool) -> list[Event]:
        if everything:
            if refs:
                raise CommandError("Dùng --all hoặc nêu tên giải, không dùng cả hai.", returncode=2)
            return list(Event.objects.order_by("id"))
        if not refs:
            raise CommandError("Hãy nêu ít nhất một giải (mã hoặc số hiệu), hoặc dùng --all.", returncode=2)
        found = []
        for ref in refs:
            event = Event.objects.filter(slug=ref).first()
            if event is None and ref.isdigit():
                event = Event.objects.filter(pk=int(ref)).first()
            if event is None:
                raise CommandError(
                    f"Không có giải '{ref}' (hãy dùng mã giải như trong địa chỉ /giai/<mã>/, "
                    "hoặc số hiệu của giải).",
                    returncode=2,
                )
            found.append(event)
        return found

    def handle(self, *args: Any, **options: Any) -> None:
        events = self._events(options["events"], options["all"])
        if not events:
            self.stdout.write("Chưa có giải nào: không có gì để tính lại.")
            return
        failed = []
        for i, event in enumerate(events, start=1):
            prefix = f"[{i}/{len(events)}] {event.name} ({event.slug})"
            if options["queue"]:
                queue_recompute(event_id=event.pk, force=True)
                self.stdout.write(f"{prefix}: đã gửi việc tính lại cho Celery")
                continue
            self.stdout.write(f"{prefix}: đang tính lại…")
            try:
                done = recompute(
                    event_id=event.pk, force=True, progress=lambda msg: self.stdout.write(f"  · {msg}")
                )
            except Exception as exc:  # recorded on the board by recompute(); the next events still run
                failed.append(event.slug)
                self.stderr.write(
                    self.style.ERROR(f"{prefix}: lỗi khi tính lại: {type(exc).__name__}: {exc}")
                )
                continue
            self.stdout.write(
                self.style.SUCCESS(
                    f"{prefix}: xong, phiên bản {done.version}, {done.players} người, {done.van_count} ván, "
                    f"{done.duration_ms} ms"
                )
            )
        if failed:
            raise CommandError(
                f"Không tính lại được {len(failed)}/{len(events)} giải: {', '.join(failed)}.", returncode=1
            )
