"""schemathesis against ``/api/schema/`` as four identities: anonymous, a scorekeeper (a token
header), another club's scorekeeper, and an online platform (a write platform token of the
scorekeeper's event, ``Authorization: Bearer``). The ``st`` command runs against a live daphne server on
the test database, every phase (examples, coverage, fuzzing, stateful) and every check (server
errors, status codes, content types, response schemas and headers, negative and positive data,
authentication, undeclared methods).

The world: club "Làng Đông", where ``keeper`` keeps score, with a sitting of one ván and a
festival table whose Trung Quân is ``keeper`` (so the signals are exercised too), and an event
"Hội Làng Đông" that ``keeper`` organises (ten players checked in, round 1 seated); club "Làng
Đoài", where ``outsider`` keeps score, with a sitting of its own. Half the generated sitting ids
(and table ids, and event slugs) name Làng Đông's: the scorekeeper's own, and the first club's
for the outsider.

Zero server errors (``ST101``) and zero response-schema violations (``ST108``) for everyone.
The other findings that remain are listed in :data:`KNOWN`, each with the reason the schema
cannot say it (docs/reliability.md, finding 4); any other finding fails the test. The outsider
also gets, checked one by one with a plain Django test client, 403 or 404 on every operation on
the first club's sitting and table, and writes nothing there.

Every generated ``Idempotency-Key`` that the schema allows is replaced by a fresh one just before
the call (a hook): a key reused for another body is refused with 422 by design (the key's whole
point), and with schemathesis's short keys ("0") nearly every write would stop there.
"""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from tests.factories import open_sitting, record_all
from tests.reliability.harness import AppServer, figure

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ST = Path(sys.executable).with_name("st")
SITTING_READS = [
    "GET /api/v1/sittings/{id}",
    "GET /api/v1/sittings/{id}/balances",
    "GET /api/v1/sittings/{id}/history",
    "GET /api/v1/sittings/{id}/van",
]
SITTING_WRITES = [
    "POST /api/v1/sittings/{id}/van",
    "POST /api/v1/sittings/{id}/van/preview",
    "POST /api/v1/sittings/{id}/van/{seq}/correct",
    "POST /api/v1/sittings/{id}/settle-up",
    "POST /api/v1/sittings/{id}/van/{seq}/confirm",
    "POST /api/v1/sittings/{id}/van/{seq}/reject",
]
SITTING_OPS = SITTING_READS + SITTING_WRITES
CONTRACTS = ["POST /api/v1/score", "POST /api/v1/check-hand"]
EVENT_WRITES = ["POST /api/v1/events/{slug}/registrations", "POST /api/v1/events/{slug}/rounds"]
IMPORT = "POST /api/v1/sittings/import"
STATEFUL = "Stateful tests"


