"""The club book's part of the demo data (``load_demo --with-demo-user``, so ``make run``): a season
of canh for the demo village across several lunar months (a gom canh among them, and a corrected
ván), a treasurer, the oldest month closed with the fewest transfers, and the ratings computed.

Idempotent: it does nothing when the demo village already has its season (canh titled "Sổ mẫu").
Everything is written through the services; only each canh's opening time is set back to its day
afterwards (a canh belongs to the period of the day it was opened), which no ledger row records.
"""

from __future__ import annotations

import contextlib
import random
from datetime import datetime, time, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone

from scoring.lunar import to_lunar
from scoring.models import Club, ClubRole, ClubRoleKind, Player, Sitting

__all__ = ["DEMO_TREASURER", "load_club_season"]

#: The demo treasurer's account (thủ quỹ of the demo village), password as the demo organiser's.
DEMO_TREASURER = "thu-quy"
TITLE = "Sổ mẫu"
MEMBERS = ["Cụ Tư", "Bác Năm", "Chú Sáu", "Anh Bảy", "Cô Tám", "Ông Chín", "Bà Mười"]
CUOC = [["tom"], ["leo"], ["tom", "leo"], ["thap_dieu"], ["bach_thu"], ["chi_nay"], ["kinh_cu"]]
CANH = 8
VAN_PER_CANH = 12


def _records(rng: random.Random, names: list[str]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for _ in range(VAN_PER_CANH):
        if rng.random() < 0.1:
            out.append({"result": "hoa"})
            continue
        winner = rng.choice(names)
        record: dict[str, Any] = {"winner": winner, "cuoc": rng.choice(CUOC)}
        if rng.random() < 0.4:
            record["discarder"] = rng.choice([n for n in names if n != winner])
        out.append(record)
    return out


def _treasurer(club: Club, password: str, organiser: Any) -> Any:
    users = get_user_model().objects
    user = users.filter(username=DEMO_TREASURER).first()
    if user is None:
        user = users.create_user(DEMO_TREASURER, password=password)
    ClubRole.objects.get_or_create(
        user=user, club=club, role=ClubRoleKind.TREASURER, defaults={"granted_by": organiser}
    )
    return user


def load_club_season(*, user: Any, club: Club, password: str, today: Any = None) -> dict[str, int]:
    """The demo village's season (see the module). ``user``: the demo organiser."""
    from scoring.periods import lunar_month
    from scoring.services.closing import CloseError, period_close
    from scoring.services.ratings import rebuild_ratings
    from scoring.services.sittings import sitting_open, van_correct, van_record

    treasurer = _treasurer(club, password, user)
    if Sitting.objects.filter(club=club, title__startswith=TITLE).exists():
        return {"canh sổ mẫu": Sitting.objects.filter(club=club, title__startswith=TITLE).count()}
    today = today or timezone.localdate()
    rng = random.Random(2025)
    for name in MEMBERS:
        Player.objects.get_or_create(club=club, name=name)
    zone = timezone.get_current_timezone()
    days = sorted(today - timedelta(days=12 * k + 3) for k in range(CANH))
    made = []
    for i, day in enumerate(days):
        names = rng.sample(MEMBERS, 5)
        mode = "gom" if i == 3 else "quang"
        sitting = sitting_open(
            game="to-tom-5",
            rules="luat-2005",
            mode=mode,
            players=names,
            club=club,
            created_by=user,
            title=f"{TITLE}: canh {day:%d/%m}",
            idempotency_key=None,
        ).obj
        for seq, record in enumerate(_records(rng, names), start=1):
            van_record(sitting=sitting, seq=seq, record=record, idempotency_key=None, entered_by=user)
        Sitting.objects.filter(pk=sitting.pk).update(
            created_at=timezone.make_aware(datetime.combine(day, time(19, 30)), zone)
        )
        made.append((sitting, names))
    sitting, names = made[1]  # a correction in a past canh: the book follows it
    first = sitting.van.get(seq=1, is_current=True)
    van_correct(
        van=first,
        record={"winner": names[0], "cuoc": ["chi_nay"]},
        reason="Ghi nhầm cước: là Chi Nẩy",
        corrected_by=user,
        idempotency_key=None,
    )
    oldest = to_lunar(days[0])
    with contextlib.suppress(CloseError):  # nothing open in that month: nothing to close
        period_close(
            club=club, period=lunar_month(oldest.year, oldest.month, leap=oldest.leap), closed_by=treasurer
        )
    rebuild_ratings(club_id=club.pk, force=True)
    return {"canh sổ mẫu": len(made)}
