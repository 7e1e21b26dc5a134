"""Who may see and write the sổ điểm: pages and API, for a visitor, another club's scorekeeper,
the club's own scorekeeper and a player seated at the mat; the sitting list; signing in (with the
lock-out after 20 wrong passwords), signing up, signing out; the demo account of `make run`."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

import pytest
import time_machine
from django.core.management import call_command
from django.test import Client
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scoring.models import AccessThrottle, ClubRole, ClubRoleKind, Player, Sitting, Van
from scoring.services.roles import club_open, player_link, role_grant
from scoring.services.sittings import sitting_open
from scoring.services.throttle import LIMIT, PACE_EVERY
from tests.factories import without_code

pytestmark = pytest.mark.django_db

FIVE = ["An", "Bình", "Chi", "Dũng", "Em"]
PASSWORD = "mat-khau-dai-du-2025"
TOM = {"winner": "An", "cuoc": ["tom"]}


@dataclass
class World:
    """Làng Đông (its organiser, its scorekeeper, An who plays there) and Làng Đoài (its scorekeeper)."""

    users: dict[str, Any]
    ours: Sitting
    theirs: Sitting

    def client(self, who: str | None) -> Client:
        client = Client()
        if who is not None:
            client.force_login(self.users[who])
        return client

    def api(self, who: str | None) -> APIClient:
        api = APIClient()
        if who is not None:
            api.credentials(
                HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=self.users[who])[0].key}"
            )
        return api


@pytest.fixture
def world(django_user_model: Any) -> World:
    users = {
        name: django_user_model.objects.create_user(name, password=PASSWORD)
        for name in ("chu-so-dong", "thu-ky-dong", "an", "thu-ky-doai", "nguoi-ngoai")
    }
    dong = club_open(name="Làng Đông", organiser=users["chu-so-dong"]).obj
    doai = club_open(name="Làng Đoài", organiser=users["thu-ky-doai"]).obj
    role_grant(
        club=dong, username="thu-ky-dong", role=ClubRoleKind.SCOREKEEPER, granted_by=users["chu-so-dong"]
    )
    ours = sitting_open(
        game="to-tom-5",
        rules="luat-2005",
        mode="quang",
        players=FIVE,
        club=dong,
        created_by=users["thu-ky-dong"],
        idempotency_key=None,
    ).obj
    theirs = sitting_open(
        game="to-tom-5",
        rules="luat-2005",
        mode="quang",
        players=FIVE,
        club=doai,
        created_by=users["thu-ky-doai"],
        idempotency_key=None,
    ).obj
    an = Player.objects.get(club=dong, name="An")
    player_link(club=dong, player_id=an.pk, username="an", linked_by=users["chu-so-dong"])
    return World(users, ours, theirs)


def van_form() -> dict[str, Any]:
    """The ván form's fields for ván 1 (An ù Tôm) with a fresh idempotency key."""
    return {"key": str(uuid.uuid4()), "seq": "1", **TOM}


def api_van(api: APIClient, sitting: Sitting) -> Any:
    return api.post(
        f"/api/v1/sittings/{sitting.pk}/van",
        {"seq": 1, **TOM},
        format="json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
    )


# -- a visitor ------------------------------------------------------------------------------------


def test_a_visitor_is_sent_to_sign_in_and_comes_back(world: World) -> None:
    visitor = world.client(None)
    pk = world.ours.pk
    for url in (
        "/so-diem/",
        "/so-diem/moi/",
        f"/so-diem/{pk}/",
        f"/so-diem/{pk}/thanh-toan/",
        f"/so-diem/{pk}/van/1/sua/",
        f"/so-diem/{pk}/in-xuat/",
        f"/so-diem/{pk}/bao-cao.pdf",
        f"/so-diem/{pk}/xuat/so-cai.csv",
        f"/so-diem/{pk}/xuat/sao-ke/1.pdf",
        "/le-lang/moi/",
        "/lang/",
    ):
        response = visitor.get(url)
        assert (response.status_code, response["Location"]) == (302, f"/dang-nhap/?next={url}"), url
    # A write goes nowhere and comes back to the sitting's page after signing in.
    posted = visitor.post(f"/so-diem/{pk}/van/", van_form())
    assert posted["Location"] == f"/dang-nhap/?next=/so-diem/{pk}/"
    htmx = visitor.post(f"/so-diem/{pk}/xem-truoc/", TOM, HTTP_HX_REQUEST="true")
    assert htmx["HX-Redirect"] == f"/dang-nhap/?next=/so-diem/{pk}/"
    for url in (f"/so-diem/{pk}/bieu-do.json", f"/so-diem/{pk}/ngoai-tuyen.json"):
        refused = visitor.get(url)
        assert refused.status_code == 401 and "đăng nhập" in refused.json()["error"]
    assert not Van.objects.exists()


