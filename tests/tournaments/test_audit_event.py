"""An event's audit trail (nhật ký) for its organisers: the event, its organisers and roles, players,
rounds, tokens and every ván of its tables, with who and when, newest first; only organisers."""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from django.utils import timezone
from simple_history.models import HistoricalRecords

from tests.tournaments.conftest import seat_names
from tests.web.test_audit import Clock, rows
from tournaments.models import EventRole, EventRoleKind, Table
from tournaments.selectors.audit import event_audit
from tournaments.services.events import (
    check_in,
    check_in_by_token,
    event_create,
    registration_add,
    registration_withdraw,
)
from tournaments.services.rounds import round_seat
from tournaments.services.tokens import token_issue, token_revoke
from tournaments.services.van import event_van_record

pytestmark = pytest.mark.django_db

FIVE = ["An", "Bình", "Chi", "Dũng", "Em"]


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    c = Clock()
    monkeypatch.setattr(timezone, "now", c)
    return c


@pytest.fixture
def people(django_user_model: Any) -> SimpleNamespace:
    def make(username: str, first: str = "", last: str = "") -> Any:
        return django_user_model.objects.create_user(
            username, password="mat-khau-dai-123", first_name=first, last_name=last
        )

    return SimpleNamespace(
        organiser=make("ban-to-chuc", "Lan", "Trần"),
        keeper=make("thu-ky", "Hùng", "Lê"),
        second=make("pho-ban", "Minh", "Đỗ"),
        outsider=make("nguoi-ngoai"),
    )


@pytest.fixture
def acting_as() -> Iterator[Callable[[Any], None]]:
    """Changes made as if in ``user``'s request (simple-history's middleware does this for pages)."""

    def act(user: Any) -> None:
        HistoricalRecords.context.request = SimpleNamespace(user=user)

    yield act
    if hasattr(HistoricalRecords.context, "request"):
        del HistoricalRecords.context.request


def small_event(people: SimpleNamespace, **options: Any) -> Any:
    return event_create(
        name="Hội làng Xuân",
        date=dt.date(2025, 2, 3),
        game="to-tom-5",
        rules="luat-2005",
        mode="quang",
        created_by=people.organiser,
        **options,
    )