def _known() -> dict[tuple[str, str], str]:
    known: dict[tuple[str, str], str] = {}

    def add(code: str, ops: list[str], why: str) -> None:
        known.update({(code, op): why for op in ops})

    # ST202 "schema-valid request rejected": a 400 for a body the schema allows, because what is
    # refused depends on data JSON Schema cannot name.
    add(
        "ST202",
        CONTRACTS,
        "a cước must belong to the game and the rule set ('' or 'abc' is a string but no "
        "cước), a rule set slug must exist, a hand must have the game's number of cards",
    )
    add(
        "ST202",
        ["POST /api/v1/sittings"],
        "the rule set slug must exist, the players must be as many as the game "
        "seats, a player id must be one the account may seat",
    )
    add(
        "ST202",
        [
            "POST /api/v1/sittings/{id}/van",
            "POST /api/v1/sittings/{id}/van/preview",
            "POST /api/v1/sittings/{id}/van/{seq}/correct",
            STATEFUL,
        ],
        "a ván must name players seated in that sitting, cước of its game, and a result (winner, draw or báo); "
        "van: seq must be the next number (else 409)",
    )
    add(
        "ST202",
        ["POST /api/v1/clubs"],
        "a club's slug (from its name when not given) must be new: the second club called '0' is refused",
    )
    add(
        "ST202",
        ["GET /api/v1/clubs", "GET /api/v1/players"],
        "'cursor' must be one a Link header gave (an encoded position in the list): any other string "
        "is a 400 bad_cursor",
    )
    add(
        "ST202",
        ["POST /api/v1/players", "POST /api/v1/sittings"],
        "'club' must be the slug of an existing club",
    )
    add(
        "ST202",
        ["POST /api/v1/sittings/{id}/van/{seq}/reject"],
        "every integer anywhere in a body must fit in "
        "64 bits, in properties the schema does not name too (the API's JSON parser refuses a larger one with a 400 "
        "naming it: scoring/api/parsers.py, tests/reliability/test_probe_bad_input.py); JSON Schema cannot bound "
        "the numbers of unnamed properties",
    )
    add(
        "ST202",
        ["POST /api/v1/tables/{table_id}/signals"],
        "the signal must be one of the catalogue's (or the "
        "village's own), given from a seat allowed to give it (khai-hoi: only the Trung Quân), while a ván is "
        "under way",
    )
    add(
        "ST202",
        ["POST /api/v1/events/{slug}/registrations"],
        "a name already registered in the event is refused "
        "(names are unique within an event: a table's seats are named after the players)",
    )
    add(
        "ST202",
        ["POST /api/v1/events/{slug}/rounds"],
        "seating needs enough checked-in players for a table of the "
        "game; a round is refused (409) while the previous one has open tables, unless forced",
    )
    add(
        "ST202",
        [IMPORT],
        "exactly one of 'club' (an existing club's slug) and 'table' (an existing table's id) "
        "must be given; the rule set slug must exist, the players must be as many as the game seats, each ván must "
        "name them and be one the engine settles (else 422 with its number)",
    )
    add(
        "ST202",
        ["GET /api/v1/clubs/{slug}/balances", "GET /api/v1/clubs/{slug}/members/{player}/statement"],
        "a period must end on or after its start and lie within the years the lunar calendar covers "
        "(400 naming the dates); JSON Schema cannot compare two parameters",
    )
    return known


KNOWN = _known()
HOOKS = '''
"""Fresh Idempotency-Key for every call (tests/reliability/test_api_schema.py)."""
import uuid

import schemathesis


@schemathesis.hook
def before_call(context, case, kwargs):
    key = (case.headers or {}).get("Idempotency-Key")
    if isinstance(key, str) and key.strip() and len(key) <= 255:
        case.headers["Idempotency-Key"] = f"st-{uuid.uuid4()}"
'''


@dataclass
class World:
    """Làng Đông (``keeper``'s club: ``sitting``, ``table``, ``event``) and Làng Đoài (``outsider``'s)."""

    keeper: Any
    outsider: Any
    sitting: Any
    table: Any
    own_sitting_of_outsider: Any
    event: Any = None
    #: A write platform token of ``event`` (created by ``keeper``, its organiser).
    platform_token: str = ""


def _world(keeper: Any, outsider: Any) -> World:
    from scoring.models import ClubRole, ClubRoleKind
    from scoring.services.people import club_create
    from tournaments.console.services import ensure_catalogue, table_open

    dong = club_create(name="Làng Đông", kind="lang", slug="lang-dong", idempotency_key=None).obj
    doai = club_create(name="Làng Đoài", kind="lang", slug="lang-doai", idempotency_key=None).obj
    ClubRole.objects.create(user=keeper, club=dong, role=ClubRoleKind.SCOREKEEPER)
    ClubRole.objects.create(user=outsider, club=doai, role=ClubRoleKind.SCOREKEEPER)
    sitting = open_sitting(created_by=keeper, club=dong, players=["An", "Bình", "Chi", "Dũng", "Em"])
    record_all(sitting, [{"winner": "An", "cuoc": ["tom"], "discarder": "Bình"}], entered_by=keeper)
    theirs = open_sitting(created_by=outsider, club=doai, players=["Giáp", "Ất", "Bính", "Đinh", "Mậu"])
    record_all(theirs, [{"winner": "Giáp", "cuoc": ["tom"]}], entered_by=outsider)
    ensure_catalogue()
    table = table_open(
        name="Chiếu sân đình Làng Đông",
        players=["Hai", "Ba", "Tư", "Năm", "Sáu"],
        club=dong,
        trung_quan=keeper,
        created_by=keeper,
    )
    event, token = _event(keeper)
    return World(keeper, outsider, sitting, table, theirs, event, token)