def test_a_visitor_gets_401_json_from_the_api_but_the_public_parts_stay_open(world: World) -> None:
    api = world.api(None)
    pk = world.ours.pk
    for url in (
        "/api/v1/sittings",
        f"/api/v1/sittings/{pk}",
        f"/api/v1/sittings/{pk}/balances",
        f"/api/v1/sittings/{pk}/history",
        f"/api/v1/sittings/{pk}/van",
        "/api/v1/players",
    ):
        refused = api.get(url)
        assert refused.status_code == 401, url
        assert refused["WWW-Authenticate"].startswith("Token")
        assert refused.json()["error"].startswith("Cần đăng nhập")
    assert api_van(api, world.ours).status_code == 401
    assert (
        api.post("/api/v1/clubs", {"name": "Làng Mới"}, format="json", HTTP_IDEMPOTENCY_KEY="k").status_code
        == 401
    )
    wrong_token = APIClient()
    wrong_token.credentials(HTTP_AUTHORIZATION="Token khong-dung")
    assert (
        wrong_token.get(f"/api/v1/sittings/{pk}")
        .json()["error"]
        .startswith("Mã đăng nhập (token) không đúng")
    )
    # Names and numbers, nothing personal: anyone.
    assert {c["slug"] for c in api.get("/api/v1/clubs").json()} == {"lang-dong", "lang-doai"}
    assert api.get("/api/v1/rule-sets?game=chan").status_code == 200
    assert (
        api.post(
            "/api/v1/score", {"game": "to-tom-5", "rules": "luat-2005", "cuoc": ["tom"]}, format="json"
        ).json()["points"]
        == 8
    )
    for page in ("/", "/tinh-diem/", "/kiem-bai/", "/le-lang/"):
        assert Client().get(page).status_code == 200, page


# -- another club's scorekeeper -----------------------------------------------------------------------


def test_another_clubs_scorekeeper_is_refused_403_on_pages_and_api(world: World) -> None:
    other, api = world.client("thu-ky-doai"), world.api("thu-ky-doai")
    pk = world.ours.pk
    page = other.get(f"/so-diem/{pk}/")
    assert page.status_code == 403 and "Bạn không có quyền xem canh bài này" in page.content.decode()
    assert other.get(f"/so-diem/{pk}/xuat/cac-van.csv").status_code == 403
    assert other.get(f"/so-diem/{pk}/ngoai-tuyen.json").status_code == 403
    written = other.post(f"/so-diem/{pk}/van/", van_form())
    assert written.status_code == 403 and "không có quyền ghi" in written.content.decode()
    assert other.post(f"/so-diem/{pk}/thanh-toan/", {"key": "k"}).status_code == 403
    assert without_code(api.get(f"/api/v1/sittings/{pk}").json()) == {"error": page.context["message"]}
    assert api.get(f"/api/v1/sittings/{pk}/van").status_code == 403
    refused = api_van(api, world.ours)
    assert refused.status_code == 403 and "không có quyền ghi" in refused.json()["error"]
    assert not Van.objects.exists() and Sitting.objects.get(pk=pk).ended_at is None
    # Their own sitting is theirs to keep.
    assert api_van(api, world.theirs).status_code == 201


# -- the club's own scorekeeper and a seated player ----------------------------------------------------------


def test_the_clubs_own_scorekeeper_records_on_the_page_and_through_the_api(world: World) -> None:
    keeper = world.client("thu-ky-dong")
    pk = world.ours.pk
    page = keeper.get(f"/so-diem/{pk}/")
    assert page.status_code == 200 and "Lưu ván 1" in page.content.decode()
    assert keeper.post(f"/so-diem/{pk}/van/", van_form()).status_code == 302
    answer = world.api("chu-so-dong").post(
        f"/api/v1/sittings/{pk}/van",
        {"seq": 2, "result": "hoa"},
        format="json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
    )
    assert answer.status_code == 201  # the club's organiser keeps score too
    assert [(v.seq, v.entered_by.username) for v in Van.objects.order_by("seq")] == [
        (1, "thu-ky-dong"),
        (2, "chu-so-dong"),
    ]


