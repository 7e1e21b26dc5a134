"""The audit trails (nhật ký) of a sitting, a club and the village rule sets: every create,
correction, confirmation, role change and rule-set change is shown with who and when (Vietnam's
time), newest first, only to the people allowed, and downloads as a CSV that Excel opens."""

from __future__ import annotations

import csv
import datetime as dt
import html as htmllib
import io
import re
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from django.utils import timezone
from simple_history.models import HistoricalRecords

from scoring.models import ClubRole, ClubRoleKind, Player, Sitting, VillageRuleSet
from scoring.selectors.audit import sitting_audit
from scoring.services.review import van_confirm, van_reject
from scoring.services.rules import village_rules_save
from scoring.services.sittings import sitting_open, van_correct, van_record
from tests.factories import ClubFactory

pytestmark = pytest.mark.django_db

PLAYERS = ["An", "Bình", "Chi", "Dũng", "Em"]
VIETNAM = dt.timezone(dt.timedelta(hours=7))
START = dt.datetime(2025, 2, 3, 8, 0, tzinfo=VIETNAM)  # mùng 6 Tết, 8 giờ sáng


class Clock:
    """``timezone.now`` for the test: it stands still until moved (every write is stamped by it)."""

    def __init__(self) -> None:
        self.at = START

    def __call__(self) -> dt.datetime:
        return self.at.astimezone(dt.UTC)

    def minutes(self, n: int) -> str:
        """Move to START + n minutes; the time as the audit page shows it."""
        self.at = START + dt.timedelta(minutes=n)
        return self.at.strftime("%d/%m/%Y %H:%M:%S")


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    c = Clock()
    monkeypatch.setattr(timezone, "now", c)
    return c


@pytest.fixture
def people(django_user_model: Any) -> SimpleNamespace:
    def make(username: str, first: str = "", last: str = "", **extra: Any) -> Any:
        return django_user_model.objects.create_user(
            username, password="mat-khau-dai-123", first_name=first, last_name=last, **extra
        )

    return SimpleNamespace(
        organiser=make("chu-so", "Lan", "Trần"),
        keeper=make("thu-ky", "Hùng", "Lê"),
        player=make("an"),
        outsider=make("nguoi-ngoai"),
        staff=make("quan-tri", is_staff=True),
    )


@pytest.fixture
def club(people: SimpleNamespace) -> Any:
    club = ClubFactory(name="Làng Đông", slug="lang-dong")
    ClubRole.objects.create(user=people.organiser, club=club, role=ClubRoleKind.ORGANISER)
    ClubRole.objects.create(
        user=people.keeper, club=club, role=ClubRoleKind.SCOREKEEPER, granted_by=people.organiser
    )
    return club


@pytest.fixture
def acting_as() -> Iterator[Callable[[Any], None]]:
    """Changes made as if in ``user``'s request (simple-history's middleware does this for pages)."""

    def act(user: Any) -> None:
        HistoricalRecords.context.request = SimpleNamespace(user=user)

    yield act
    if hasattr(HistoricalRecords.context, "request"):
        del HistoricalRecords.context.request


def rows(response: Any) -> list[dict[str, str]]:
    """The audit table as shown: time, who, action, object, detail of each row, top to bottom."""
    body = response.content.decode()
    found = []
    for row in re.findall(r'<tr data-testid="audit-row">(.*?)</tr>', body, re.S):
        cells = [
            htmllib.unescape(re.sub(r"<[^>]+>", "", c)).strip()
            for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        ]
        found.append(dict(zip(("time", "who", "action", "object", "detail"), cells, strict=True)))
    return found


def seated_player(sitting: Sitting, user: Any) -> None:
    Player.objects.filter(seats__sitting=sitting, name="An").update(user=user)


