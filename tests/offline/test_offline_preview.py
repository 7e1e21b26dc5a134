"""The phone's offline arithmetic agrees with the server: in real Chromium, the preview's points
(preview.js) equal the engine's for every combination of up to three cước and streaks 1–4 under
each Tổ Tôm preset, and the record the form makes (for the outbox) equals the server's VanForm
record, so a ván first tried online and then queued carries the same body under the same key."""

from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest
from django.http import QueryDict

from scoring.engine.errors import EngineError
from scoring.engine.games import get_game
from scoring.engine.points import score
from scoring.engine.rules import load_rules
from scoring.models import Sitting
from scoring.views.sitting.form import VanForm
from tests.conftest import sign_in
from tests.factories import open_sitting

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def loaded_pack(page: Any, base: str, pk: int) -> dict[str, Any]:
    """The sitting's offline pack as the phone keeps it (the phone signed in as the sitting's opener)."""
    sign_in(page.context, base, Sitting.objects.get(pk=pk).created_by)
    page.goto(f"{base}/so-diem/{pk}/")
    # A selector, not wait_for_function (a string Playwright evaluates: no unsafe-eval under the CSP).
    page.locator("html[data-offline-parts*='pack']").wait_for(state="attached")
    return page.evaluate(f"SoTomOutbox.getPack({pk})")


def engine_points(rules: Any, cuoc: list[str], streak: int) -> int | None:
    try:
        return score("to-tom-5", rules, cuoc, streak=streak).points
    except EngineError:
        return None


@pytest.mark.parametrize(
    "preset",
    [
        "luat-2005",
        "suong4-dich2",
        "suong2-dich1",
        "hoi-50",
        # the rule set's choice of main cước travels in the pack (issue 21)
        pytest.param({"preset": "luat-2005", "main_cuoc": "highest"}, id="luat-2005-highest"),
        pytest.param(
            {"preset": "hoi-50", "main_cuoc": "highest", "main_tie": "most_dich"},
            id="hoi-50-highest-most-dich",
        ),
    ],
)
def test_the_offline_points_equal_the_engines(live_server, phone, keeper, preset) -> None:
    sitting = open_sitting(rules=preset, created_by=keeper)
    pack = loaded_pack(phone, live_server.url, sitting.pk)
    slugs = sorted(pack["rules"]["cuoc"])
    cases = [[list(c), s] for n in range(4) for c in combinations(slugs, n) for s in (1, 2, 3, 4)]
    shown = phone.evaluate(
        "([rules, cases]) => cases.map(([c, s]) => { const r = SoTomPreview.score(rules, c, s); return r && r.points; })",
        [pack["rules"], cases],
    )
    rules = load_rules(preset)
    expected = [engine_points(rules, c, s) for c, s in cases]
    wrong = [
        (c, s, js, py)
        for (c, s), js, py in zip(cases, shown, expected, strict=True)
        if py is not None and js != py
    ]
    assert not wrong, wrong[:5]
    assert len(cases) > 1000


FILL = """([fields]) => {
  const form = document.getElementById('van-form');
  form.reset();
  for (const [name, value] of fields) {
    const box = form.querySelector(`input[name="${name}"][value="${value}"]`);
    if (box && (box.type === 'checkbox' || box.type === 'radio')) { box.checked = true; continue; }
    form.querySelector(`[name="${name}"]`).value = value;
  }
  const data = new FormData(form);
  let record = null, error = null;
  try { record = SoTomPreview.record(data, window.__pack); } catch (e) { error = e.message; }
  return {entries: [...data.entries()], record, error};
}"""

SCENARIOS = [
    [("winner", "An"), ("cuoc", "tom"), ("cuoc", "leo"), ("discarder", "Bình"), ("chiu", "Em")],
    [
        ("winner", "__hoa__"),
        ("dau_ke", "Chi"),
        ("ga_kind_1", "nhai"),
        ("ga_player_1", "Dũng"),
        ("ga_kind_2", "quan_lo"),
        ("ga_player_2", "Em"),
        ("ga_count_2", "3"),
    ],
    [("bao", "Dũng"), ("regime", "cheo_do")],
    [
        ("winner", "Chi"),
        ("fault", "xuong_thua"),
        ("declared", "tom"),
        ("cards", "  1v 2v  "),
        ("den_lang", "An"),
        ("den_lang", "Bình"),
    ],
    [("winner", "An"), ("ga_kind_1", "nhai"), ("ga_player_1", "An"), ("ga_count_1", "1")],
    [("winner", "Em"), ("ga_kind_1", "quan_lo"), ("ga_player_1", "Bình"), ("ga_count_1", "ba")],
]


def test_the_outbox_record_is_the_servers_record(live_server, phone, keeper) -> None:
    sitting = open_sitting(rules={"preset": "luat-2005", "ga_trong": "lang"}, created_by=keeper)
    pack = loaded_pack(phone, live_server.url, sitting.pk)
    phone.evaluate("p => { window.__pack = p; }", pack)
    game = get_game("to-tom-5")
    for fields in SCENARIOS:
        shown = phone.evaluate(FILL, [fields])
        data = QueryDict(mutable=True)
        for name, value in shown["entries"]:
            data.appendlist(name, value)
        form = VanForm.from_post(data, 5)
        try:
            expected, error = form.record(game), None
        except EngineError as exc:
            expected, error = None, exc.message
        assert (shown["record"], shown["error"]) == (expected, error), fields
        if form.cards:
            assert form.cards == "1v 2v"
