"""The hardware API: ``POST /api/v1/tables/{id}/signals`` (token auth, per-table permission,
idempotency keys, Vietnamese errors) and the events it leaves for the displays."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tournaments.console.broadcast import DisplayEventStorage
from tournaments.console.models import DisplayEvent, FestivalTable, SignalEvent

pytestmark = pytest.mark.django_db


def url(table: Any) -> str:
    return f"/api/v1/tables/{table.pk}/signals"


def client_for(user: Any = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


def post(client: APIClient, table: Any, body: Any, key: str | None = None) -> Any:
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return client.post(url(table), body, format="json", **headers)


def stream(table: Any) -> list[tuple[str, dict[str, Any]]]:
    rows = DisplayEvent.objects.filter(table=table).order_by("seq")
    return [(row.type, json.loads(row.data)) for row in rows]


# -- who may send -------------------------------------------------------------------------------


def test_anonymous_gets_401_asking_for_a_token(festival: Any) -> None:
    response = post(APIClient(), festival.table, {"seat": 3, "signal": "tung-tung"})
    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Token")
    assert "Authorization: Token" in response.json()["error"]
    assert not SignalEvent.objects.exists()


def test_a_bad_token_gets_401(festival: Any) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token khong-phai-token")
    assert post(client, festival.table, {"seat": 3, "signal": "tung-tung"}).status_code == 401


def test_another_user_gets_403(festival: Any, django_user_model: Any) -> None:
    someone = django_user_model.objects.create_user("nguoi-xem")
    response = post(client_for(someone), festival.table, {"seat": 3, "signal": "tung-tung"})
    assert response.status_code == 403
    assert response.json() == {
        "error": "Chỉ Trung Quân của chiếu này và ban tổ chức mới được gửi hiệu.",
        "code": "permission_denied",
    }
    assert not SignalEvent.objects.exists()


def test_the_trung_quan_sends_tung_tung_and_the_display_hears_phong(
    festival: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        response = post(client_for(festival.trung_quan), festival.table, {"seat": 3, "signal": "tung-tung"})
    assert response.status_code == 201
    body = response.json()
    assert (body["seat"], body["seat_name"], body["label"], body["display"]) == (
        3,
        "Chi",
        "Tùng tùng",
        "Phỗng",
    )
    assert body["pattern"] == "TT" and body["van_seq"] == 1
    event = SignalEvent.objects.get()
    assert (event.seat, event.signal.slug, event.created_by) == (3, "tung-tung", festival.trung_quan)
    [(kind, data)] = stream(festival.table)
    assert kind == "signal"
    assert data["signal"]["display"] == "Phỗng"
    assert (data["signal"]["seat"], data["signal"]["seat_name"]) == (3, "Chi")
    assert "state" not in data  # the change, not the table's whole state: the display folds it


def test_staff_may_send_to_any_table(festival: Any, django_user_model: Any) -> None:
    staff = django_user_model.objects.create_user("ban-to-chuc", is_staff=True)
    response = post(client_for(staff), festival.table, {"seat": "trung_quan", "signal": "khai-hoi"})
    assert response.status_code == 201
    assert response.json()["seat"] == "trung_quan"


def test_unknown_table_is_404(festival: Any) -> None:
    response = client_for(festival.trung_quan).post(
        "/api/v1/tables/999999/signals", {"seat": 1, "signal": "cac"}, format="json"
    )
    assert response.status_code == 404
    assert response.json()["error"] == "Không có chiếu số 999999."


# -- retries are safe -------------------------------------------------------------------------------


def test_a_repeat_with_the_same_key_answers_the_same_and_stores_one_signal(
    festival: Any, django_capture_on_commit_callbacks: Any
) -> None:
    client = client_for(festival.trung_quan)
    with django_capture_on_commit_callbacks(execute=True):
        first = post(client, festival.table, {"seat": 2, "signal": "co-do"}, key="trong-ban-2-0001")
        again = post(client, festival.table, {"seat": 2, "signal": "co-do"}, key="trong-ban-2-0001")
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true" and "Idempotent-Replayed" not in first
    assert SignalEvent.objects.count() == 1
    assert SignalEvent.objects.get().idempotency_key == "trong-ban-2-0001"
    assert [kind for kind, _ in stream(festival.table)] == ["signal"]  # the display hears it once


def test_the_same_key_with_another_body_is_refused_with_422(festival: Any) -> None:
    client = client_for(festival.trung_quan)
    assert post(client, festival.table, {"seat": 2, "signal": "cac"}, key="k-1").status_code == 201
    response = post(client, festival.table, {"seat": 4, "signal": "cac"}, key="k-1")
    assert response.status_code == 422
    assert "đã được dùng cho một yêu cầu khác" in response.json()["error"]
    assert SignalEvent.objects.count() == 1


# -- mistakes ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"seat": 6, "signal": "tung"}, 'Chỗ ngồi phải là số từ 1 đến 5 hoặc "trung_quan"'),
        ({"seat": "bảy", "signal": "tung"}, "Chỗ ngồi phải là số từ 1 đến 5"),
        ({"seat": True, "signal": "tung"}, "Chỗ ngồi phải là số từ 1 đến 5"),
        ({"signal": "tung"}, "Chỗ ngồi phải là số từ 1 đến 5"),
        ({"seat": 1, "signal": "tung-tung-tung-tung-tung"}, "Không có hiệu 'tung-tung-tung-tung-tung'"),
        ({"seat": 1}, 'Hãy gửi mã hiệu trong "signal"'),
        ({"seat": 1, "signal": "khai-hoi"}, "trống cái của Trung Quân"),
        ({"seat": "trung_quan", "signal": "tung-tung"}, "hiệu của người chơi"),
        (["tung"], "Nội dung phải là một đối tượng JSON"),
    ],
)
def test_bad_seat_or_signal_is_400_in_vietnamese(festival: Any, body: Any, message: str) -> None:
    response = post(client_for(festival.trung_quan), festival.table, body)
    assert response.status_code == 400
    assert message in response.json()["error"]
    assert not SignalEvent.objects.exists()


@pytest.mark.parametrize(
    ("content_type", "body", "status"),
    [("application/json", b'{"seat": 1, "signal": ', 400), ("text/plain", b"tung-tung", 415)],
)
def test_a_refused_body_is_answered_after_who_may_send(
    festival: Any, django_user_model: Any, content_type: str, body: bytes, status: int
) -> None:
    """The body is read before the table (to read the signal with it), but who may send is still
    answered first: a stranger is refused (403), an unknown table is 404, whatever the body; the
    Trung Quân hears what is wrong with the body."""
    stranger = client_for(django_user_model.objects.create_user("nguoi-la"))
    tq = client_for(festival.trung_quan)
    assert stranger.post(url(festival.table), body, content_type=content_type).status_code == 403
    assert tq.post("/api/v1/tables/999999/signals", body, content_type=content_type).status_code == 404
    answer = tq.post(url(festival.table), body, content_type=content_type)
    assert answer.status_code == status and answer.json()["error"]
    assert not SignalEvent.objects.exists()


def test_a_village_signal_is_accepted_only_at_its_village(festival: Any) -> None:
    from scoring.models import Club
    from tournaments.console.models import Signal

    club = Club.objects.create(name="Làng Đông Ngạc", slug="dong-ngac")
    Signal.objects.create(
        slug="tam-nghi",
        label="Cắc cắc tùng",
        display="Tạm nghỉ",
        meaning="Xin nghỉ một lát.",
        kind="drum",
        pattern="CCT",
        club=club,
    )
    response = post(client_for(festival.trung_quan), festival.table, {"seat": 1, "signal": "tam-nghi"})
    assert response.status_code == 400  # this table's sitting is not of that village
    festival.table.sitting.club = club
    festival.table.sitting.save(update_fields=["club"])
    response = post(client_for(festival.trung_quan), festival.table, {"seat": 1, "signal": "tam-nghi"})
    assert response.status_code == 201 and response.json()["display"] == "Tạm nghỉ"


# -- reading, replaying, documenting ----------------------------------------------------------------


def test_the_signals_given_are_listed_in_order_publicly(festival: Any) -> None:
    client = client_for(festival.trung_quan)
    for seat, slug in [(1, "cac"), (2, "tung"), (3, "tung-tung")]:
        post(client, festival.table, {"seat": seat, "signal": slug})
    response = APIClient().get(url(festival.table))
    assert response.status_code == 200
    assert [(r["seat"], r["display"]) for r in response.json()] == [(1, "Không ăn"), (2, "Ăn"), (3, "Phỗng")]


def test_stored_events_let_a_display_resume_after_the_last_one_it_saw(
    festival: Any, django_capture_on_commit_callbacks: Any
) -> None:
    client = client_for(festival.trung_quan)
    with django_capture_on_commit_callbacks(execute=True):
        for seat, slug in [(1, "cac"), (2, "tung"), (3, "tung-tung"), (4, "tung-tung-tung")]:
            post(client, festival.table, {"seat": seat, "signal": slug})
    channel = f"ban-{festival.table.pk}"
    storage = DisplayEventStorage()
    assert storage.get_current_id(channel) == 4
    missed = storage.get_events(channel, 1)  # the display saw event 1, then lost the connection
    assert [e.id for e in missed] == [2, 3, 4]
    assert [json.loads(e.data)["signal"]["display"] for e in missed] == ["Ăn", "Phỗng", "Dậy khàn"]
    assert storage.get_events(channel, 4) == []  # up to date


def test_a_display_whose_missed_events_are_gone_gets_a_snapshot(
    festival: Any, django_capture_on_commit_callbacks: Any
) -> None:
    client = client_for(festival.trung_quan)
    with django_capture_on_commit_callbacks(execute=True):
        for seat, slug in [(1, "cac"), (5, "co-vang"), (5, "co-vang")]:
            post(client, festival.table, {"seat": seat, "signal": slug})
    DisplayEvent.objects.filter(table=festival.table, seq__lte=2).delete()  # trimmed by age
    channel = f"ban-{festival.table.pk}"
    [snap] = DisplayEventStorage().get_events(channel, 1)
    assert (snap.type, snap.id) == ("snapshot", 3)
    seat5 = json.loads(snap.data)["state"]["seats"][4]
    assert (seat5["name"], seat5["bat_thuc"]) == ("Em", 2)
    [ahead] = DisplayEventStorage().get_events(channel, 40)  # a restored backup: the display is ahead
    assert (ahead.type, ahead.id) == ("snapshot", 3)


# -- what a signal costs ------------------------------------------------------------------------------


@pytest.mark.sqlite
@pytest.mark.parametrize("key", [None, "trong-1"])
def test_a_signal_is_one_transaction_of_at_most_four_statements(
    festival: Any, key: str | None, django_capture_on_commit_callbacks: Any
) -> None:
    """The POST's own writes: lock and number (one UPDATE), the signal, its display event, the
    key's answer (its unique index catches a repeat: no look-up first); before them the request
    reads its token, then its table (with who may run it) and the signal (with the seat's name) in
    one SELECT, nothing else."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client = client_for(festival.trung_quan)
    post(client, festival.table, {"seat": 1, "signal": "cac"})  # warm: the token's user, the catalogue
    with CaptureQueriesContext(connection) as queries, django_capture_on_commit_callbacks(execute=True):
        answer = post(client, festival.table, {"seat": 3, "signal": "tung-tung"}, key=key)
    assert answer.status_code == 201
    sql = [q["sql"].split()[0].upper() for q in queries.captured_queries]
    # The test runs in a transaction: the POST's own is a savepoint in it (BEGIN / COMMIT outside one).
    begin, end = sql.index("SAVEPOINT"), sql.index("RELEASE")
    assert sql.count("SAVEPOINT") == 1, sql
    assert sql[begin + 1 : end] == (
        ["UPDATE", "INSERT", "INSERT", "INSERT"] if key else ["UPDATE", "INSERT", "INSERT"]
    ), sql
    assert sql[:begin] == ["SELECT", "SELECT"], sql  # the token; the table with the signal
    assert sql[end + 1 :] == [], sql  # nothing after the commit (the display event is stored)
    # The table is read with the few columns its checks need, not every column of four tables.
    table_read = queries.captured_queries[1]["sql"]
    assert "announcement" not in table_read and "stream_seq" not in table_read, table_read
    assert [kind for kind, _ in stream(festival.table)] == ["signal", "signal"]
    if key:  # a retry writes nothing and sends nothing
        with django_capture_on_commit_callbacks(execute=True) as sent:
            again = post(client, festival.table, {"seat": 3, "signal": "tung-tung"}, key=key)
        assert again["Idempotent-Replayed"] == "true" and again.json() == answer.json()
        assert not sent and DisplayEvent.objects.filter(table=festival.table).count() == 2
        assert FestivalTable.objects.get(pk=festival.table.pk).stream_seq == 2


def test_the_endpoint_is_in_the_openapi_schema() -> None:
    response = APIClient().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = json.loads(response.content)
    operation = schema["paths"]["/api/v1/tables/{table_id}/signals"]["post"]
    assert {p["name"] for p in operation["parameters"]} >= {"table_id", "Idempotency-Key"}
    assert set(operation["responses"]) >= {"201", "400", "401", "403", "422"}
    assert any("tokenAuth" in s for s in operation["security"])


def test_the_organisers_of_the_event_may_send_at_its_chieu(festival: Any, django_user_model: Any) -> None:
    """A festival table opened for an event's chiếu: the event's organisers run it, others may not."""
    import datetime as dt

    from tournaments.console.services import table_open
    from tournaments.models import Event, Round, Table

    sitting = festival.table.sitting
    festival.table.delete()  # the sitting becomes the event's chiếu instead
    event = Event.objects.create(
        name="Hội làng Đông Ngạc",
        slug="hoi-dong-ngac",
        date=dt.date(2026, 2, 22),
        game=sitting.game,
        rules=sitting.rules,
    )
    chieu = Table.objects.create(
        round=Round.objects.create(event=event, number=1, method="random"),
        number=1,
        sitting=sitting,
        event=event,
    )
    table = table_open(name="", event_table=chieu)
    organiser = django_user_model.objects.create_user("ban-to-chuc-hoi")
    event.organisers.add(organiser)
    outsider = django_user_model.objects.create_user("nguoi-lang-ben")
    assert post(client_for(organiser), table, {"seat": 5, "signal": "co-vang"}).status_code == 201
    assert post(client_for(outsider), table, {"seat": 5, "signal": "co-vang"}).status_code == 403


@pytest.mark.sqlite
@pytest.mark.parametrize("private", [False, True])
def test_the_signal_s_narrow_read_of_its_table_is_the_orm_s_and_decides_the_same(
    festival: Any, django_user_model: Any, private: bool
) -> None:
    """``signal_table`` (one statement, SQL written once) reads what the ORM reads, and the rules
    of who may run and see the table answer the same on it as on the whole rows: for a table of
    no event and for a public or private event's chiếu (its Trung Quân, organisers, outsiders)."""
    import contextlib
    import datetime as dt

    from scoring.services import rows
    from tournaments.console.permissions import reach
    from tournaments.console.services import signal_table
    from tournaments.models import Event, EventRole, EventRoleKind, Round, Table

    def read(table_id: int) -> tuple[Any, ...] | None:
        found = signal_table(table_id=table_id)
        if found is None:
            return None
        chieu = found.event_table
        return (
            found.pk,
            found.sitting_id,
            found.trung_quan_id,
            found.sitting.club_id,
            None if chieu is None else (chieu.pk, chieu.event.pk, chieu.event.is_public),
        )

    from tournaments.console.services import table_open

    outsider = django_user_model.objects.create_user("nguoi-ngoai")
    lone = festival.table
    spare = table_open(name="", players=["Ất", "Bính", "Canh", "Đinh", "Mậu"])
    sitting = spare.sitting
    spare.delete()  # its sitting becomes the event's chiếu's
    event = Event.objects.create(
        name="Hội làng Cự Đà",
        slug="hoi-cu-da",
        date=dt.date(2026, 2, 22),
        game=sitting.game,
        rules=sitting.rules,
        is_public=not private,
    )
    chieu = Table.objects.create(
        round=Round.objects.create(event=event, number=1, method="random"),
        number=1,
        sitting=sitting,
        event=event,
    )
    at_event = table_open(name="", event_table=chieu)
    tq = django_user_model.objects.create_user("trung-quan-hoi")
    EventRole.objects.create(event=event, user=tq, role=EventRoleKind.TRUNG_QUAN)
    organiser = django_user_model.objects.create_user("ban-to-chuc-cu-da")
    event.organisers.add(organiser)
    for table in (lone, at_event):
        narrow = read(table.pk)
        with rows.on_the_orm():
            assert read(table.pk) == narrow
        third = table.sitting.seats.get(position=3).name  # "Chi" at the lone table, "Canh" at the chiếu
        for seat, slug, found in [(3, " Tung-Tung", third), (0, "khai-hoi", None), (2, "khong-co", None)]:
            both = []
            for orm in (False, True):
                with rows.on_the_orm() if orm else contextlib.nullcontext():
                    with_signal = signal_table(table_id=table.pk, seat=seat, signal=slug)
                    assert with_signal is not None
                    wanted, at, sig = with_signal._signal_read
                    both.append((wanted, at, sig and (sig.slug, sig.seat_name)))
            assert both[0] == both[1], both
            assert both[0][2] == (None if slug == "khong-co" else (slug.strip().lower(), found))
        whole = FestivalTable.objects.select_related("sitting", "event_table__event").get(pk=table.pk)
        assert narrow == (
            whole.pk,
            whole.sitting_id,
            whole.trung_quan_id,
            whole.sitting.club_id,
            None
            if whole.event_table is None
            else (whole.event_table.pk, whole.event_table.event.pk, whole.event_table.event.is_public),
        )
        for user in (festival.trung_quan, tq, organiser, outsider):
            assert reach(user, signal_table(table_id=table.pk)) == reach(user, whole), (table, user)
    assert reach(tq, signal_table(table_id=at_event.pk)) == "run"
    assert reach(outsider, signal_table(table_id=at_event.pk)) == (None if private else "see")
    assert signal_table(table_id=999999) is None
