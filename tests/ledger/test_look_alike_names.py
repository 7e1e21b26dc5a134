"""Look-alike names (issue 30, finding 5): "Аnh Tư" with a Cyrillic А, or "ΝAM" with a Greek Ν, is
not a new person beside "Anh Tư" / "Nam": it is refused with the registered name in the message,
wherever people are named in a club or an event (players, registrations, a pasted player list, the
API, the replay import, the seats of a sitting). Genuine Vietnamese names are never folded: "Tư"
and "Tu", "Đào" and "Dao" stay two people."""

from __future__ import annotations

import copy
import datetime as dt
import uuid
from typing import Any

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scoring.engine.errors import EngineError
from scoring.models import Club, Player
from scoring.names import look_alike, name_key
from scoring.services.people import player_create, player_for_name
from scoring.services.replay import sitting_replay
from tests.conftest import load_cases

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]

CYRILLIC_A = "\u0410nh Tư"  # А (Cyrillic capital A) + "nh Tư"
GREEK_N = "\u039dam"  # Ν (Greek capital nu) + "am"
LOOK_ALIKES = [
    (CYRILLIC_A, "Anh Tư"),
    (GREEK_N, "Nam"),
    ("\uff34\u01b0", "Tư"),  # a fullwidth Ｔ
    ("\U0001d400nh", "Anh"),  # a mathematical bold 𝐀
    ("B\u0131nh", "Binh"),  # a dotless ı
    ("L\u0435 V\u0103n", "Le Văn"),  # a Cyrillic е inside a Vietnamese name
]
#: Genuine Vietnamese names that differ by a letter or an accent: never one name.
VIETNAMESE_PAIRS = [
    ("Tư", "Tu"),
    ("Đào", "Dao"),
    ("Hà", "Ha"),
    ("Ông", "Ong"),
    ("Ơn", "On"),
    ("Ưng", "Ung"),
    ("Ân", "An"),
    ("Đức", "Dúc"),
    ("Bình", "Bính"),
]


@pytest.mark.parametrize(("name", "registered"), LOOK_ALIKES)
def test_a_look_alike_is_one_name_with_what_it_imitates(name: str, registered: str) -> None:
    assert name != registered
    assert name_key(name) == name_key(registered)
    assert look_alike(name, registered) and look_alike(registered, name)


@pytest.mark.parametrize(("a", "b"), VIETNAMESE_PAIRS)
def test_vietnamese_letters_and_accents_are_never_folded(a: str, b: str) -> None:
    assert name_key(a) != name_key(b)
    assert not look_alike(a, b)


def test_the_same_name_typed_again_is_no_look_alike() -> None:
    for a, b in [("Anh Tư", "anh tư"), ("Hoà", "Hòa"), ("Đức", "\u00d0ức")]:
        assert name_key(a) == name_key(b) and not look_alike(a, b)


@pytest.mark.parametrize(("name", "registered"), LOOK_ALIKES[:2])
def test_a_club_refuses_a_look_alike_player_naming_the_registered_one(name: str, registered: str) -> None:
    club = Club.objects.create(name="Làng Mọc", slug="lang-moc")
    player_create(name=registered, club=club)
    with pytest.raises(EngineError) as refused:
        player_create(name=name, club=club)
    assert f"“{registered}”" in refused.value.message and f"“{name}”" in refused.value.message
    with pytest.raises(EngineError, match=registered):
        player_for_name(name=name, club=club)
    assert list(Player.objects.filter(club=club).values_list("name", flat=True)) == [registered]
    # The same name again is still another person of that name, as before; other names are new.
    player_create(name=registered, club=club)
    for a, b in VIETNAMESE_PAIRS:
        player_create(name=a, club=club)
        player_create(name=b, club=club)


def test_the_registered_name_written_with_look_alikes_first_is_caught_too() -> None:
    club = Club.objects.create(name="Làng Mọc", slug="lang-moc")
    player_create(name=CYRILLIC_A, club=club)
    with pytest.raises(EngineError, match=CYRILLIC_A):
        player_create(name="Anh Tư", club=club)