def test_a_seated_player_with_an_account_sees_the_sitting_but_records_nothing(world: World) -> None:
    an, api = world.client("an"), world.api("an")
    pk = world.ours.pk
    page = an.get(f"/so-diem/{pk}/").content.decode()
    assert 'data-testid="read-only"' in page and 'id="van-form"' not in page and "Sửa ván" not in page
    assert an.get(f"/so-diem/{pk}/xuat/sao-ke/1.csv").status_code == 200  # their own statement
    assert 'data-testid="settle"' not in an.get(f"/so-diem/{pk}/thanh-toan/").content.decode()
    assert api.get(f"/api/v1/sittings/{pk}/balances").status_code == 200
    assert an.post(f"/so-diem/{pk}/van/", van_form()).status_code == 403
    assert an.post(f"/so-diem/{pk}/xem-truoc/", TOM, HTTP_HX_REQUEST="true").status_code == 403
    assert api_van(api, world.ours).status_code == 403
    assert (
        api.post(f"/api/v1/sittings/{pk}/settle-up", format="json", HTTP_IDEMPOTENCY_KEY="k").status_code
        == 403
    )
    assert an.get(f"/so-diem/{world.theirs.pk}/").status_code == 403  # not seated there
    assert not Van.objects.exists()


# -- lists ------------------------------------------------------------------------------------------


def test_the_sitting_list_shows_only_the_sittings_one_may_see(world: World) -> None:
    def listed(who: str) -> set[int]:
        rows = world.client(who).get("/so-diem/").context["rows"]
        api_rows = world.api(who).get("/api/v1/sittings").json()
        assert {r["id"] for r in api_rows} == {r["sitting"].pk for r in rows}
        return {r["sitting"].pk for r in rows}

    assert listed("thu-ky-dong") == listed("chu-so-dong") == listed("an") == {world.ours.pk}
    assert listed("thu-ky-doai") == {world.theirs.pk}
    assert listed("nguoi-ngoai") == set()
    staff = world.users["nguoi-ngoai"]
    staff.is_staff = True
    staff.save()
    assert listed("nguoi-ngoai") == {world.ours.pk, world.theirs.pk}


def test_players_are_listed_only_to_those_who_may_know_them(world: World) -> None:
    def names(who: str) -> set[tuple[str, str | None]]:
        return {(p["name"], p["club"]) for p in world.api(who).get("/api/v1/players").json()}

    assert names("thu-ky-dong") == {(n, "lang-dong") for n in FIVE}
    assert names("an") == {(n, "lang-dong") for n in FIVE}  # seated with them
    assert names("nguoi-ngoai") == set()


def test_opening_a_sitting_in_a_club_needs_a_role_there(world: World) -> None:
    keeper, api = world.client("thu-ky-dong"), world.api("thu-ky-dong")
    form = keeper.get("/so-diem/moi/")
    assert [c.slug for c in form.context["clubs"]] == ["lang-dong"]
    body = {"key": "k-1", "game": "to-tom-5", "rules": "luat-2005", "mode": "quang", "player": FIVE}
    refused = keeper.post("/so-diem/moi/", {**body, "club": "lang-doai"})
    assert refused.status_code == 403 and "Bạn không mở được canh bài" in refused.content.decode()
    opened = keeper.post("/so-diem/moi/", {**body, "club": "lang-dong"})
    assert opened.status_code == 302
    new = Sitting.objects.latest("pk")
    assert (new.club.slug, new.created_by.username) == ("lang-dong", "thu-ky-dong")
    sitting = {"game": "to-tom-5", "rules": "luat-2005", "mode": "quang", "players": FIVE}
    assert (
        api.post(
            "/api/v1/sittings", {**sitting, "club": "lang-doai"}, format="json", HTTP_IDEMPOTENCY_KEY="k-2"
        ).status_code
        == 403
    )
    doai_ids = list(Player.objects.filter(club__slug="lang-doai").values_list("pk", flat=True))
    seated_elsewhere = api.post(
        "/api/v1/sittings", {**sitting, "players": doai_ids}, format="json", HTTP_IDEMPOTENCY_KEY="k-3"
    )
    assert seated_elsewhere.status_code == 403 and "mã số người chơi" in seated_elsewhere.json()["error"]
    assert (
        api.post(
            "/api/v1/players",
            {"name": "Cụ Tư", "club": "lang-doai"},
            format="json",
            HTTP_IDEMPOTENCY_KEY="k-4",
        ).status_code
        == 403
    )


