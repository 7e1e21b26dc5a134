"""The authorization matrix: every URL and endpoint × every role × an object of the user's own club or
event, one of another's and one of a private event. Each cell is asserted; a URL without a row fails
the completeness test.

A row names who may use the URL on the *own* side (:mod:`tests.reliability.authz_world`). On the
*other* side the same roles hold nothing, except ``outsider``, who holds every role there: a row
public to everyone stays public there; otherwise only ``outsider`` may pass. On the *private* side
(an event that is not public, where the own roles hold) a row public to everyone is open only to
those who take part in the event (issue 20, finding 5: its display, timeline, SSE stream and
signals were public), unless the row says otherwise (``private``). "Passes" means the request got
past authorization: any answer but 401, 403, 404 and a redirect to the login page (a 400 or 409 of
a deliberately empty form is a pass). Denied: 403 or 404 for a signed-in user; for a visitor, the
login page (pages) or 401/403 (API), or 404 where the event is private. Every cell runs in a
rolled-back savepoint, so no cell sees another's writes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tests.reliability.authz_world import ROLES, Side, World, build_world

pytestmark = pytest.mark.django_db
PROBE_AREA = "Authorization: every named URL × method × role × an own, another's and a private event's object"

ALL = frozenset(ROLES)
SIGNED = ALL - {"anon"}
ORG = frozenset({"organiser"})
SITTING_VIEW = frozenset({"player", "keeper", "organiser", "treasurer"})
SITTING_KEEP = frozenset({"keeper", "organiser"})
SITTING_REVIEW = frozenset({"player", "keeper", "organiser"})
TABLE_KEEP = frozenset({"keeper", "table_keeper", "organiser"})
CONSOLE = frozenset({"trung_quan", "organiser"})
STATEMENT = frozenset({"player", "keeper", "table_keeper", "organiser"})
CLUB_MEMBERS = frozenset({"player", "keeper", "organiser", "treasurer"})
#: Who takes part in an event (may see a private one): organisers, role holders, registered players.
VIEWERS = frozenset({"player", "keeper", "table_keeper", "trung_quan", "organiser"})
#: The canh of the first table: its seated player, the event's keepers (the table's own too), its
#: Trung Quân (read-only) and organisers; of the second table the same but the first table's keeper
#: and the player seated at the first (issue 20, finding 8).
TABLE_SITTING = frozenset({"player", "keeper", "table_keeper", "trung_quan", "organiser"})
TABLE2_SITTING = frozenset({"keeper", "trung_quan", "organiser"})
#: The club book: the whole of it (organisers, treasurers), a member's own statement (its player).
BOOK_KEEPERS = frozenset({"organiser", "treasurer"})
OWN_STATEMENT = frozenset({"player", "organiser", "treasurer"})

Kwargs = Callable[[Side], dict[str, Any]]


def none(_: Side) -> dict[str, Any]:
    return {}


def sitting(s: Side) -> dict[str, Any]:
    return {"pk": s.sitting.pk}


def van(s: Side) -> dict[str, Any]:
    return {"pk": s.sitting.pk, "seq": 1}


def statement(s: Side) -> dict[str, Any]:
    return {"pk": s.sitting.pk, "position": 1}


def event(s: Side) -> dict[str, Any]:
    return {"slug": s.event.slug}


def reg(s: Side) -> dict[str, Any]:
    return {"slug": s.event.slug, "reg_id": s.registration.pk}


def player(s: Side) -> dict[str, Any]:
    return {"slug": s.event.slug, "player_id": s.registration.player_id}


def player_elsewhere(s: Side) -> dict[str, Any]:
    """A player seated at the event's second table."""
    return {"slug": s.event.slug, "player_id": s.extra["elsewhere"].player_id}


def table_sitting(s: Side) -> dict[str, Any]:
    return {"pk": s.table.sitting_id}


def table2_sitting(s: Side) -> dict[str, Any]:
    return {"pk": s.extra["table2"].sitting_id}


def table(s: Side) -> dict[str, Any]:
    return {"slug": s.event.slug, "table_id": s.table.pk}


def token(s: Side) -> dict[str, Any]:
    return {**table(s), "token_id": s.token.pk}


