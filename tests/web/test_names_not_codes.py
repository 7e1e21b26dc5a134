"""Pages show names, not internal codes (issue 19, item 8, part): the rule columns were headed by
their ids ('luat-2005') and the calculator showed the rules' hash."""

from __future__ import annotations

import re

import pytest

from scoring.engine.rules import load_rules

pytestmark = pytest.mark.django_db


def test_the_rule_columns_are_headed_by_names_only(client) -> None:
    page = client.get("/le-lang/").content.decode()
    heads = re.findall(r'<th scope="col"[^>]*>(.*?)</th>', page, flags=re.S)
    assert any("Luật Tổ Tôm 2005" in h for h in heads)
    assert not any("luat-2005" in re.sub(r"<[^>]+>", "", h) for h in heads)


def test_the_calculator_shows_no_rules_hash(client) -> None:
    page = client.post(
        "/tinh-diem/", {"game": "to-tom-5", "rules": "luat-2005", "cuoc": ["tom"]}
    ).content.decode()
    assert "Luật Tổ Tôm 2005" in page
    assert load_rules("luat-2005").fingerprint not in page


@pytest.mark.usefixtures("signed_in")
@pytest.mark.parametrize(("prefix", "words"), [("", "hãy chọn người ù"), ("/en", "choose who won")])
def test_a_van_with_no_outcome_is_refused_in_words_of_the_form(client, keeper, prefix, words) -> None:
    from scoring.services.sittings import sitting_open

    sitting = sitting_open(
        game="to-tom-5",
        rules="luat-2005",
        mode="quang",
        players=["An", "Bình", "Chi", "Dũng", "Em"],
        created_by=keeper,
        idempotency_key=None,
    ).obj
    context = client.get(f"/so-diem/{sitting.pk}/").context
    answer = client.post(
        f"{prefix}/so-diem/{sitting.pk}/van/", {"key": context["key"], "seq": context["seq"]}
    )
    page = answer.content.decode()
    assert answer.status_code == 400 and words in page
    assert "'winner'" not in page and "&#x27;winner&#x27;" not in page
