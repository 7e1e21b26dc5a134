"""Issue 19, items 8 and 10: cards shown by name (both languages), Phỏm on the calculator (settled by
rank or by ù, as the engine settles a canh), and Kiểm bài checking Phỏm from each player's cards (issue 31)."""

from __future__ import annotations

import re

import pytest
from django.template import Context, Template
from django.utils import translation

pytestmark = pytest.mark.django_db


def _render(source: str, **values: object) -> str:
    return Template("{% load cards %}" + source).render(Context(values))


@pytest.mark.parametrize(
    ("language", "hand", "names"),
    [
        ("vi", "7v 3m 8s cc tt oc", "Thất Văn, Tam Vạn, Bát Sách, Chi Chi, Thang Thang, Ông Cụ"),
        ("en", "7v 3m 8s cc tt oc", "7 of Văn, 3 of Vạn, 8 of Sách, Chi Chi, Thang Thang, Ông Cụ"),
        ("vi", "1V,9s", "Nhất Văn, Cửu Sách"),
    ],
)
def test_card_codes_are_shown_as_names(language: str, hand: str, names: str) -> None:
    with translation.override(language):
        assert _render("{{ hand|card_names }}", hand=hand) == names
        first = hand.replace(",", " ").split()[0]
        assert _render("{{ code|card_name }}", code=first) == names.split(", ")[0]


def test_a_token_that_is_no_code_is_shown_as_typed() -> None:
    assert _render("{{ hand|card_names }}", hand="7v xx") == "Thất Văn, xx"


def test_the_calculator_offers_phom(client) -> None:
    page = client.get("/").content.decode()
    assert re.search(r'<option value="phom"[^>]*>Phỏm</option>', page)


def _balances(page: str) -> dict[str, str]:
    table = page.split('data-testid="phom-balances"')[1].split("</table>")[0]
    return dict(re.findall(r"<td>([^<]+)</td><td class=\"num[^\"]*\">([^<]+)</td>", table))


def test_a_phom_van_by_rank_is_settled_as_a_canh_would_be(client) -> None:
    # Người 2 first, Người 1 second, Người 4 third, Người 3 last: 1, 2, 3 points to the first (preset Phỏm).
    data = {"game": "phom", "rules": "phom", "players": "4", "outcome": "ranks"}
    data |= {"place_1": "2", "place_2": "1", "place_3": "4", "place_4": "3"}
    page = client.post("/", data).content.decode()
    assert _balances(page) == {"Người 1": "−1", "Người 2": "+6", "Người 3": "−3", "Người 4": "−2"}
    assert "Phỏm" in page


def test_a_phom_u_with_den_makes_the_feeder_pay_everyones_share(client) -> None:
    data = {"game": "phom", "rules": "phom", "players": "3", "outcome": "u", "u_winner": "2", "u_den": "3"}
    page = client.post("/en/", data).content.decode()
    # Ù: 5 from each of the 2 others; the feeder pays both shares alone.
    assert _balances(page) == {"Player 1": "0", "Player 2": "+10", "Player 3": "−10"}


@pytest.mark.parametrize(("prefix", "words"), [("", "Mỗi thứ hạng chỉ một người"), ("/en", "Each place")])
def test_two_players_on_one_place_are_refused_in_the_forms_words(client, prefix, words) -> None:
    data = {"game": "phom", "rules": "phom", "players": "3", "outcome": "ranks"}
    data |= {"place_1": "1", "place_2": "1", "place_3": "3"}
    page = client.post(f"{prefix}/", data).content.decode()
    assert words in page
    assert "ranks" not in re.sub(r"<[^>]+>", "", page.split('id="ket-qua"')[1])


@pytest.mark.parametrize("prefix", ["", "/en"])
def test_kiem_bai_checks_phom_from_each_players_cards(client, prefix) -> None:
    """Issue 31, item 3 (was: a note saying Phỏm could not be checked)."""
    page = client.get(f"{prefix}/kiem-bai/").content.decode()
    assert re.search(r'<option value="phom"[^>]*>Phỏm</option>', page)
    data = {"game": "phom", "players": "3", "hand_1": "ab 2b 3b 4b 7c 7r 7t kc qc"}
    data |= {"hand_2": "5c 6c 8c 9r 10r jr 2t 3t 4t", "hand_3": "K♠ Q♠ 9t"}
    page = client.post(f"{prefix}/kiem-bai/", data).content.decode()
    assert page.count("data-card-picker") == 3 and 'data-max="1"' in page
    assert 'name="hand_3" value="kb qb 9t"' in page  # symbols read, the codes kept
    assert re.search(r'data-testid="points-1">25<', page) and re.search(r'data-testid="points-3">34<', page)
    fill = page.split('data-testid="fill-calculator"')[1].split("</form>")[0]
    assert 'name="place_2" value="1"' in fill and 'name="place_1" value="2"' in fill
    assert 'name="place_3" value="3"' in fill
    refused = client.post(f"{prefix}/kiem-bai/", {**data, "hand_3": "kc"}).content.decode()
    assert 'role="alert"' in refused