def round_one(s: Side) -> dict[str, Any]:
    return {"slug": s.event.slug, "number": 1}


def check_in_token(s: Side) -> dict[str, Any]:
    return {"slug": s.event.slug, "token": s.registration.token}


def festival(s: Side) -> dict[str, Any]:
    return {"pk": s.festival.pk}


def festival_api(s: Side) -> dict[str, Any]:
    return {"table_id": s.festival.pk}


def club(s: Side) -> dict[str, Any]:
    return {"slug": s.club.slug}


def club_role(s: Side) -> dict[str, Any]:
    return {"slug": s.club.slug, "role_id": s.extra["club_role"].pk}


def club_player(s: Side) -> dict[str, Any]:
    return {"slug": s.club.slug, "player_id": s.extra["club_player"].pk}


def club_member(s: Side) -> dict[str, Any]:
    return {"slug": s.club.slug, "player_id": s.extra["club_player"].pk}


def club_member_api(s: Side) -> dict[str, Any]:
    return {"slug": s.club.slug, "player": str(s.extra["club_player"].pk)}


def period_close(s: Side) -> dict[str, Any]:
    return {"slug": s.club.slug, "close_id": s.extra["period_close"].pk}


def event_role(s: Side) -> dict[str, Any]:
    return {"slug": s.event.slug, "role_id": s.extra["event_role"].pk}


def event_organiser(s: Side) -> dict[str, Any]:
    return {"slug": s.event.slug, "user_id": s.extra["organiser"].pk}


def club_token(s: Side) -> dict[str, Any]:
    return {"slug": s.club.slug, "token_id": s.extra["club_token"].pk}


def club_hook(s: Side) -> dict[str, Any]:
    return {"slug": s.club.slug, "hook_id": s.extra["club_hook"].pk}


def event_token(s: Side) -> dict[str, Any]:
    return {"slug": s.event.slug, "token_id": s.extra["event_token"].pk}


def event_hook(s: Side) -> dict[str, Any]:
    return {"slug": s.event.slug, "hook_id": s.extra["event_hook"].pk}


@dataclass(frozen=True)
class Row:
    name: str
    method: str
    kwargs: Kwargs
    allowed: frozenset[str]
    data: dict[str, Any] | None = None
    #: What a visitor without the right gets: the login page, 401/403 JSON ("json", as the API), or
    #: (a table's page) 403 with the PIN form ("pin").
    visitor: str = "login"
    #: Who may use it for a private event's object (None: those who take part, if the row is
    #: public to everyone; else the same as ``allowed``).
    private: frozenset[str] | None = None

    @property
    def on_private(self) -> frozenset[str]:
        if self.private is not None:
            return self.private
        return VIEWERS if self.allowed == ALL else self.allowed

    @property
    def api(self) -> bool:
        return self.name.startswith(("api:", "console-api:", "events-api:"))

    @property
    def id(self) -> str:
        return f"{self.method} {self.name}"


