"""``python manage.py ledger_check``: re-derive every balance from the postings and from the
replay of the stored ván; print each difference and a summary line; exit 1 if any."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from scoring.models import LedgerTransaction, Sitting, Van
from scoring.selectors.ledger import ledger_differences


class Command(BaseCommand):
    help = (
        "Kiểm tra sổ điểm: mỗi bút toán cân, điểm làng và gà không âm, số dư bằng kết quả tính lại "
        "các ván đã ghi. In từng chênh lệch; mã thoát 1 nếu có."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--sitting", type=int, action="append", help="Chỉ kiểm tra canh bài này.")

    def handle(self, *args: Any, **options: Any) -> None:
        sittings = Sitting.objects.order_by("pk")
        if options.get("sitting"):
            sittings = sittings.filter(pk__in=options["sitting"])
        differences: list[str] = []
        count = 0
        for sitting in sittings.iterator():
            count += 1
            differences += ledger_differences(sitting)
        for line in differences:
            self.stdout.write(line)
        vans = Van.objects.filter(sitting__in=sittings, is_current=True).count()
        txns = LedgerTransaction.objects.filter(sitting__in=sittings).count()
        self.stdout.write(
            f"ledger_check: {count} canh bài, {vans} ván, {txns} bút toán, {len(differences)} chênh lệch."
        )
        if differences:
            sys.exit(1)