def test_the_event_trail_shows_every_change_with_who_and_when(client, clock, people, acting_as):
    acting_as(people.organiser)
    created = clock.minutes(0)
    event = small_event(people)
    registered = clock.minutes(1)
    regs = [registration_add(event=event, name=name, team="Giáp Đông", by=people.organiser) for name in FIVE]
    checked_in = clock.minutes(2)
    for reg in regs[:-1]:
        check_in(registration=reg, by=people.organiser)
    check_in_by_token(token=regs[-1].token)  # Em's own link at the gate: no account
    seated = clock.minutes(3)
    round_seat(event=event, method="random", seed=11, created_by=people.organiser)
    table = Table.objects.get(event=event)
    granted = clock.minutes(4)
    role = EventRole.objects.create(
        user=people.keeper, event=event, role=EventRoleKind.SCOREKEEPER, granted_by=people.organiser
    )
    issued = clock.minutes(5)
    token = token_issue(table=table, label="cô Hoa", created_by=people.organiser)
    by_token = clock.minutes(6)  # a device that typed the table's PIN: no account
    event_van_record(
        table=table, seq=1, record={"winner": seat_names(table)[0], "cuoc": ["tom"]}, idempotency_key=None
    )
    by_keeper = clock.minutes(7)
    event_van_record(
        table=table,
        seq=2,
        record={"winner": seat_names(table)[1], "cuoc": ["tom"]},
        idempotency_key=None,
        entered_by=people.keeper,
    )
    revoked_role = clock.minutes(8)
    role.delete()
    revoked_token = clock.minutes(9)
    token_revoke(token=token, revoked_by=people.organiser)
    added = clock.minutes(10)
    event.organisers.add(people.second)
    changed = clock.minutes(11)
    event.confirmation_required = True
    event.save()
    withdrawn = clock.minutes(12)
    registration_withdraw(registration=regs[2], by=people.organiser)

    client.force_login(people.organiser)
    page = client.get(f"/giai/{event.slug}/quan-ly/nhat-ky/")
    assert page.status_code == 200
    shown = rows(page)
    canh = "Vòng 1 · chiếu 1 · canh 1"
    assert [(r["time"], r["who"], r["action"]) for r in shown] == [
        (withdrawn, "Lan Trần", "Rút Chi khỏi giải"),
        (changed, "Lan Trần", "Đổi cài đặt giải"),
        (added, "Lan Trần", "Thêm Minh Đỗ vào ban tổ chức"),
        (revoked_token, "Lan Trần", "Thu hồi mã ghi điểm cô Hoa"),
        (revoked_role, "Lan Trần", "Thu hồi vai trò Thư ký ghi điểm của Hùng Lê"),
        (by_keeper, "Hùng Lê", "Ghi ván 2"),
        (by_token, "mã ghi điểm cô Hoa", "Ghi ván 1"),
        (issued, "Lan Trần", "Cấp mã ghi điểm cô Hoa"),
        (granted, "Lan Trần", "Cấp vai trò Thư ký ghi điểm cho Hùng Lê"),
        (seated, "Lan Trần", "Xếp chỗ vòng 1"),
        (seated, "Lan Trần", "Mở canh bài"),
        (checked_in, "Người chơi (mã QR của mình)", "Điểm danh Em"),
        *[(checked_in, "Lan Trần", f"Điểm danh {name}") for name in reversed(FIVE[:-1])],
        *[(registered, "Lan Trần", f"Đăng ký {name}") for name in reversed(FIVE)],
        (created, "Lan Trần", "Thêm Lan Trần vào ban tổ chức"),
        (created, "Lan Trần", "Tạo giải"),
    ]
    assert shown[1]["detail"] == "ván cần người thứ hai xác nhận: không → có"
    assert shown[5]["object"] == f"{canh} · Ván 2"
    assert "PIN" not in page.content.decode() and token.pin not in [r["who"] for r in shown]

    # The same trail under /en/ reads in English (issue 19): the names of people, codes and places stay.
    english = rows(client.get(f"/en/giai/{event.slug}/quan-ly/nhat-ky/"))
    assert [(r["who"], r["action"]) for r in english] == [
        ("Lan Trần", "Withdrew Chi from the event"),
        ("Lan Trần", "Changed the event's settings"),
        ("Lan Trần", "Added Minh Đỗ to the organisers"),
        ("Lan Trần", "Revoked scorekeeper code cô Hoa"),
        ("Lan Trần", "Revoked the role Scorekeeper of Hùng Lê"),
        ("Hùng Lê", "Entered ván 2"),
        ("scorekeeper code cô Hoa", "Entered ván 1"),
        ("Lan Trần", "Issued scorekeeper code cô Hoa"),
        ("Lan Trần", "Granted the role Scorekeeper to Hùng Lê"),
        ("Lan Trần", "Seated round 1"),
        ("Lan Trần", "Opened the sitting"),
        ("The player (their own QR code)", "Checked in Em"),
        *[("Lan Trần", f"Checked in {name}") for name in reversed(FIVE[:-1])],
        *[("Lan Trần", f"Registered {name}") for name in reversed(FIVE)],
        ("Lan Trần", "Added Lan Trần to the organisers"),
        ("Lan Trần", "Created the event"),
    ]
    assert english[1]["detail"] == "ván need a second person's confirmation: no → yes"
    assert english[5]["object"] == "Round 1 · chiếu 1 · sitting 1 · Ván 2"


