"""The festival of the demo (`make run`): registered with ``scoring.services.demo`` and loaded by
``manage.py load_demo --with-demo-user``. Idempotent: nothing is made twice.

A hội làng of Tổ Tôm Điếm organised by the demo account: ten players of two giáp registered and
checked in (one through their own QR link), round 1 seated on two chiếu. Chiếu 1 is run from a
Trung Quân console (the demo account is its Trung Quân): two ván finished there with their drum
and flag signals (the audience display shows the last win and the signals); chiếu 2 has its ván
entered by its scorekeeper and a PIN for a phone. Everything goes through the app's own services, so the leaderboard is queued exactly as
a recorded ván queues it (after commit) and computed by the Celery worker, not here.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.urls import reverse

from scoring.models import Club
from scoring.services.demo import DemoLoaded, register_demo_part
from tournaments.models import Event, Table

__all__ = ["DEMO_EVENT", "load_festival"]

DEMO_EVENT = {
    "slug": "hoi-lang-dong-ngac",
    "name": "Hội làng Đông Ngạc xuân Bính Ngọ",
    "date": dt.date(2026, 2, 21),
    "game": "to-tom-diem",
    "rules": "luat-2005",
    "mode": "quang",
    "van_per_round": 8,
}
PLAYERS = [
    ("Cụ Đồ", "Giáp Đông"),
    ("Ông Lý", "Giáp Đông"),
    ("Bà Cả", "Giáp Đông"),
    ("Bác Phó", "Giáp Đông"),
    ("Chú Cuội", "Giáp Đông"),
    ("Ông Hương", "Giáp Đoài"),
    ("Bà Hai", "Giáp Đoài"),
    ("Cô Ba", "Giáp Đoài"),
    ("Anh Tư", "Giáp Đoài"),
    ("Chị Năm", "Giáp Đoài"),
]
#: The console's ván on chiếu 1: (signals as (seat, slug), the winner's seat, cước). Seat
#: the Trung Quân ("trung_quan": the big drum).
CONSOLE_VAN: list[tuple[list[tuple[int | str, str]], int, list[str]]] = [
    ([("trung_quan", "khai-hoi"), (3, "tung"), (2, "tung-tung"), (4, "cac"), (2, "co-do")], 2, ["tom"]),
    ([(5, "tung"), (1, "cac-cac-cac"), (4, "co-trang"), (5, "hoi-dai")], 5, ["leo"]),
]
#: Chiếu 2's ván, by seat: (winner's seat or None for a draw, cước).
TABLE_VAN: list[tuple[int | None, list[str]]] = [(1, ["chi_nay"]), (None, []), (4, ["tom"])]


def _players(event: Event, user: Any) -> None:
    from tournaments.services.events import check_in, check_in_by_token, registration_add

    for i, (name, team) in enumerate(PLAYERS):
        reg = registration_add(event=event, name=name, team=team, by=user)
        if i == 0:
            check_in_by_token(token=reg.token)  # the player's own QR link at the gate
        else:
            check_in(registration=reg, by=user)


def _console_table(table: Table, user: Any) -> None:
    from tournaments.console.services import ensure_catalogue, signal_send, table_open, van_finish, van_start

    ensure_catalogue()
    console = table_open(
        name=f"Chiếu {table.number} giữa sân đình", event_table=table, trung_quan=user, created_by=user
    )
    names = dict(table.sitting.seats.values_list("position", "name"))
    for signals, winner, cuoc in CONSOLE_VAN:
        van_start(table=console)
        for seat, slug in signals:
            signal_send(table=console, seat=seat, signal=slug, by=user)
        console.refresh_from_db()
        van_finish(
            table=console,
            seq=console.van_seq,
            record={"winner": names[winner], "cuoc": cuoc},
            by=user,
            idempotency_key=None,
        )


def _scorekeeper_table(table: Table, user: Any) -> None:
    from tournaments.services.tokens import token_issue
    from tournaments.services.van import event_van_record

    names = dict(table.sitting.seats.values_list("position", "name"))
    for seq, (winner, cuoc) in enumerate(TABLE_VAN, start=1):
        record = {"result": "hoa"} if winner is None else {"winner": names[winner], "cuoc": cuoc}
        event_van_record(table=table, seq=seq, record=record, idempotency_key=None, entered_by=user)
    token_issue(table=table, label="Điện thoại thư ký chiếu 2", created_by=user)


@register_demo_part
def load_festival(user: Any, club: Club) -> DemoLoaded:
    """The demo festival (see the module's docstring); nothing if it is there already."""
    from tournaments.console.models import FestivalTable
    from tournaments.services.events import event_create
    from tournaments.services.rounds import round_seat

    event = Event.objects.filter(slug=DEMO_EVENT["slug"]).first()
    if event is None:
        event = event_create(**DEMO_EVENT, created_by=user)
        _players(event, user)
        round_seat(event=event, method="random", seed=2026, created_by=user)
        first, second = Table.objects.filter(event=event).select_related("sitting").order_by("number")[:2]
        _console_table(first, user)
        _scorekeeper_table(second, user)
    slug = event.slug
    loaded = DemoLoaded(
        {"hội làng mẫu": 1, "chiếu": Table.objects.filter(event=event).count()},
        [
            ("Bảng điểm của hội làng mẫu", reverse("tournaments:scoreboard", args=[slug])),
            ("Ban tổ chức: đăng ký, điểm danh, xếp chỗ", reverse("tournaments:manage", args=[slug])),
        ],
    )
    console = FestivalTable.objects.filter(event_table__event=event).order_by("pk").first()
    if console is not None:
        loaded.pages += [
            ("Bàn Trung Quân của chiếu 1", reverse("console:console", args=[console.pk])),
            ("Màn hình khán giả của chiếu 1", reverse("console:display", args=[console.pk])),
        ]
    return loaded