def _event(keeper: Any) -> tuple[Any, str]:
    """ "Hội Làng Đông", organised by ``keeper``: ten players checked in, round 1 seated; and a write
    platform token of it."""
    import datetime as dt

    from tournaments.online.services.tokens import token_create
    from tournaments.services.events import check_in, event_create, registration_add
    from tournaments.services.rounds import round_seat

    event = event_create(
        name="Hội Làng Đông",
        date=dt.date(2025, 2, 3),
        game="to-tom-5",
        rules="luat-2005",
        slug="hoi-lang-dong",
        created_by=keeper,
    )
    for name in ["Giáp", "Ất", "Bính", "Đinh", "Mậu", "Kỷ", "Canh", "Tân", "Nhâm", "Quý"]:
        check_in(registration=registration_add(event=event, name=f"Cụ {name}", team="Giáp Đông"))
    round_seat(event=event, method="random", seed=4)
    _, raw = token_create(label="Chiếu Online", access="ghi", created_by=keeper, event=event)
    return event, raw


@pytest.fixture
def world(keeper: Any, django_user_model: Any) -> World:
    return _world(keeper, django_user_model.objects.create_user("thu-ky-lang-doai"))


def _config(tmp: Path, world: World, caller: Any) -> Path:
    hooks = tmp / "st_hooks.py"
    hooks.write_text(HOOKS)
    auth = ""
    if caller == PLATFORM:
        auth = f'\n[auth.openapi.bearerAuth]\nbearer = "{world.platform_token}"\n'
    elif caller is not None:
        from rest_framework.authtoken.models import Token

        # OpenAPI-aware: schemathesis knows which credentials it sends (and that a session cookie
        # it may add is not one).
        auth = f'\n[auth.openapi.tokenAuth]\napi_key = "Token {Token.objects.get_or_create(user=caller)[0].key}"\n'
    config = tmp / "schemathesis.toml"
    config.write_text(
        f'hooks = "{hooks}"\n\n'
        # NUL cannot be stored (PostgreSQL text): every string with one is refused with 400, which
        # test_a_nul_byte_in_text_is_a_400_not_a_500 below asserts; the schema does not say it.
        "[generation]\nallow-x00 = false\n\n"
        f"[dictionaries.sittings]\nvalues = [{world.sitting.pk}]\n\n"
        f"[dictionaries.tables]\nvalues = [{world.table.pk}]\n\n"
        f'[dictionaries.events]\nvalues = ["{world.event.slug}"]\n\n'
        "[parameters]\n"
        '"path.id" = { dictionary = "sittings", probability = 0.5 }\n'
        '"path.table_id" = { dictionary = "tables", probability = 0.5 }\n'
        '"path.slug" = { dictionary = "events", probability = 0.5 }\n' + auth
    )
    return config


#: The caller that is an online platform (the world's platform token) rather than an account.
PLATFORM = "platform"


