"""``python manage.py ledger_check``: re-derive every balance from the postings and from the
replay of the stored ván; print each difference and a summary line; exit 1 if any.

A sitting whose ledger cannot even be read (a sum beyond 64 bits on SQLite, written before the
bounds of ``scoring.services.ledger`` were checked) is a difference like any other: the command
names the sitting and every row beyond the bounds, and goes on with the next sitting.
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import DatabaseError, transaction
from django.db.models import Q, QuerySet

from scoring.models import LedgerTransaction, Posting, Sitting, Van
from scoring.selectors.ledger import ledger_differences
from scoring.services.ledger import MAX_BALANCE, MAX_VAN_POINTS


def out_of_bounds(sittings: QuerySet[Sitting]) -> list[str]:
    """Every posting and ván of ``sittings`` beyond the ledger's bounds (none is written since the
    bounds are checked; a database written before may hold some)."""
    found = []
    postings = (
        Posting.objects.filter(sitting__in=sittings)
        .filter(Q(amount__gt=MAX_BALANCE) | Q(amount__lt=-MAX_BALANCE))
        .order_by("id")
    )
    for pk, sitting, txn, amount in postings.values_list("pk", "sitting_id", "transaction_id", "amount"):
        found.append(
            f"Canh bài #{sitting}: dòng bút toán #{pk} (bút toán #{txn}) ghi {amount} điểm, "
            f"vượt giới hạn ±{MAX_BALANCE} của sổ"
        )
    vans = (
        Van.objects.filter(sitting__in=sittings)
        .filter(Q(points__gt=MAX_VAN_POINTS) | Q(points__lt=-MAX_VAN_POINTS))
        .order_by("id")
    )
    for pk, sitting, seq, points in vans.values_list("pk", "sitting_id", "seq", "points"):
        found.append(
            f"Canh bài #{sitting}, ván {seq} (mã {pk}): ghi {points} điểm, "
            f"vượt giới hạn {MAX_VAN_POINTS} điểm một ván"
        )
    return found


class Command(BaseCommand):
    help = (
        "Kiểm tra sổ điểm: mỗi bút toán cân, điểm làng và gà không âm, số dư bằng kết quả tính lại "
        "các ván đã ghi, không số nào vượt giới hạn của sổ. In từng chênh lệch; mã thoát 1 nếu có."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--sitting", type=int, action="append", help="Chỉ kiểm tra canh bài này.")

    def handle(self, *args: Any, **options: Any) -> None:
        sittings = Sitting.objects.order_by("pk")
        if options.get("sitting"):
            sittings = sittings.filter(pk__in=options["sitting"])
        differences: list[str] = []
        count = 0
        for pk in sittings.values_list("pk", flat=True):
            count += 1
            sitting = Sitting.objects.select_related("rules").get(pk=pk)
            try:
                with transaction.atomic():  # a savepoint: a failed read leaves the next sitting readable
                    differences += ledger_differences(sitting)
            except (DatabaseError, OverflowError) as exc:
                differences.append(
                    f"Canh bài #{pk}: không đọc được sổ ({exc}); xem các dòng vượt giới hạn dưới đây"
                )
        differences += out_of_bounds(sittings)
        for line in differences:
            self.stdout.write(line)
        vans = Van.objects.filter(sitting__in=sittings, is_current=True).count()
        txns = LedgerTransaction.objects.filter(sitting__in=sittings).count()
        self.stdout.write(
            f"ledger_check: {count} canh bài, {vans} ván, {txns} bút toán, {len(differences)} chênh lệch."
        )
        if differences:
            sys.exit(1)