@pytest.fixture
def api(django_user_model: Any) -> APIClient:
    client = APIClient(raise_request_exception=False)
    user = django_user_model.objects.create_user("ghi")
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


def _post(api: APIClient, url: str, body: dict[str, Any], **headers: str) -> Any:
    return api.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()), **headers)


def test_the_api_refuses_look_alikes_in_english_too(api: APIClient) -> None:
    assert _post(api, "/api/v1/players", {"name": "Anh Tư"}).status_code == 201
    refused = _post(api, "/api/v1/players", {"name": CYRILLIC_A})
    assert refused.status_code == 400
    assert "“Anh Tư”" in refused.json()["error"] and "chữ Việt" in refused.json()["error"]
    english = _post(api, "/api/v1/players", {"name": GREEK_N.replace("am", "AM")}, HTTP_ACCEPT_LANGUAGE="en")
    assert english.status_code == 201  # no "NAM" yet
    again = _post(api, "/api/v1/players", {"name": "NAM"}, HTTP_ACCEPT_LANGUAGE="en")
    assert again.status_code == 400 and "looks exactly like" in again.json()["error"]
    # Two new seats of one sitting, one a look-alike of the other (a Cyrillic Ѕ).
    seats = _post(
        api,
        "/api/v1/sittings",
        {"game": "to-tom-5", "rules": "luat-2005", "players": ["Sơn", "\u0405ơn", "Chi", "Dũng", "Em"]},
    )
    assert seats.status_code == 400 and "“Sơn”" in seats.json()["error"]
    genuine = _post(
        api,
        "/api/v1/sittings",
        {"game": "to-tom-5", "rules": "luat-2005", "players": ["Tư", "Tu", "Đào", "Dao", "Ông"]},
    )
    assert genuine.status_code == 201, genuine.json()


def test_an_event_refuses_a_look_alike_registration_naming_the_registered_player() -> None:
    from tournaments.services.events import event_create, registration_add

    event = event_create(name="Hội xuân", date=dt.date(2025, 2, 3), game="to-tom-5", rules="luat-2005")
    club = Club.objects.create(name="Làng Mọc", slug="lang-moc")
    registration_add(event=event, player=player_create(name="Anh Tư", club=club).obj)
    with pytest.raises(EngineError) as refused:
        registration_add(event=event, name=CYRILLIC_A)
    assert "“Anh Tư”" in refused.value.message
    registration_add(event=event, name="Anh Tu")  # another name: no horn on the u


def test_a_pasted_player_list_marks_and_skips_look_alikes(client: Any, django_user_model: Any) -> None:
    from tournaments.services.events import event_create, registration_add

    organiser = django_user_model.objects.create_user("btc")
    event = event_create(
        name="Hội xuân", date=dt.date(2025, 2, 3), game="to-tom-5", rules="luat-2005", created_by=organiser
    )
    registration_add(event=event, name="Anh Tư")
    client.force_login(organiser)
    url = f"/giai/{event.slug}/quan-ly/dang-ky-danh-sach/"
    names = f"{CYRILLIC_A}\nNam\n{GREEK_N}\nTu"
    preview = client.post(url, {"names": names, "action": "preview"}).content.decode()
    assert preview.count("giống hệt") == 2
    assert "giống hệt “Anh Tư”" in preview and "giống hệt “Nam”" in preview
    client.post(url, {"names": names, "action": "save"})
    registered = set(event.registrations.values_list("player__name", flat=True))
    assert registered == {"Anh Tư", "Nam", "Tu"}


def test_the_replay_import_refuses_a_look_alike_of_a_club_player() -> None:
    club = Club.objects.create(name="Làng Mọc", slug="lang-moc")
    player_create(name="Bình", club=club)
    request = copy.deepcopy(load_cases("replay_cases.json")[0]["request"])
    assert request["players"][1] == "Bình"
    imitation = "B\u0456nh"  # a Cyrillic і (no tone mark: "Binh" would be another person anyway)
    player_create(name="Binh", club=club)
    request["players"][1] = imitation
    request["van"] = []
    with pytest.raises(EngineError, match="“Binh”"):
        sitting_replay(request=request, club=club)