G, P = "GET", "POST"
ROWS: list[Row] = [
    # Site and accounts
    Row("set_language", P, none, ALL, {"language": "vi"}),
    Row("login", G, none, ALL),
    Row("logout", P, none, ALL),
    Row("signup", G, none, ALL),
    Row("javascript-catalog", G, none, ALL),
    Row("schema", G, none, ALL),
    Row("api-docs", G, none, ALL),
    Row("favicon", G, none, ALL),
    # Scoring: public tools
    Row("scoring:home", G, none, ALL),
    Row("scoring:calculator", G, none, ALL),
    Row("scoring:kiem_bai", G, none, ALL),
    Row("scoring:rules", G, none, ALL),
    Row("scoring:rules_new", G, none, SIGNED),
    Row("scoring:service_worker", G, none, ALL),
    Row("scoring:manifest", G, none, ALL),
    Row("scoring:offline_page", G, none, ALL),
    Row("scoring:lan", G, none, ALL),
    # Scoring: the sổ điểm
    Row("scoring:sitting_list", G, none, SIGNED),
    Row("scoring:sitting_new", G, none, SIGNED),
    Row("scoring:sitting", G, sitting, SITTING_VIEW),
    Row("scoring:sitting", G, table_sitting, TABLE_SITTING),
    Row("scoring:sitting", G, table2_sitting, TABLE2_SITTING),
    Row("scoring:van_preview", P, sitting, SITTING_KEEP),
    Row("scoring:van_record", P, sitting, SITTING_KEEP),
    Row("scoring:van_correct", G, van, SITTING_KEEP),
    Row("scoring:van_correct", P, van, SITTING_KEEP),
    Row("scoring:settle_up", G, sitting, SITTING_VIEW),  # who pays whom, read-only
    Row("scoring:settle_up", P, sitting, SITTING_KEEP),
    Row("scoring:offline_pack", G, sitting, SITTING_VIEW, visitor="json"),
    Row("scoring:reports", G, sitting, SITTING_VIEW),
    Row("scoring:report_chart", G, sitting, SITTING_VIEW, visitor="json"),
    Row("scoring:report_pdf", G, sitting, SITTING_VIEW),
    Row("scoring:score_sheet", G, sitting, SITTING_VIEW),
    Row("scoring:report_backup", G, sitting, SITTING_VIEW),
    Row("scoring:report_ledger_csv", G, sitting, SITTING_VIEW),
    Row("scoring:report_van_csv", G, sitting, SITTING_VIEW),
    Row("scoring:report_ledger_xlsx", G, sitting, SITTING_VIEW),
    Row("scoring:report_van_xlsx", G, sitting, SITTING_VIEW),
    Row("scoring:report_statement_csv", G, statement, SITTING_VIEW),
    Row("scoring:report_statement_xlsx", G, statement, SITTING_VIEW),
    Row("scoring:report_statement_pdf", G, statement, SITTING_VIEW),
    Row("scoring:van_confirm", P, van, SITTING_REVIEW),
    Row("scoring:van_reject", P, van, SITTING_REVIEW, {"reason": "Sai cước"}),
    Row("scoring:sitting_audit", G, sitting, ORG),
    # Clubs and their roles
    Row("scoring:clubs", G, none, SIGNED),
    Row("scoring:club", G, club, CLUB_MEMBERS),
    Row("scoring:club_role_grant", P, club, ORG, {}),
    Row("scoring:club_role_revoke", P, club_role, ORG),
    Row("scoring:club_player_link", P, club_player, ORG, {}),
    Row("scoring:club_audit", G, club, ORG),
    Row("scoring:rules_audit", G, none, frozenset()),
    # The club book (members with a role see their own rows; organisers and treasurers all of it)
    Row("scoring:club_book", G, club, CLUB_MEMBERS),
    Row("scoring:club_book_chart", G, club, CLUB_MEMBERS, visitor="json"),
    Row("scoring:club_statement", G, club_member, OWN_STATEMENT),
    Row("scoring:club_statement_pdf", G, club_member, OWN_STATEMENT),
    Row("scoring:club_statement_csv", G, club_member, OWN_STATEMENT),
    Row("scoring:club_statement_xlsx", G, club_member, OWN_STATEMENT),
    Row("scoring:club_close", G, club, BOOK_KEEPERS),
    Row("scoring:club_close", P, club, BOOK_KEEPERS, {}),
    Row("scoring:club_close_reverse", P, period_close, BOOK_KEEPERS, {"reason": "Chốt nhầm"}),
    Row("scoring:club_ratings_rebuild", P, club, ORG),
    # API
    Row("api:score", P, none, ALL, {}),
    Row("api:check-hand", P, none, ALL, {}),
    Row("api:clubs", G, none, ALL),
    Row("api:clubs", P, none, SIGNED, {}),
    Row("api:players", G, none, SIGNED),
    Row("api:rule-sets", G, none, ALL),
    Row("api:club-balances", G, club, CLUB_MEMBERS),
    Row("api:club-member-statement", G, club_member_api, OWN_STATEMENT),
    Row("api:sittings", G, none, SIGNED),
    Row("api:sittings", P, none, SIGNED, {}),
    Row("api:sitting", G, sitting, SITTING_VIEW),
    Row("api:sitting", G, table2_sitting, TABLE2_SITTING),
    Row("api:sitting-balances", G, sitting, SITTING_VIEW),
    Row("api:sitting-history", G, sitting, SITTING_VIEW),
    Row("api:sitting-settle-up", P, sitting, SITTING_KEEP, {}),
    Row("api:van-list", G, sitting, SITTING_VIEW),
    Row("api:van-list", P, sitting, SITTING_KEEP, {}),
    Row("api:van-preview", P, sitting, SITTING_KEEP, {}),
    Row("api:van-correct", P, van, SITTING_KEEP, {}),
    Row("api:van-confirm", P, van, SITTING_REVIEW, {}),
    Row("api:van-reject", P, van, SITTING_REVIEW, {}),
    Row("console-api:table-signals", G, festival_api, ALL),  # the public timeline, as on the display
    Row("console-api:table-signals", P, festival_api, CONSOLE, {}),
    # The events API (public events: readable by all) and the import (its own checks come after the body's)
    Row("events-api:events", G, none, ALL),
    Row("events-api:event", G, event, ALL),
    Row("events-api:event-standings", G, event, ALL),
    Row("events-api:event-tables", G, event, ALL),
    Row("events-api:event-registrations", P, event, ORG, {}),
    Row("events-api:event-rounds", P, event, ORG, {}),
    Row("events-api:sittings-import", P, none, SIGNED, {}),
    # Platform connections (tokens, webhooks) of a club and of an event: their organisers
    Row("online:club_connections", G, club, ORG),
    Row("online:club_token_new", P, club, ORG, {}),
    Row("online:club_token_end", P, club_token, ORG),
    Row("online:club_hook_new", P, club, ORG, {}),
    Row("online:club_hook_log", G, club_hook, ORG),
    Row("online:club_hook_end", P, club_hook, ORG),
    Row("online:club_hook_test", P, club_hook, ORG),
    Row("online:club_hook_resume", P, club_hook, ORG),
    Row("online:event_connections", G, event, ORG),
    Row("online:event_token_new", P, event, ORG, {}),
    Row("online:event_token_end", P, event_token, ORG),
    Row("online:event_hook_new", P, event, ORG, {}),
    Row("online:event_hook_log", G, event_hook, ORG),
    Row("online:event_hook_end", P, event_hook, ORG),
    Row("online:event_hook_test", P, event_hook, ORG),
    Row("online:event_hook_resume", P, event_hook, ORG),
    # Tournaments: public
    Row("tournaments:list", G, none, ALL),
    Row("tournaments:scoreboard", G, event, ALL),
    Row("tournaments:scoreboard_all", G, event, ALL),
    Row("tournaments:projector", G, event, ALL),
    Row("tournaments:check_in_link", G, check_in_token, ALL, private=ALL),  # the player's own secret link
    Row("tournaments:export_standings", G, event, ALL),
    Row("tournaments:export_standings_xlsx", G, event, ALL),
    Row("tournaments:export_standings_pdf", G, event, ALL),
    Row("tournaments:report_chart", G, event, ALL),
    Row("tournaments:report_chart_json", G, event, ALL),
    Row("tournaments:export_statement", G, player, STATEMENT),
    Row("tournaments:export_statement", G, player_elsewhere, frozenset({"keeper", "organiser"})),
    Row("tournaments:export_statement_xlsx", G, player, STATEMENT),
    Row("tournaments:export_statement_pdf", G, player, STATEMENT),
    # Tournaments: organiser
    Row("tournaments:new", G, none, SIGNED),
    Row("tournaments:manage", G, event, ORG),
    Row("tournaments:register", P, event, ORG, {}),
    Row("tournaments:register_list", P, event, ORG, {}),
    Row("tournaments:check_in", P, reg, ORG),
    Row("tournaments:check_in_all", P, event, ORG),
    Row("tournaments:withdraw", P, reg, ORG),
    Row("tournaments:seat_round", P, event, ORG, {}),
    Row("tournaments:recompute", G, event, ORG),
    Row("tournaments:finish", P, event, ORG),
    Row("tournaments:check_in_cards", G, event, ORG),
    Row("tournaments:check_in_qr", G, reg, ORG),
    Row("tournaments:round_score_sheets", G, round_one, ORG),
    Row("tournaments:table_score_sheet", G, table, ORG),
    Row("tournaments:export_backup", G, event, ORG),
    Row("tournaments:role_add", P, event, ORG, {}),
    Row("tournaments:role_end", P, event_role, ORG),
    Row("tournaments:organiser_revoke", P, event_organiser, ORG),
    Row("tournaments:audit", G, event, ORG),
    # Tournaments: a table (a visitor without the right gets the PIN form, with status 403)
    Row("tournaments:table", G, table, TABLE_KEEP, visitor="pin"),
    Row("tournaments:table", P, table, TABLE_KEEP, {}, visitor="pin"),
    Row(
        "tournaments:table_pin", P, table, ALL, {"pin": "000000"}, private=ALL
    ),  # a PIN holder needs the form
    # only a device holding the table's token names its holder (an account is no holder of a token)
    Row("tournaments:table_holder", P, table, frozenset(), {}, visitor="pin"),
    Row("tournaments:table_close", P, table, ORG),
    Row("tournaments:table_substitute", P, table, ORG, {}),
    Row("tournaments:table_token_new", P, table, ORG, {}),
    Row("tournaments:table_token_end", P, token, ORG),
    Row("tournaments:table_pin_unlock", P, table, ORG),
    # Console (Trung Quân) and the audience display
    Row("console:login", G, none, ALL),
    Row("console:list", G, none, SIGNED),
    Row("console:console", G, festival, CONSOLE),
    Row("console:live", G, festival, CONSOLE),
    Row("console:signal", P, festival, CONSOLE, {}),
    Row("console:noc", P, festival, CONSOLE, {}),
    Row("console:turn", P, festival, CONSOLE, {}),
    Row("console:dealer", P, festival, CONSOLE, {}),
    Row("console:van_start", P, festival, CONSOLE),
    Row("console:van_form", G, festival, CONSOLE),
    Row("console:van_record", P, festival, CONSOLE, {}),
    Row("console:bat_cai", P, festival, CONSOLE, {}),
    Row("console:u_de", P, festival, CONSOLE, {}),
    Row("console:display", G, festival, ALL),
    Row("console:timeline", G, festival, ALL),
]