def _run_schemathesis(
    server: AppServer, tmp: Path, world: World, *, examples: int, seed: int, caller: Any = None
) -> dict[str, Any]:
    """Run ``st`` (as ``caller``, with its token, when given; else anonymously)."""
    report = tmp / "report.json"
    done = subprocess.run(
        [
            str(ST),
            "--config-file",
            str(_config(tmp, world, caller)),
            "run",
            f"http://127.0.0.1:{server.port}/api/schema/",
            "--checks",
            "all",
            "--max-examples",
            str(examples),
            "--seed",
            str(seed),
            "--workers",
            "1",
            "--report",
            "json",
            "--report-json-path",
            str(report),
            "--no-color",
        ],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert report.exists(), done.stdout[-3000:] + done.stderr[-3000:]
    result: dict[str, Any] = json.loads(report.read_text())
    result["output"] = done.stdout
    (tmp / "st-output.txt").write_text(done.stdout)  # the whole report, kept for a look afterwards
    return result


def _judge(result: dict[str, Any], who: str) -> None:
    found = {(f["code"], op): f["title"] for f in result["failures"] for op in f["operations"]}
    server_errors = sorted(op for (code, op) in found if code == "ST101")
    violations = sorted(op for (code, op) in found if code == "ST108")
    new = sorted(f"{code} {title}: {op}" for (code, op), title in found.items() if (code, op) not in KNOWN)
    cases = result["test_cases"]
    figure(
        f"schemathesis ({who}, all phases and checks)",
        f"{result['operations']['tested']} operations, {cases['generated']} cases, "
        f"{len(server_errors)} server errors, {len(violations)} schema violations, "
        f"{len(found)} known findings ({len(new)} new), {result['running_time']:.0f} s",
    )
    assert result["errors"] == [], result["output"][-3000:]
    assert server_errors == [], f"5xx on {server_errors}:\n{result['output'][-6000:]}"
    assert violations == [], f"answers outside the schema on {violations}:\n{result['output'][-6000:]}"
    assert new == [], "\n".join(new) + "\n" + result["output"][-6000:]


def _untouched(world: World, before: tuple[Any, ...]) -> None:
    assert _footprint(world) == before, "the outsider changed the first club's sitting or table"


def _footprint(world: World) -> tuple[Any, ...]:
    """What the outsider must not change: the first club's ván, ledger, reviews, end, signals, and its event's
    registrations, rounds and ván."""
    from scoring.models import Van, VanReview
    from tournaments.console.models import SignalEvent

    s = world.sitting
    s.refresh_from_db()
    event = world.event
    return (
        list(s.van.values_list("id", "status")),
        s.transactions.count(),
        s.ended_at,
        VanReview.objects.filter(van__sitting=s).count(),
        SignalEvent.objects.filter(table=world.table).count(),
        event.registrations.count(),
        event.rounds.count(),
        Van.objects.filter(sitting__event_canh__event=event).count(),
    )


def test_schemathesis_as_anonymous(app_server: AppServer, tmp_path: Path, world: World) -> None:
    _judge(_run_schemathesis(app_server, tmp_path, world, examples=8, seed=20250203), "anonymous")


@pytest.mark.slow
def test_schemathesis_as_anonymous_many_examples(app_server: AppServer, tmp_path: Path, world: World) -> None:
    _judge(_run_schemathesis(app_server, tmp_path, world, examples=100, seed=7), "anonymous")


def test_schemathesis_as_a_scorekeeper(app_server: AppServer, tmp_path: Path, world: World) -> None:
    _judge(
        _run_schemathesis(app_server, tmp_path, world, examples=8, seed=20250203, caller=world.keeper),
        "scorekeeper",
    )


def test_schemathesis_as_an_online_platform(app_server: AppServer, tmp_path: Path, world: World) -> None:
    _judge(
        _run_schemathesis(app_server, tmp_path, world, examples=8, seed=20250203, caller=PLATFORM),
        "online platform (write token of the event)",
    )


@pytest.mark.slow
def test_schemathesis_as_an_online_platform_many_examples(
    app_server: AppServer, tmp_path: Path, world: World
) -> None:
    _judge(
        _run_schemathesis(app_server, tmp_path, world, examples=100, seed=7, caller=PLATFORM),
        "online platform (write token of the event)",
    )


@pytest.mark.slow
def test_schemathesis_as_a_scorekeeper_many_examples(
    app_server: AppServer, tmp_path: Path, world: World
) -> None:
    _judge(
        _run_schemathesis(app_server, tmp_path, world, examples=100, seed=7, caller=world.keeper),
        "scorekeeper",
    )


def test_schemathesis_as_another_clubs_scorekeeper(
    app_server: AppServer, tmp_path: Path, world: World
) -> None:
    before = _footprint(world)
    _judge(
        _run_schemathesis(app_server, tmp_path, world, examples=8, seed=20250203, caller=world.outsider),
        "another club's scorekeeper",
    )
    _untouched(world, before)


@pytest.mark.slow
def test_schemathesis_as_another_clubs_scorekeeper_many_examples(
    app_server: AppServer, tmp_path: Path, world: World
) -> None:
    before = _footprint(world)
    _judge(
        _run_schemathesis(app_server, tmp_path, world, examples=100, seed=7, caller=world.outsider),
        "another club's scorekeeper",
    )
    _untouched(world, before)


# -- another club's scorekeeper, operation by operation -----------------------------------------------

VAN = {"winner": "An", "cuoc": ["tom"], "discarder": "Bình"}
BODIES: dict[str, Any] = {
    "POST /api/v1/sittings/{id}/van": {"seq": 2, **VAN},
    "POST /api/v1/sittings/{id}/van/preview": VAN,
    "POST /api/v1/sittings/{id}/van/{seq}/correct": {"reason": "Ghi nhầm", **VAN},
    "POST /api/v1/sittings/{id}/van/{seq}/reject": {"reason": "Sai"},
    "POST /api/v1/tables/{table_id}/signals": {"seat": 3, "signal": "tung-tung"},
    "POST /api/v1/events/{slug}/registrations": {"name": "Kẻ lạ", "check_in": True},
    "POST /api/v1/events/{slug}/rounds": {"method": "random", "force": True},
}
#: The event's operations the outsider tries on the first club's event (``keeper`` organises it).
EVENT_OPS = [*EVENT_WRITES, IMPORT]


def _import_body(world: World) -> dict[str, Any]:
    """The first table of the event, imported whole with its own seats (valid: only the right is missing)."""
    from tournaments.models import Table

    table = Table.objects.filter(event=world.event).order_by("number").first()
    seats = list(table.sitting.seats.order_by("position").values_list("name", flat=True))
    return {
        "game": "to-tom-5",
        "rules": "luat-2005",
        "players": seats,
        "van": [{"winner": seats[0], "cuoc": ["tom"]}],
        "table": table.pk,
    }


def _clients(user: Any) -> dict[str, Any]:
    """The outsider by token (as the phones and schemathesis) and by the site's session."""
    from rest_framework.authtoken.models import Token

    token = Client(
        raise_request_exception=False,
        HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}",
    )
    session = Client(raise_request_exception=False)
    session.force_login(user)
    return {"token": token, "session": session}