def test_whoever_creates_a_club_through_the_api_is_its_organiser(world: World) -> None:
    api = world.api("nguoi-ngoai")
    created = api.post("/api/v1/clubs", {"name": "Làng Mọc"}, format="json", HTTP_IDEMPOTENCY_KEY="c-1")
    again = api.post("/api/v1/clubs", {"name": "Làng Mọc"}, format="json", HTTP_IDEMPOTENCY_KEY="c-1")
    assert (created.status_code, again["Idempotent-Replayed"]) == (201, "true")
    roles = ClubRole.objects.filter(club__slug="lang-moc")
    assert [(r.user.username, r.role, r.granted_by.username) for r in roles] == [
        ("nguoi-ngoai", ClubRoleKind.ORGANISER, "nguoi-ngoai")
    ]


# -- signing in, up and out ------------------------------------------------------------------------


def _sign_in(client: Client, username: str, password: str) -> Any:
    return client.post(
        "/dang-nhap/?next=/so-diem/", {"username": username, "password": password, "next": "/so-diem/"}
    )


def test_twenty_wrong_passwords_lock_that_browser_out_of_the_name_and_no_one_else(world: World) -> None:
    """The lock-out is per client and name (issue 30): the browser that typed 20 wrong passwords is
    locked out of that name, the right password included; another device is not."""
    client = Client()
    client.get("/dang-nhap/")  # the device cookie
    with time_machine.travel(timezone.now(), tick=False) as clock:
        for attempt in range(1, LIMIT + 1):
            clock.shift(PACE_EVERY)  # the name's ceiling: one try per 3 s after the tenth
            wrong = _sign_in(client, "thu-ky-dong", f"sai-{attempt}")
            assert wrong.status_code == 200, attempt
        assert "Nhập sai 20 lần liền: tạm khóa" in wrong.content.decode()
        locked = _sign_in(client, "THU-KY-DONG", PASSWORD)  # the right password, the same browser, other case
        assert locked.status_code == 200 and "tạm khóa" in locked.content.decode()
        assert "_auth_user_id" not in locked.wsgi_request.session
        assert (
            AccessThrottle.objects.filter(key__startswith="login:", locked_until__isnull=False).count() == 1
        )
        # Another device signs in; other names are not affected; a right password clears the count.
        clock.shift(PACE_EVERY)
        assert _sign_in(Client(), "thu-ky-dong", PASSWORD)["Location"] == "/so-diem/"
        assert _sign_in(Client(), "an", PASSWORD)["Location"] == "/so-diem/"
        other = Client()
        _sign_in(other, "thu-ky-dong", "sai")
        assert _sign_in(other, "thu-ky-dong", PASSWORD)["Location"] == "/so-diem/"


def test_a_wrong_password_says_so_in_vietnamese() -> None:
    page = _sign_in(Client(), "khong-co-ai", "sai").content.decode()
    assert "Tên đăng nhập hoặc mật khẩu không đúng" in page
    assert 'name="next" value="/so-diem/"' in page


def test_signing_up_signs_in_and_signing_out_signs_out() -> None:
    client = Client()
    page = client.get("/dang-ky/?next=/so-diem/")
    assert page.status_code == 200 and "Đăng ký tài khoản" in page.content.decode()
    mismatch = client.post("/dang-ky/", {"username": "ba-tu", "password1": PASSWORD, "password2": "khac"})
    assert (
        mismatch.status_code == 400 and "Hai lần nhập mật khẩu không giống nhau." in mismatch.content.decode()
    )
    common = client.post("/dang-ky/", {"username": "ba-tu", "password1": "password", "password2": "password"})
    assert "Mật khẩu này quá phổ biến." in common.content.decode()
    done = client.post(
        "/dang-ky/", {"username": "ba-tu", "password1": PASSWORD, "password2": PASSWORD, "next": "/so-diem/"}
    )
    assert done["Location"] == "/so-diem/"
    listed = client.get("/so-diem/")
    assert listed.status_code == 200 and "Đăng xuất (ba-tu)" in listed.content.decode()
    taken = Client().post("/dang-ky/", {"username": "BA-TU", "password1": PASSWORD, "password2": PASSWORD})
    assert "Tên đăng nhập đã được sử dụng" in taken.content.decode()
    assert client.get("/dang-xuat/").status_code == 405  # signing out is a POST (a link cannot do it)
    assert client.post("/dang-xuat/")["Location"] == "/"
    assert client.get("/so-diem/").status_code == 302
    assert _sign_in(client, "ba-tu", PASSWORD)["Location"] == "/so-diem/"
    assert "Đăng nhập" in Client().get("/").content.decode()  # the header offers it to a visitor