#: Named URLs with no row, and why.
EXEMPT = {
    "console-events": "the SSE stream never ends (a test client would hang); the display's public "
    "stream carries only what the public display shows, tested in tests/console; a "
    "private event's stream: test_probe_private_event.py",
    "board-events": "an event board's SSE stream never ends (a test client would hang); it carries only "
    "the public board its pages show; a private event's, an unknown page's or language's stream is 404: "
    "tests/tournaments/test_board_push.py::test_a_private_events_board_stream_is_not_found_for_a_stranger",
    "events-api:job": "an import job is its owner's alone: anyone else, signed in or not, gets the "
    "404 of a job that does not exist (no 403 that would confirm its id): "
    "tests/online/test_import_jobs.py::test_a_job_is_its_owner_s_alone",
    "scoring:lan_certificate": "the LAN's CA certificate, public to anyone who reaches the laptop, "
    "exists only while `make run HOST=0.0.0.0` serves the LAN's HTTPS (404 otherwise): "
    "tests/offline/test_lan.py and tests/journeys/test_festival_lan.py",
}

#: The rows whose object belongs to an event: they are also asked of the private event's object.
EVENT_OBJECTS = {
    event,
    reg,
    player,
    player_elsewhere,
    table,
    token,
    round_one,
    check_in_token,
    festival,
    festival_api,
    event_role,
    event_organiser,
}