def test_only_the_event_s_organisers_see_its_trail(client, people):
    event = small_event(people)
    EventRole.objects.create(user=people.keeper, event=event, role=EventRoleKind.SCOREKEEPER)
    url = f"/giai/{event.slug}/quan-ly/nhat-ky/"

    assert client.get(url)["Location"] == f"/dang-nhap/?next={url}"
    for who in (people.keeper, people.outsider):  # a scorekeeper of the event, a stranger
        client.force_login(who)
        denied = client.get(url)
        assert denied.status_code == 403
        assert "Chỉ ban tổ chức giải mới xem được nhật ký" in denied.content.decode()
    client.force_login(people.organiser)
    assert client.get(url).status_code == 200
    manage = client.get(f"/giai/{event.slug}/quan-ly/").content.decode()
    assert f'href="{url}"' in manage


def test_a_private_event_s_trail_is_not_found_for_strangers(client, people):
    event = small_event(people, is_public=False)
    client.force_login(people.outsider)
    assert client.get(f"/giai/{event.slug}/quan-ly/nhat-ky/").status_code == 404


def test_the_event_trail_downloads_as_csv(client, clock, people):
    created = clock.minutes(0)
    event = small_event(people)
    client.force_login(people.organiser)
    response = client.get(f"/giai/{event.slug}/quan-ly/nhat-ky/?dinh-dang=csv")
    assert response.status_code == 200 and response.content.startswith(b"\xef\xbb\xbf")
    table = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert table[0] == ["Thời gian", "Người làm", "Việc", "Đối tượng", "Chi tiết"]
    assert table[-1][:4] == [
        created,
        "Lan Trần",
        "Tạo giải",
        "Hội làng Xuân",
    ]  # outside a request: its creator


def test_the_event_trail_costs_a_fixed_number_of_queries(seated, people, django_assert_max_num_queries):
    event, tables = seated
    for table in tables:
        token_issue(table=table, label=f"chiếu {table.number}")
        for seq in range(1, 4):
            event_van_record(
                table=table,
                seq=seq,
                record={"winner": seat_names(table)[seq], "cuoc": ["tom"]},
                idempotency_key=None,
            )
    # 23: the names of the rule sets the canh were opened with, one query for all (issue 19 item 5)
    with django_assert_max_num_queries(23):
        entries = event_audit(event, limit=50)
    assert [e.who for e in entries if e.action.startswith("Ghi ván")] == ["mã ghi điểm chiếu 2"] * 3 + [
        "mã ghi điểm chiếu 1"
    ] * 3


def test_the_organisers_page_actions_are_recorded_with_who_did_them(client, people):
    """Registering, checking in, withdrawing, revoking a table's token and closing a table from
    the organiser's pages: the trail names the organiser for each."""
    event = small_event(people)
    client.force_login(people.organiser)
    for name in FIVE:
        assert (
            client.post(
                f"/giai/{event.slug}/quan-ly/dang-ky/", {"name": name, "team": "Giáp Đông", "check_in": "on"}
            ).status_code
            == 200
        )
    round_seat(event=event, method="random", seed=11, created_by=people.organiser)
    late = registration_add(event=event, name="Người đến muộn")
    assert client.post(f"/giai/{event.slug}/quan-ly/diem-danh/{late.pk}/").status_code == 200
    assert client.post(f"/giai/{event.slug}/quan-ly/rut/{late.pk}/").status_code == 200
    table = Table.objects.get(event=event)
    token = token_issue(table=table, label="cô Hoa", created_by=people.organiser)
    assert client.post(f"/giai/{event.slug}/chieu/{table.pk}/ma-ghi/{token.pk}/thu-hoi/").status_code in (
        200,
        302,
    )
    assert client.post(f"/giai/{event.slug}/chieu/{table.pk}/dong/").status_code in (200, 302)

    who = {e.action: e.who for e in event_audit(event, limit=100)}
    assert who["Đăng ký An"] == who["Điểm danh An"] == "Lan Trần"
    assert who["Đăng ký Người đến muộn"] == "—"  # registered by a service call outside any request
    assert who["Điểm danh Người đến muộn"] == who["Rút Người đến muộn khỏi giải"] == "Lan Trần"
    assert who["Thu hồi mã ghi điểm cô Hoa"] == who["Đóng chiếu"] == "Lan Trần"
