"""``python manage.py rebuild_ratings CLUB | --all``: rebuild the club book's ratings from the ván.

Prints its progress; exit 1 if a rebuild fails (the club's book page shows it too), 2 for a club
that does not exist.
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from scoring.models import Club
from scoring.services.ratings import recompute


class Command(BaseCommand):
    help = "Tính lại trình độ (OpenSkill) của các thành viên một làng / câu lạc bộ từ mọi ván của làng."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("club", nargs="?", help="Mã làng / câu lạc bộ")
        parser.add_argument("--all", action="store_true", help="Mọi làng và câu lạc bộ")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["all"]:
            clubs = list(Club.objects.order_by("slug"))
        else:
            club = Club.objects.filter(slug=options["club"] or "").first()
            if club is None:
                self.stderr.write(
                    f'{{"error": "Không có làng hoặc câu lạc bộ mang mã \'{options["club"]}\'."}}'
                )
                sys.exit(2)
            clubs = [club]
        failed = False
        for club in clubs:
            self.stdout.write(f"{club.slug}:")
            try:
                done = recompute(club_id=club.pk, force=True, progress=lambda m: self.stdout.write(f"  {m}"))
            except Exception as exc:  # noqa: BLE001 - reported, recorded on the board, and the exit code says it
                self.stderr.write(f"  lỗi: {type(exc).__name__}: {exc}")
                failed = True
                continue
            self.stdout.write(f"  {done.players} người, {done.van} ván, phiên bản {done.version}")
        if failed:
            sys.exit(1)
