"""Lệ làng pages: every preset side by side, and saving a village's own numbers."""

from __future__ import annotations

import pytest

from scoring.models import VillageRuleSet

#: Saving a village's rule set needs an account (the table itself is public: tests/web/test_access_scoring.py).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("signed_in")]


def test_rules_table_shows_the_four_to_tom_presets_side_by_side(client) -> None:
    page = client.get("/le-lang/").content.decode()
    for name in ("luat-2005", "suong4-dich2", "suong2-dich1", "hoi-50"):
        assert name in page
    # docs/rules.md §6: Thập Điều is 18 / 3 under luat-2005, 12 / 3 on the Sân Đình table, 6 / 3 for Suông hai.
    assert "18 / 3" in page and "12 / 3" in page and "6 / 3" in page
    assert "Kính Tứ Cố" in page and "Chi Nẩy" in page


def test_new_rule_set_form_is_prefilled_from_the_preset(client) -> None:
    page = client.get("/le-lang/moi/?preset=suong2-dich1").content.decode()
    assert 'name="suong"' in page
    assert 'name="main_leo" type="number" min="0" value="5"' in page


def test_saving_a_village_rule_set_stores_only_the_changes_and_scores_with_them(client) -> None:
    form = client.get("/le-lang/moi/?preset=luat-2005").context
    data = {"name": "Làng Đình Bảng", "preset": "luat-2005", "description": "Kính Cụ 24"}
    for f in form["numbers"]:
        data[f["key"]] = "" if f["value"] is None else str(f["value"])
    for f in form["choices"]:
        data[f["key"]] = f["value"]
    data["tu_tru_cong_dich"] = "on"
    for row in form["cuoc_rows"]:
        data[f"main_{row['slug']}"] = str(row["main"])
        data[f"dich_{row['slug']}"] = str(row["dich"])
    data["main_kinh_cu"] = "24"
    response = client.post("/le-lang/moi/", data, follow=True)
    assert response.status_code == 200
    assert "Đã lưu lệ làng" in response.content.decode()
    village = VillageRuleSet.objects.get(slug="lang-dinh-bang")
    assert village.overrides == {"cuoc": {"kinh_cu": {"main": 24}}}
    answer = client.post(
        "/api/v1/score",
        {"game": "to-tom-5", "rules": "lang-dinh-bang", "cuoc": ["kinh_cu"]},
        content_type="application/json",
    ).json()
    assert answer["points"] == 24
    assert "Làng Đình Bảng" in client.get("/le-lang/").content.decode()


def test_bad_numbers_are_refused_in_vietnamese_and_nothing_is_saved(client) -> None:
    response = client.post("/le-lang/moi/", {"name": "Làng X", "preset": "luat-2005", "suong": "bốn"})
    assert response.status_code == 400
    assert "phải là một số nguyên" in response.content.decode()
    assert not VillageRuleSet.objects.exists()


def test_a_name_is_required(client) -> None:
    response = client.post("/le-lang/moi/", {"name": " ", "preset": "luat-2005"})
    assert response.status_code == 400
    assert "Hãy đặt tên" in response.content.decode()