def _names(patterns: list[Any], namespace: str | None = None) -> set[str]:
    names: set[str] = set()
    for p in patterns:
        if isinstance(p, URLResolver):
            if p.namespace == "admin":
                continue
            names |= _names(p.url_patterns, p.namespace or namespace)
        elif isinstance(p, URLPattern) and p.name:
            names.add(f"{namespace}:{p.name}" if namespace else p.name)
    return names


def test_every_named_url_has_a_row_of_the_matrix() -> None:
    covered = {row.name for row in ROWS} | set(EXEMPT)
    missing = _names(get_resolver().url_patterns) - covered
    assert not missing, f"URLs without a row in the authorization matrix: {sorted(missing)}"
    stale = covered - _names(get_resolver().url_patterns)
    assert not stale, f"rows for URLs that no longer exist: {sorted(stale)}"


@pytest.fixture(scope="module")
def world(django_db_setup: Any, django_db_blocker: Any) -> Iterator[World]:
    """Built once for the module inside a transaction rolled back at its end; each test's own
    transaction (and each cell's) is a savepoint inside it."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield build_world()
        transaction.set_rollback(True)


def expected(row: Row, role: str, side: str) -> bool:
    if side == "private":
        return role in row.on_private
    if row.allowed == ALL:
        return True
    if side == "own":
        return role in row.allowed
    return role == "outsider" and bool(row.allowed - {"anon"})


def _request(row: Row, world: World, role: str, side: str) -> Any:
    client = Client()
    user = world.users[role]
    if user is not None:
        client.force_login(user)
    url = reverse(row.name, kwargs=row.kwargs(world.side(side)))
    if row.method == G:
        return client.get(url)
    if row.api:
        return client.post(
            url,
            row.data or {},
            content_type="application/json",
            headers={"Idempotency-Key": f"matrix-{role}-{side}-{row.id}"},
        )
    return client.post(url, row.data or {})


def _passed(response: Any) -> bool:
    if response.status_code in (401, 403, 404):
        return False
    return not (response.status_code in (301, 302) and "/dang-nhap/" in response.get("Location", ""))


def _sent_to_login(row: Row, response: Any, side: str) -> bool:
    if side == "private" and response.status_code == 404:  # a private event's existence is private
        return True
    if row.visitor == "pin":
        return response.status_code == 403 and b'name="pin"' in response.content
    if row.api or row.visitor == "json":
        return response.status_code in (401, 403)
    return response.status_code == 302 and "/dang-nhap/" in response["Location"]


def _sides(row: Row) -> tuple[str, ...]:
    if row.kwargs is none:
        return ("own",)
    return ("own", "other", "private") if row.kwargs in EVENT_OBJECTS else ("own", "other")


@pytest.mark.parametrize("row", ROWS, ids=[f"{r.id} {r.kwargs.__name__}" for r in ROWS])
def test_authorization_cell(row: Row, world: World, probe: Any) -> None:
    for side in _sides(row):
        for role in ROLES:
            with transaction.atomic():
                response = _request(row, world, role, side)
                transaction.set_rollback(True)
            want = expected(row, role, side)
            got = _passed(response)
            cell = f"{row.id}: {role}@{side}: {response.status_code} {response.get('Location', '')}".strip()
            if want != got:
                probe.check(False, f"{cell} (expected {'pass' if want else 'denied'})")
            elif not want and role == "anon":
                probe.check(
                    _sent_to_login(row, response, side),
                    f"{cell} (a visitor must be sent to the login page / get 401)",
                )
            elif not want:
                probe.check(
                    response.status_code in (403, 404),
                    f"{cell} (a signed-in user without the right gets 403 or 404)",
                )
            else:
                probe.check(True, cell)


def _listed_sittings(client: Client) -> tuple[set[int], str]:
    ids = {s["id"] for s in client.get("/api/v1/sittings").json()}
    return ids, client.get(reverse("scoring:sitting_list")).content.decode()


@pytest.mark.parametrize(
    "role, first, second",
    [
        ("table_keeper", True, False),
        ("keeper", True, True),
        ("trung_quan", True, True),
        ("organiser", True, True),
    ],
)
def test_sitting_lists_show_only_the_canh_a_role_reaches(
    world: World, probe: Any, role: str, first: bool, second: bool
) -> None:
    """Finding 8: a scorekeeper of one table listed every canh of the event (titles, players)."""
    client = Client()
    client.force_login(world.users[role])
    ids, page = _listed_sittings(client)
    for side in ("own", "private"):
        s = world.side(side)
        for sitting_id, want in ((s.table.sitting_id, first), (s.extra["table2"].sitting_id, second)):
            listed = f'href="/so-diem/{sitting_id}/"' in page
            probe.check(
                (sitting_id in ids) == want and listed == want,
                f"{role}: sitting {sitting_id} of {side} listed by the API {sitting_id in ids}, "
                f"by the page {listed}; expected {want}",
            )
    players = {p["name"] for p in client.get("/api/v1/players").json()}
    others = {seat.name for seat in world.own.extra["table2"].sitting.seats.all()}
    probe.check(
        bool(players & others) == second, f"{role}: players of the second table known: {players & others}"
    )
