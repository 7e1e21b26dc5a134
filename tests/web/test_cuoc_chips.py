"""Cước chips that can no longer go with those chosen, on the calculator, the ván form and in the
offline pack: the engine's conflict table is shipped as data and the server marks blocked chips
(aria-disabled and the reason); the ván form and the page refuse an impossible win (issue 21)."""

from __future__ import annotations

import html as htmllib
import json
import re
from typing import Any

import pytest

from scoring.engine.conflicts import conflict_table
from scoring.engine.rules import load_rules
from scoring.models import Sitting, Van
from scoring.services.sittings import sitting_open

pytestmark = [pytest.mark.django_db]

PLAYERS = ["An", "Bình", "Chi", "Dũng", "Em"]


def text(response: Any) -> str:
    return htmllib.unescape(response.content.decode())


def chip(html: str, name: str, slug: str) -> str:
    found = re.search(
        rf'<label class="chip[^"]*" data-[a-z]+="{slug}"><input type="checkbox" name="{name}"[^>]*>', html
    )
    assert found, slug
    return found.group(0)


def why(html: str, name: str, slug: str) -> str:
    found = re.search(rf'<span id="why-{name}-{slug}" data-why="{slug}">([^<]*)</span>', html)
    assert found, slug
    return found.group(1)


def shipped(html: str, table_id: str) -> list[dict[str, Any]]:
    found = re.search(rf'<script id="{table_id}" type="application/json">(.*?)</script>', html, re.S)
    assert found
    return json.loads(found.group(1))["conflicts"]


def test_the_calculator_greys_out_what_cannot_go_with_bach_dinh_and_says_why(client: Any) -> None:
    html = text(client.post("/tinh-diem/", {"game": "to-tom-5", "rules": "luat-2005", "cuoc": ["bach_dinh"]}))
    assert 'class="chip blocked" data-cuoc="thap_dieu"' in html
    assert 'aria-disabled="true"' in chip(html, "cuoc", "thap_dieu")
    assert 'aria-describedby="why-cuoc-thap_dieu"' in chip(html, "cuoc", "thap_dieu")
    assert "Bạch Định cần cả 21 quân đen; Thập Điều cần đúng 10 quân đỏ" in why(html, "cuoc", "thap_dieu")
    assert "aria-disabled" not in chip(html, "cuoc", "tom") and why(html, "cuoc", "tom") == ""
    assert "aria-disabled" not in chip(html, "cuoc", "bach_dinh")  # a chosen chip stays choosable
    english = text(
        client.post("/en/tinh-diem/", {"game": "to-tom-5", "rules": "luat-2005", "cuoc": ["bach_dinh"]})
    )
    assert "Bạch Định needs all 21 cards black; Thập Điều needs exactly 10 red cards" in why(
        english, "cuoc", "thap_dieu"
    )


def test_the_calculator_ships_the_engines_table_among_its_chips(client: Any) -> None:
    html = text(client.get("/tinh-diem/?game=chan&rules=chan"))
    table = {frozenset(c["cuoc"]): c["why"] for c in shipped(html, "calc-conflicts")}
    engine = conflict_table("chan", load_rules("chan"))
    assert frozenset({"bach_dinh", "tam_do"}) in table
    assert table[frozenset({"bach_dinh", "tam_do"})] == next(
        c.why.render() for c in engine.conflicts if set(c.cuoc) == {"bach_dinh", "tam_do"}
    )
    assert {frozenset(c.cuoc) for c in engine.conflicts} == set(table)


def test_the_calculator_answers_an_impossible_selection_with_the_engines_refusal(client: Any) -> None:
    html = text(
        client.post("/tinh-diem/", {"game": "tai-ban", "rules": "tai-ban", "cuoc": ["tai_ban", "suu_ban"]})
    )
    assert "Không bài ù Tài Bàn nào có cùng lúc Tài Bàn và Sửu Bàn" in html
    assert 'data-testid="points"' not in html


@pytest.fixture
def sitting(keeper: Any) -> Sitting:
    return sitting_open(
        game="to-tom-5",
        rules="luat-2005",
        mode="quang",
        players=PLAYERS,
        created_by=keeper,
        idempotency_key=None,
    ).obj


@pytest.mark.usefixtures("signed_in")
def test_the_van_form_ships_the_table_and_refuses_an_impossible_win(client: Any, sitting: Sitting) -> None:
    page = text(client.get(f"/so-diem/{sitting.pk}/"))
    pairs = {frozenset(c["cuoc"]) for c in shipped(page, "van-conflicts")}
    assert {frozenset({"kinh_cu", "leo"}), frozenset({"chi_nay", "kinh_tu_co"})} <= pairs
    assert 'data-conflicts="van-conflicts" data-chip-group="declared"' in page
    context = client.get(f"/so-diem/{sitting.pk}/").context
    taps = {"key": context["key"], "seq": context["seq"], "winner": "An", "cuoc": ["kinh_cu", "leo"]}
    preview = text(client.post(f"/so-diem/{sitting.pk}/xem-truoc/", taps))
    assert "Kính Cụ cần 20 quân đen và 1 Ông Cụ; Lèo cần Cửu Vạn, Bát Sách, Chi Chi (3 quân đỏ)" in preview
    saved = client.post(f"/so-diem/{sitting.pk}/van/", taps)
    assert saved.status_code == 400
    assert "Không bài ù Tổ Tôm Bí Ngũ nào có cùng lúc Kính Cụ và Lèo" in text(saved)
    assert not Van.objects.filter(sitting=sitting).exists()
    # what was tapped stays, marked: Lèo and Kính Cụ are both chosen, so neither is greyed out
    assert "aria-disabled" not in chip(text(saved), "cuoc", "leo")
    assert 'aria-disabled="true"' in chip(text(saved), "cuoc", "bach_dinh")


@pytest.mark.usefixtures("signed_in")
def test_the_offline_pack_carries_the_table_in_the_page_language(client: Any, sitting: Sitting) -> None:
    pack = client.get(f"/so-diem/{sitting.pk}/ngoai-tuyen.json").json()
    conflicts = {frozenset(c["cuoc"]): c["why"] for c in pack["rules"]["conflicts"]}
    assert "Bạch Định cần cả 21 quân đen" in conflicts[frozenset({"bach_dinh", "thap_dieu"})]
    english = client.get(f"/en/so-diem/{sitting.pk}/ngoai-tuyen.json").json()
    assert any("needs all 21 cards black" in c["why"] for c in english["rules"]["conflicts"])
    assert pack["rules"]["main_cuoc"] == "most_points"


def test_the_calculator_chips_follow_a_new_version_of_the_village_rule_set(client: Any) -> None:
    """The chips are rendered once per language, rule set and choice and kept in the cache
    (issue 24): a new version of the village's rules shows at once, never the kept chips."""
    from scoring.services.rules import village_rules_save

    village_rules_save(name="Làng Đoài", preset="luat-2005", overrides={"cuoc": {"kinh_cu": {"main": 24}}})
    form = {"game": "to-tom-5", "rules": "lang-doai", "cuoc": ["tom"]}
    assert "Kính Cụ<small>24</small>" in text(client.post("/tinh-diem/", form))
    village_rules_save(name="Làng Đoài", preset="luat-2005", overrides={"cuoc": {"kinh_cu": {"main": 30}}})
    again = text(client.post("/tinh-diem/", form))
    assert "Kính Cụ<small>30</small>" in again and "Kính Cụ<small>24</small>" not in again