def test_a_sitting_s_trail_shows_entries_corrections_and_reviews_with_who_and_when(
    client, clock, people, club
):
    opened_at = clock.minutes(0)
    sitting = sitting_open(
        game="to-tom-5",
        rules="luat-2005",
        mode="quang",
        players=PLAYERS,
        club=club,
        created_by=people.keeper,
        needs_confirmation=True,
        idempotency_key=None,
    ).obj
    seated_player(sitting, people.player)
    entered_at = clock.minutes(5)
    van_record(
        sitting=sitting,
        seq=1,
        record={"winner": "Bình", "cuoc": ["tom"]},
        entered_by=people.keeper,
        idempotency_key=None,
    )
    rejected_at = clock.minutes(6)
    van_reject(sitting=sitting, seq=1, reviewer=people.player, reason="Chi ù mới đúng")
    corrected_at = clock.minutes(8)
    van_correct(
        van=sitting.van.get(seq=1),
        record={"winner": "Chi", "cuoc": ["tom"]},
        reason="ghi nhầm người ù",
        corrected_by=people.keeper,
        idempotency_key=None,
    )
    confirmed_at = clock.minutes(9)
    van_confirm(sitting=sitting, seq=1, reviewer=people.player)

    client.force_login(people.organiser)
    page = client.get(f"/so-diem/{sitting.pk}/nhat-ky/")

    assert page.status_code == 200
    shown = rows(page)
    # A review names the reviewer's account and the seated player it stands for (issue 30: who
    # confirmed, by identity).
    assert [(r["time"], r["who"], r["action"]) for r in shown] == [
        (confirmed_at, "an (An)", "Xác nhận ván 1"),
        (corrected_at, "Hùng Lê", "Sửa ván 1: ghi nhầm người ù"),
        (rejected_at, "an (An)", "Bác ván 1: Chi ù mới đúng"),
        (entered_at, "Hùng Lê", "Ghi ván 1"),
        (opened_at, "Hùng Lê", "Mở canh bài"),
    ]
    assert "Chi" in shown[1]["detail"] and "Bình" in shown[3]["detail"]
    assert "An, Bình, Chi, Dũng, Em" in shown[4]["detail"]


def test_the_sitting_page_links_its_trail_only_for_those_who_may_audit(client, people, club):
    sitting = sitting_open(
        game="to-tom-5",
        rules="luat-2005",
        mode="quang",
        players=PLAYERS,
        club=club,
        created_by=people.keeper,
        idempotency_key=None,
    ).obj
    link = f'href="/so-diem/{sitting.pk}/nhat-ky/"'
    client.force_login(people.organiser)
    assert link in client.get(f"/so-diem/{sitting.pk}/").content.decode()
    seated_player(sitting, people.player)
    client.force_login(people.player)
    page = client.get(f"/so-diem/{sitting.pk}/")
    assert page.status_code == 200 and link not in page.content.decode()


def test_only_auditors_see_a_sitting_s_trail(client, people, club):
    sitting = sitting_open(
        game="to-tom-5",
        rules="luat-2005",
        mode="quang",
        players=PLAYERS,
        club=club,
        created_by=people.keeper,
        idempotency_key=None,
    ).obj
    seated_player(sitting, people.player)
    url = f"/so-diem/{sitting.pk}/nhat-ky/"

    anonymous = client.get(url)
    assert anonymous.status_code == 302 and anonymous["Location"] == f"/dang-nhap/?next={url}"
    # A club's sitting answers to the club's roles: its opener, a scorekeeper, is not an auditor.
    for who in (people.outsider, people.player, people.keeper):
        client.force_login(who)
        denied = client.get(url)
        assert denied.status_code == 403
        assert "Chỉ người mở canh bài" in denied.content.decode()
    for who in (people.organiser, people.staff):  # the club's organiser, staff
        client.force_login(who)
        assert client.get(url).status_code == 200
    assert client.get("/so-diem/999999/nhat-ky/").status_code == 404


def test_the_club_trail_shows_roles_granted_and_revoked_and_sittings_opened(client, clock, people, acting_as):
    club = ClubFactory(name="Làng Đoài", slug="lang-doai")
    granted_at = clock.minutes(0)
    ClubRole.objects.create(
        user=people.organiser, club=club, role=ClubRoleKind.ORGANISER
    )  # outside a request
    keeper_at = clock.minutes(2)
    role = ClubRole.objects.create(
        user=people.keeper, club=club, role=ClubRoleKind.SCOREKEEPER, granted_by=people.organiser
    )
    opened_at = clock.minutes(3)
    sitting = sitting_open(
        game="to-tom-5",
        rules="luat-2005",
        mode="quang",
        players=PLAYERS,
        club=club,
        created_by=people.keeper,
        idempotency_key=None,
    ).obj
    van_record(
        sitting=sitting,
        seq=1,
        record={"winner": "An", "cuoc": ["tom"]},
        entered_by=people.keeper,
        idempotency_key=None,
    )
    revoked_at = clock.minutes(7)
    acting_as(people.organiser)  # as the role pages do: the request's user is the history's
    role.delete()

    client.force_login(people.organiser)
    shown = rows(client.get("/lang/lang-doai/nhat-ky/"))
    assert [(r["time"], r["who"], r["action"]) for r in shown] == [
        (revoked_at, "Lan Trần", "Thu hồi vai trò Thư ký ghi điểm của Hùng Lê"),
        (opened_at, "Hùng Lê", "Mở canh bài"),
        (keeper_at, "Lan Trần", "Cấp vai trò Thư ký ghi điểm cho Hùng Lê"),  # granted_by, no request
        (granted_at, "—", "Cấp vai trò Chủ sổ (ban tổ chức) cho Lan Trần"),
    ]
    assert shown[1]["object"] == str(sitting)  # the canh, not each of its ván