def test_the_consoles_sign_in_is_the_same_page() -> None:
    page = Client().get("/trung-quan/dang-nhap/?next=/trung-quan/")
    assert page.status_code == 200 and 'data-testid="login-form"' in page.content.decode()


def test_make_runs_demo_account_owns_the_demo_village_and_sitting(capsys: Any) -> None:
    call_command("load_demo", "--with-demo-user")
    call_command("load_demo", "--with-demo-user")  # again: nothing doubled
    assert "thu-ky / mật khẩu so-tom-demo" in capsys.readouterr().out
    client = Client()
    assert _sign_in(client, "thu-ky", "so-tom-demo")["Location"] == "/so-diem/"
    rows = {
        row["sitting"].title or str(row["sitting"]): row for row in client.get("/so-diem/").context["rows"]
    }
    # The club book's season of the demo village (issue 23): its own canh, each with its ván.
    from scoring.services.demo_book import CANH, TITLE, VAN_PER_CANH

    season = {title: rows.pop(title)["van_count"] for title in list(rows) if title.startswith(TITLE)}
    assert list(season.values()) == [VAN_PER_CANH] * CANH
    assert {title: row["van_count"] for title, row in rows.items()} == {
        "Canh bài mẫu ở đình làng": 4,
        "Canh rằm tháng Giêng theo lệ làng": 5,
        "Canh mùng 2 Tết (đã thanh toán)": 3,
        "Hội làng Đông Ngạc xuân Bính Ngọ · Vòng 1 · Chiếu 1": 2,
        "Hội làng Đông Ngạc xuân Bính Ngọ · Vòng 1 · Chiếu 2": 3,
    }
    first = rows["Canh bài mẫu ở đình làng"]["sitting"]
    assert "Lưu ván 5" in client.get(f"/so-diem/{first.pk}/").content.decode()
    assert client.get("/lang/lang-mau-dong-ngac/").context["can_manage"] is True


def test_a_table_pin_on_this_phone_keeps_score_there_with_the_csrf_token_and_nowhere_else() -> None:
    """A festival table's PIN is held by a session, not an account: the sổ điểm lets that session
    keep the table's sitting, and (a browser, after all) asks it for the CSRF token on writes."""
    import json
    import re

    from tests.reliability.festival import festival, seat_names
    from tournaments.permissions import SESSION_TOKENS
    from tournaments.services.tokens import token_issue

    _event, tables = festival()
    table, other = tables[0], tables[1]
    phone = Client(enforce_csrf_checks=True)
    session = phone.session
    session[SESSION_TOKENS] = {str(table.pk): token_issue(table=table).pk}
    session.save()
    page = phone.get(f"/so-diem/{table.sitting_id}/")
    assert page.status_code == 200 and 'id="van-form"' in page.content.decode()
    csrf = re.search(r'"X-CSRFToken": "([^"]+)"', page.content.decode()).group(1)
    body = json.dumps({"seq": 1, "winner": seat_names(table)[0], "cuoc": ["tom"]})

    def post(sitting_id: int, **headers: Any) -> Any:
        return phone.post(
            f"/api/v1/sittings/{sitting_id}/van",
            body,
            content_type="application/json",
            HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
            **headers,
        )

    refused = post(table.sitting_id)
    assert refused.status_code == 403 and "CSRF" in refused.json()["error"]
    assert post(table.sitting_id, HTTP_X_CSRFTOKEN=csrf).status_code == 201
    assert post(other.sitting_id, HTTP_X_CSRFTOKEN=csrf).status_code == 401  # another table: sign in first
    assert phone.get(f"/so-diem/{other.sitting_id}/")["Location"].startswith("/dang-nhap/")
