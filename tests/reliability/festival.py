"""A festival built through the tournaments services (never by hand), for the fault tests."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

PLAYERS = [
    ("An", "Giáp Đông"),
    ("Bình", "Giáp Đông"),
    ("Chi", "Giáp Đông"),
    ("Dũng", "Giáp Đông"),
    ("Em", "Giáp Đông"),
    ("Giang", "Giáp Đoài"),
    ("Hà", "Giáp Đoài"),
    ("Khánh", "Giáp Đoài"),
    ("Lan", "Giáp Đoài"),
    ("Minh", "Giáp Đoài"),
]
CUOC = ["tom", "leo", "thap_dieu", "chi_nay", "bach_thu", "kinh_cu"]


def festival(*, name: str = "Hội làng Xuân Ất Tỵ", **options: Any) -> tuple[Any, list[Any]]:
    """An event of Tổ Tôm Bí Ngũ (luật 2005, đánh quăng), the ten players checked in, round 1
    seated by a seeded draw: (event, its two tables)."""
    from tournaments.models import Table
    from tournaments.services.events import check_in, event_create, registration_add
    from tournaments.services.rounds import round_seat

    fields = {
        "name": name,
        "date": dt.date(2025, 2, 3),
        "game": "to-tom-5",
        "rules": "luat-2005",
        "mode": "quang",
        **options,
    }
    event = event_create(**fields)
    for player, team in PLAYERS:
        check_in(registration=registration_add(event=event, name=player, team=team))
    round_seat(event=event, method="random", seed=11)
    return event, list(Table.objects.filter(event=event).order_by("round__number", "number"))


def seat_names(table: Any) -> list[str]:
    return [s.name for s in table.sitting.seats.order_by("position")]


def play(table: Any, rng: random.Random, *, entered_by: Any = None) -> Any:
    """Record the table's next ván (a random win) through the tournaments service."""
    from tournaments.services.van import event_van_record

    names = seat_names(table)
    seq = table.sitting.van.filter(is_current=True).count() + 1
    winner = rng.choice(names)
    record: dict[str, Any] = {"winner": winner, "cuoc": [rng.choice(CUOC)]}
    if rng.random() < 0.5:
        record["discarder"] = rng.choice([n for n in names if n != winner])
    return event_van_record(
        table=table, seq=seq, record=record, idempotency_key=None, entered_by=entered_by
    ).obj