def test_kiem_bai_shows_the_hand_by_name_and_keeps_the_codes_in_its_field(client) -> None:
    page = client.post("/kiem-bai/", {"game": "to-tom-5", "hand": "7V 3m", "add": "cc"}).content.decode()
    assert 'name="hand" value="7v 3m cc"' in page
    hand = page.split("data-picked>")[1].split("</div>")[0]
    assert [n.strip() for n in re.findall(r">([^<]+)</button>", hand)] == ["Thất Văn", "Tam Vạn", "Chi Chi"]
    chi_chi = re.search(r'<button[^>]*data-card="cc"[^>]*>(.*?)</button>', page, flags=re.S)
    assert chi_chi and 'aria-pressed="true"' in chi_chi.group(0)
    assert re.sub(r"<[^>]+>", "", chi_chi.group(1)).split() == ["Chi", "Chi", "1"]


PHOM_REFUSALS = [
    ({}, "Chưa có kết quả ván Phỏm", "No outcome yet for this Phỏm ván"),
    ({"rank_1": "An"}, "Xếp hạng chưa đủ", "The places are not complete"),
    (
        {"rank_1": "An", "rank_2": "An", "rank_3": "Chi"},
        "Một người được xếp hai thứ hạng",
        "One player has two places",
    ),
    (
        {"winner": "An", "den": "An"},
        "Người đền phải là người khác người ù",
        "must be someone other than the winner",
    ),
]


@pytest.mark.usefixtures("signed_in")
@pytest.mark.parametrize(("data", "vi", "en"), PHOM_REFUSALS)
def test_a_phom_van_form_is_refused_in_its_own_words_not_the_apis_keys(client, keeper, data, vi, en) -> None:
    """Issue 19, item 8: the engine's Phỏm refusals name 'ranks', 'winner', 'den' (the API's keys)."""
    from scoring.services.sittings import sitting_open

    sitting = sitting_open(
        game="phom",
        rules="phom",
        mode="quang",
        players=["An", "Bình", "Chi"],
        created_by=keeper,
        idempotency_key=None,
    ).obj
    for prefix, words in (("", vi), ("/en", en)):
        context = client.get(f"{prefix}/so-diem/{sitting.pk}/").context
        answer = client.post(
            f"{prefix}/so-diem/{sitting.pk}/van/", {"key": context["key"], "seq": context["seq"], **data}
        )
        errors = " ".join(re.findall(r'class="error"[^>]*>(.*?)</', answer.content.decode(), flags=re.S))
        assert answer.status_code == 400 and words in errors
        assert not re.search(r"(&#x27;|')(ranks|winner|den)(&#x27;|')", errors)


TO_TOM_REFUSALS = [
    (
        {"winner": "An", "discarder": "An"},
        "An ù nên không thể là người đánh ra quân ù",
        "An won, so cannot be",
    ),
    (
        {"winner": "An", "chiu": ["An"]},
        "An đã chịu (bỏ ván) nên không thể ù",
        "An folded (chịu), so cannot win",
    ),
]


@pytest.mark.usefixtures("signed_in")
@pytest.mark.parametrize(("data", "vi", "en"), TO_TOM_REFUSALS)
def test_a_to_tom_van_form_is_refused_in_its_own_words_not_the_apis_keys(
    client, keeper, data, vi, en
) -> None:
    """Issue 19, item 8: the winner tapped as the discarder, or among those who folded, was refused
    naming 'discarder' and 'winner'."""
    from scoring.services.sittings import sitting_open

    sitting = sitting_open(
        game="to-tom-5",
        rules="luat-2005",
        mode="quang",
        players=["An", "Bình", "Chi", "Dũng", "Em"],
        created_by=keeper,
        idempotency_key=None,
    ).obj
    for prefix, words in (("", vi), ("/en", en)):
        context = client.get(f"{prefix}/so-diem/{sitting.pk}/").context
        for url in ("xem-truoc", "van"):
            answer = client.post(
                f"{prefix}/so-diem/{sitting.pk}/{url}/",
                {"key": context["key"], "seq": context["seq"], **data},
            )
            errors = " ".join(re.findall(r'class="error"[^>]*>(.*?)</', answer.content.decode(), flags=re.S))
            assert answer.status_code == 400 and words in errors, (url, errors)
            assert not re.search(r"(&#x27;|')(winner|discarder|chiu)(&#x27;|')", errors)