def test_only_the_club_s_organisers_see_its_trail(client, people, club):
    url = "/lang/lang-dong/nhat-ky/"
    assert client.get(url)["Location"] == f"/dang-nhap/?next={url}"
    client.force_login(people.keeper)  # a scorekeeper of the club, not its organiser
    assert client.get(url).status_code == 403
    client.force_login(people.outsider)
    assert client.get(url).status_code == 403
    client.force_login(people.organiser)
    assert client.get(url).status_code == 200
    assert client.get("/lang/khong-co/nhat-ky/").status_code == 404


def test_rule_set_changes_show_to_staff_with_what_changed(client, clock, people, acting_as):
    acting_as(people.staff)
    created_at = clock.minutes(0)
    village_rules_save(name="Lệ làng Đông", preset="luat-2005", overrides={})
    changed_at = clock.minutes(30)
    village_rules_save(name="Lệ làng Đông", preset="luat-2005", overrides={"gom": 3}, slug="le-lang-dong")
    assert VillageRuleSet.objects.count() == 1

    url = "/le-lang/nhat-ky/"
    client.force_login(people.organiser)
    assert client.get(url).status_code == 403
    client.force_login(people.staff)
    shown = rows(client.get(url))
    assert [(r["time"], r["who"], r["action"]) for r in shown] == [
        (changed_at, "quan-tri", "Đổi lệ làng Lệ làng Đông"),
        (created_at, "quan-tri", "Tạo lệ làng Lệ làng Đông"),
    ]
    assert shown[0]["detail"] == "gom: (trống) → 3"
    english = rows(client.get(f"/en{url}"))  # under /en/ (issue 19): the rule set's name stays
    assert [(r["action"], r["detail"]) for r in english] == [
        ("Changed the village rule set Lệ làng Đông", "gom: (empty) → 3"),
        ("Created the village rule set Lệ làng Đông", "Base rule set luat-2005"),
    ]


def test_the_trail_downloads_as_csv_that_excel_opens(client, clock, people, club):
    clock.minutes(0)
    sitting = sitting_open(
        game="to-tom-5",
        rules="luat-2005",
        mode="quang",
        players=PLAYERS,
        club=club,
        created_by=people.keeper,
        idempotency_key=None,
    ).obj
    entered_at = clock.minutes(1)
    van_record(
        sitting=sitting,
        seq=1,
        record={"winner": "Bình", "cuoc": ["tom"]},
        entered_by=people.keeper,
        idempotency_key=None,
    )
    client.force_login(people.organiser)
    response = client.get(f"/so-diem/{sitting.pk}/nhat-ky/?dinh-dang=csv")

    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert "attachment" in response["Content-Disposition"]
    assert response.content.startswith(b"\xef\xbb\xbf")
    table = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert table[0] == ["Thời gian", "Người làm", "Việc", "Đối tượng", "Chi tiết"]
    assert table[1][:4] == [entered_at, "Hùng Lê", "Ghi ván 1", "Ván 1"]
    assert table[2][2] == "Mở canh bài"


def test_long_trails_are_paged_and_each_page_costs_the_same_few_queries(
    client, people, club, django_assert_max_num_queries
):
    sitting = sitting_open(
        game="to-tom-5",
        rules="luat-2005",
        mode="quang",
        players=PLAYERS,
        club=club,
        created_by=people.keeper,
        idempotency_key=None,
    ).obj
    for seq in range(1, 56):
        van_record(
            sitting=sitting,
            seq=seq,
            record={"winner": PLAYERS[seq % 5], "cuoc": ["tom"]},
            entered_by=people.keeper,
            idempotency_key=None,
        )
    with django_assert_max_num_queries(8):
        first = sitting_audit(sitting, limit=50)
    assert [e.action for e in first[:2]] == ["Ghi ván 55", "Ghi ván 54"]

    client.force_login(people.organiser)
    url = f"/so-diem/{sitting.pk}/nhat-ky/"
    page_one, page_two = rows(client.get(url)), rows(client.get(url + "?trang=2"))
    assert len(page_one) == 50 and 'data-testid="audit-next"' in client.get(url).content.decode()
    assert [r["action"] for r in page_two] == [f"Ghi ván {n}" for n in range(5, 0, -1)] + ["Mở canh bài"]
    assert rows(client.get(url + "?trang=abc")) == page_one