@pytest.mark.django_db
def test_another_clubs_scorekeeper_gets_403_or_404_on_every_operation_of_the_first_club(
    keeper: Any, django_user_model: Any
) -> None:
    world = _world(keeper, django_user_model.objects.create_user("thu-ky-lang-doai"))
    before = _footprint(world)
    ops = [*SITTING_OPS, "POST /api/v1/tables/{table_id}/signals", *EVENT_OPS]
    answered = {}
    for how, client in _clients(world.outsider).items():
        for op in ops:
            method, template = op.split(" ")
            path = template.format(id=world.sitting.pk, seq=1, table_id=world.table.pk, slug=world.event.slug)
            body = _import_body(world) if op == IMPORT else BODIES.get(op, {})
            if method == "GET":
                response = client.get(path)
            else:
                response = client.post(
                    path,
                    json.dumps(body),
                    content_type="application/json",
                    HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
                )
            answered[how, op] = response.status_code
            assert response.status_code in (403, 404), (how, op, response.status_code, response.content[:300])
            assert response["Content-Type"] == "application/json" and response.json()["error"], (how, op)
    assert set(answered) == {(how, op) for how in ("token", "session") for op in ops}
    _untouched(world, before)
    # and their own club's sitting answers (the refusals above are about the club, not the account)
    own = _clients(world.outsider)["token"].get(f"/api/v1/sittings/{world.own_sitting_of_outsider.pk}")
    assert own.status_code == 200


NUL = "a\x00"
BASE = {
    "game": "to-tom-5",
    "rules": "luat-2005",
    "mode": "quang",
    "players": ["An", "Bình", "Chi", "Dũng", "Em"],
}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/v1/sittings", {**BASE, "club": NUL}),
        ("/api/v1/sittings", {**BASE, "title": NUL}),
        ("/api/v1/sittings", {**BASE, "players": [NUL, "Bình", "Chi", "Dũng", "Em"]}),
        ("/api/v1/clubs", {"name": NUL, "kind": "lang"}),
        ("/api/v1/players", {"name": NUL}),
        ("/api/v1/players?club=a%00", None),
        ("correct", {"winner": "An", "cuoc": ["tom"], "reason": NUL}),
    ],
)
def test_a_nul_byte_in_text_is_a_400_not_a_500(keeper: Any, path: str, body: Any) -> None:
    """Found by schemathesis (``POST /api/v1/sittings`` with ``"club": "\\u0017\\u0000\\u008b"``)."""
    client = Client(raise_request_exception=False)
    client.force_login(keeper)
    if path == "correct":
        sitting = open_sitting(created_by=keeper)
        record_all(sitting, [{"winner": "An", "cuoc": ["tom"]}])
        path = f"/api/v1/sittings/{sitting.pk}/van/1/correct"
    if body is None:
        response = client.get(path)
    else:
        response = client.post(
            path, json.dumps(body), content_type="application/json", HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4())
        )
    assert response.status_code == 400
