"""Three clubs and three events with a person in every role, for the authorization matrix.

"Own" objects (club X, its sitting, event E and its tables, E's festival table) are where the
roles below hold; "other" objects (club Y, event F) belong to ``outsider``, who organises and keeps
score there and holds nothing on the own side; "private" objects (club Z, event G, **not public**)
carry the same roles as the own side. Each event seats ten players at two tables; ``table_keeper``
keeps score at the first table only (an event role scoped to one table); ``treasurer`` is the own
club's thủ quỹ (the club book), and each club has an older canh closed by a period close. Everything
is built through the services.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model

ROLES = ("anon", "player", "keeper", "table_keeper", "trung_quan", "organiser", "treasurer", "outsider")
PLAYERS = [
    ("An", "Giáp Đông"),
    ("Bình", "Giáp Đông"),
    ("Chi", "Giáp Đông"),
    ("Dũng", "Giáp Đông"),
    ("Em", "Giáp Đông"),
]
#: Five more, so each event seats two tables.
MORE_PLAYERS = [
    ("Giang", "Giáp Tây"),
    ("Hà", "Giáp Tây"),
    ("Khánh", "Giáp Tây"),
    ("Lan", "Giáp Tây"),
    ("Minh", "Giáp Tây"),
]


@dataclass
class Side:
    """One club's and one event's objects."""

    club: Any
    sitting: Any
    event: Any
    table: Any
    registration: Any
    token: Any
    festival: Any
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class World:
    users: dict[str, Any]
    own: Side
    other: Side
    private: Side

    def side(self, name: str) -> Side:
        return {"own": self.own, "other": self.other, "private": self.private}[name]


def _closed_canh(club: Any, organiser: Any, prefix: str) -> Any:
    """A canh of the club 40 days ago, closed by a period close (the club book's)."""
    from django.utils import timezone

    from scoring.models import Sitting
    from scoring.periods import dates
    from scoring.services.closing import period_close
    from scoring.services.sittings import sitting_open, van_record

    day = timezone.localdate() - dt.timedelta(days=40)
    sitting = sitting_open(
        game="to-tom-5",
        rules="luat-2005",
        mode="quang",
        club=club,
        created_by=organiser,
        players=[f"{n} {prefix}" for n, _ in PLAYERS],
        title=f"Canh cũ {prefix}",
    ).obj
    van_record(
        sitting=sitting, seq=1, record={"winner": f"Bình {prefix}", "cuoc": ["tom"]}, idempotency_key=None
    )
    moment = timezone.make_aware(dt.datetime.combine(day, dt.time(19)), timezone.get_current_timezone())
    Sitting.objects.filter(pk=sitting.pk).update(created_at=moment)
    return period_close(club=club, period=dates(day, day), closed_by=organiser).obj


def _side(
    prefix: str,
    organiser: Any,
    keeper: Any,
    trung_quan: Any,
    player_user: Any,
    table_keeper: Any = None,
    treasurer: Any = None,
    *,
    is_public: bool = True,
) -> Side:
    from scoring.models import ClubRole, ClubRoleKind
    from scoring.services.people import club_create
    from scoring.services.sittings import sitting_open, van_record
    from tournaments.console.services import ensure_catalogue, table_open
    from tournaments.models import EventRole, EventRoleKind, Registration, Table
    from tournaments.services.events import check_in, event_create, registration_add
    from tournaments.services.rounds import round_seat
    from tournaments.services.tokens import token_issue

    club = club_create(
        name=f"Làng {prefix}", kind="lang", slug=f"lang-{prefix.lower()}", idempotency_key=None
    ).obj
    ClubRole.objects.create(user=organiser, club=club, role=ClubRoleKind.ORGANISER)
    keeper_role = ClubRole.objects.create(user=keeper, club=club, role=ClubRoleKind.SCOREKEEPER)
    if treasurer is not None:
        ClubRole.objects.create(user=treasurer, club=club, role=ClubRoleKind.TREASURER)
    period_close = _closed_canh(club, organiser, prefix)
    sitting = sitting_open(
        game="to-tom-5",
        rules="luat-2005",
        mode="quang",
        club=club,
        created_by=organiser,
        players=[f"{n} {prefix}" for n, _ in PLAYERS],
        title=f"Canh {prefix}",
    ).obj
    seat = sitting.seats.get(position=1)
    if player_user is not None:
        seat.player.user = player_user
        seat.player.save(update_fields=["user"])
        ClubRole.objects.create(user=player_user, club=club, role=ClubRoleKind.PLAYER)
    # Two-person confirmation on, the ván entered by a table token (no account): anyone allowed
    # to review it may confirm it.
    type(sitting).objects.filter(pk=sitting.pk).update(needs_confirmation=True)
    sitting.refresh_from_db()
    van_record(sitting=sitting, seq=1, record={"winner": seat.name, "cuoc": ["tom"]}, idempotency_key=None)

    event = event_create(
        name=f"Hội {prefix}",
        date=dt.date(2025, 2, 3),
        game="to-tom-diem",
        rules="luat-2005",
        created_by=organiser,
        is_public=is_public,
    )
    for name, team in PLAYERS + MORE_PLAYERS:
        check_in(registration=registration_add(event=event, name=f"{name} {prefix}", team=team))
    round_seat(event=event, method="random", seed=3)
    table, table2 = (
        Table.objects.filter(event=event).order_by("number").select_related("sitting", "event")[:2]
    )
    event_keeper = EventRole.objects.create(user=keeper, event=event, role=EventRoleKind.SCOREKEEPER)
    EventRole.objects.create(user=trung_quan, event=event, role=EventRoleKind.TRUNG_QUAN)
    if table_keeper is not None:
        EventRole.objects.create(user=table_keeper, event=event, role=EventRoleKind.SCOREKEEPER, table=table)
    # The registration of the rows (and the seated player's own): a player at the first table;
    # ``elsewhere``: one at the second.
    registration, elsewhere = (
        Registration.objects.filter(event=event, player__seats__sitting=t.sitting)
        .select_related("player")
        .order_by("id")
        .first()
        for t in (table, table2)
    )
    if player_user is not None:
        registration.player.user = player_user
        registration.player.save(update_fields=["user"])
    token = token_issue(table=table, label="Thư ký chiếu 1", created_by=organiser)
    ensure_catalogue()
    festival = table_open(name=f"Sân đình {prefix}", event_table=table, created_by=organiser)
    extra = {
        "club_role": keeper_role,
        "event_role": event_keeper,
        "organiser": organiser,
        "club_player": seat.player,
        "table2": table2,
        "elsewhere": elsewhere,
        "period_close": period_close,
        **_connections(club, event, organiser),
    }
    return Side(club, sitting, event, table, registration, token, festival, extra)


def _connections(club: Any, event: Any, organiser: Any) -> dict[str, Any]:
    """A platform token and a webhook of the club and of the event (the online app's pages)."""
    from django.test import override_settings

    from tournaments.online.services.tokens import token_create
    from tournaments.online.services.webhooks import webhook_create

    found = {}
    with override_settings(WEBHOOK_ALLOW_PRIVATE_ADDRESSES=True):
        for kind, owner in (("club", {"club": club}), ("event", {"event": event})):
            found[f"{kind}_token"] = token_create(
                label="Chiếu Online", access="ghi", created_by=organiser, **owner
            )[0]
            found[f"{kind}_hook"] = webhook_create(
                url="http://127.0.0.1:9/hook", events=["van.recorded"], created_by=organiser, **owner
            )[0]
    return found


def build_world() -> World:
    user_model = get_user_model()
    users: dict[str, Any] = {"anon": None}
    for role in ROLES[1:]:
        users[role] = user_model.objects.create_user(f"vai-{role}", password="mat-khau-dai-123")
    outsider = users["outsider"]
    own = _side(
        "X",
        users["organiser"],
        users["keeper"],
        users["trung_quan"],
        users["player"],
        users["table_keeper"],
        users["treasurer"],
    )
    other = _side("Y", outsider, outsider, outsider, None)
    private = _side(
        "Z",
        users["organiser"],
        users["keeper"],
        users["trung_quan"],
        users["player"],
        users["table_keeper"],
        users["treasurer"],
        is_public=False,
    )
    return World(users, own, other, private)
