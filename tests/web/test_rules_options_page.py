"""The choices where the sources disagree, on the lệ làng page: shown per rule set with the default
named, switchable in the form, saved as a village's own rule and obeyed when scoring (issue 21)."""

from __future__ import annotations

import html as htmllib
from typing import Any

import pytest

from scoring.models import VillageRuleSet

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("signed_in")]


def text(response: Any) -> str:
    return htmllib.unescape(response.content.decode())


def test_the_table_shows_each_choice_with_the_default_named(client: Any) -> None:
    page = text(client.get("/le-lang/"))
    for label, default in [
        ("Cước tính điểm chính (Cửu Khôi + Thập Điều)", "cước cho ván nhiều điểm nhất (mặc định)"),
        (
            "Hai cước bằng điểm chính (Hội 50), khi tính tiếng ù cao nhất",
            "cước cho ván nhiều điểm hơn (mặc định)",
        ),
        ("Tôm, Lèo lặp lại", "mỗi Tôm, mỗi Lèo đều tính (mặc định)"),
        ("Gà đầu hội khi đánh quăng", "góp một lần trước ván đầu (mặc định)"),
        ("Tài Bàn: ba quân giống nhau không nói là khàn", "tính như phỗng (mặc định)"),
        ("Chắn: gà nuôi", "có gà nuôi (mặc định)"),
    ]:
        assert f'<th scope="row">{label}</th>' in page, label
        assert f"<td>{default}</td>" in page, default
    assert "N−2 dịch (Luật 2005: Bát Khôi + Thập Điều = 30)" in page and "N−1 dịch (Hội 50)" in page
    english = text(client.get("/en/le-lang/"))
    assert "Cước counted at its main value (Cửu Khôi + Thập Điều)" in english
    assert "count as a phỗng (default)" in english


def test_the_form_offers_the_choices_of_the_preset_s_games(client: Any) -> None:
    context = client.get("/le-lang/moi/?preset=luat-2005").context
    keys = [f["key"] for f in context["disputed"]]
    assert keys == ["main_cuoc", "main_tie", "khoi_dich_offset", "tom_leo_repeat", "ga_dau_hoi_quang"]
    assert {f["key"]: f["value"] for f in context["disputed"]}["khoi_dich_offset"] == "2"
    chan = [f["key"] for f in client.get("/le-lang/moi/?preset=chan").context["disputed"]]
    assert chan == ["main_cuoc", "main_tie", "tom_leo_repeat", "chan_ga_nuoi"]
    page = text(client.get("/le-lang/moi/?preset=tai-ban"))
    assert 'name="tai_ban_triple"' in page and 'name="main_cuoc"' not in page


def _save(client: Any, preset: str, name: str, **choices: str) -> Any:
    """Save with only the given choices changed (the form's checkbox says Luật 2005's Tứ Trụ cộng dịch)."""
    keep = {"tu_tru_cong_dich": "on"} if preset == "luat-2005" else {}
    return client.post("/le-lang/moi/", {"name": name, "preset": preset, **keep, **choices}, follow=True)


def score(client: Any, rules: str, cuoc: list[str], streak: int = 1, game: str = "to-tom-5") -> Any:
    return client.post(
        "/api/v1/score",
        {"game": game, "rules": rules, "cuoc": cuoc, "streak": streak},
        content_type="application/json",
    ).json()


def test_a_village_that_counts_the_highest_tieng_scores_cuu_khoi_thap_dieu_26(client: Any) -> None:
    assert score(client, "luat-2005", ["thap_dieu"], 9)["points"] == 32
    response = _save(client, "luat-2005", "Làng Tiếng Cao", main_cuoc="highest", main_tie="most_points")
    assert "Đã lưu lệ làng" in text(response)
    village = VillageRuleSet.objects.get(slug="lang-tieng-cao")
    assert village.overrides == {"main_cuoc": "highest"}
    assert score(client, "lang-tieng-cao", ["thap_dieu"], 9)["points"] == 26
    page = text(client.get("/le-lang/"))
    assert "<td>tiếng ù cao nhất: điểm chính lớn nhất</td>" in page


def test_khoi_beside_a_higher_cuoc_by_the_seed_s_printed_figure(client: Any) -> None:
    _save(client, "luat-2005", "Làng Ba Mươi Tư", khoi_dich_offset="0")
    assert VillageRuleSet.objects.get(slug="lang-ba-muoi-tu").overrides == {"khoi_dich_offset": 0}
    assert score(client, "lang-ba-muoi-tu", ["thap_dieu"], 8)["points"] == 34
    assert score(client, "luat-2005", ["thap_dieu"], 8)["points"] == 30


def test_a_village_without_ga_nuoi_and_one_counting_lèo_once(client: Any) -> None:
    _save(client, "chan", "Chiếu Không Gà", chan_ga_nuoi="none", tom_leo_repeat="once")
    assert VillageRuleSet.objects.get(slug="chieu-khong-ga").overrides == {
        "chan_ga_nuoi": "none",
        "tom_leo_repeat": "once",
    }
    assert score(client, "chieu-khong-ga", ["leo", "leo"], game="chan")["points"] == 5
    assert score(client, "chan", ["leo", "leo"], game="chan")["points"] == 7


def test_a_choice_the_engine_does_not_know_is_refused_and_nothing_saved(client: Any) -> None:
    response = client.post(
        "/le-lang/moi/", {"name": "Làng Lạ", "preset": "luat-2005", "main_cuoc": "ngau_nhien"}
    )
    assert response.status_code == 400
    assert "Luật: 'main_cuoc' phải là một trong 'most_points', 'highest'" in text(response)
    assert not VillageRuleSet.objects.exists()
