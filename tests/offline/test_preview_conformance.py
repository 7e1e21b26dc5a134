"""The offline preview (static/offline/preview.js) is the engine's twin, not a second engine: run in
real Chromium from the offline pack the server sends, it gives the same points, the same transfers
and the same words as scoring/engine and the sitting page, over every public golden case
(tests/data/) and 500 generated ván (every outcome, faults, báo regimes, gà, đánh quăng and đánh
gom). Where it cannot compute a ván it must say so (``unsupported``) and show no number; those
cases are counted, and there are none among the golden cases and the generated ván.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from scoring.engine.conflicts import combination_problem
from scoring.engine.errors import ConflictError, EngineError
from scoring.engine.points import score
from scoring.engine.settlement import initial_state, settle_van
from scoring.models import Sitting
from scoring.selectors.ledger import van_list
from scoring.selectors.sitting import SittingFacts, describe
from tests.conftest import sign_in
from tests.factories import open_sitting, record_all

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DATA = Path(__file__).resolve().parent.parent / "data"
SEATS = {"to-tom-5": 5, "to-tom-4": 4, "tai-ban": 3, "chan": 4, "phom": 4}
NAMES = ["An", "Bình", "Chi", "Dũng", "Em"]

#: Every ván of a sitting previewed as the phone would: the pack as fetched, the ván before it
#: waiting in the outbox (``queued``), then the ván itself.
RUN = """([pack, records]) => records.map((rec, i) => {
  const queued = records.slice(0, i).map((record) => ({ record }));
  const view = SoTomPreview.preview(pack, rec, pack.next_seq + i, queued);
  return { summary: view.summary, points: view.points, streak: view.streak, streakName: view.streakName,
    transfers: view.transfers && view.transfers.map((t) => [t.from, t.to, t.amount]),
    after: view.after && view.after.map((a) => [a.name, a.balance]), unsupported: view.unsupported };
})"""


class Phone:
    """A signed-in phone on a sitting page (preview.js and the script catalogue loaded), fetching
    each sitting's offline pack from the server as the page does."""

    def __init__(self, page: Any, base: str, keeper: Any) -> None:
        self.page = page
        self.base = base
        self.keeper = keeper
        self.ready = False

    def pack(self, sitting: Sitting) -> dict[str, Any]:
        if not self.ready:
            sign_in(self.page.context, self.base, self.keeper)
            self.page.goto(f"{self.base}/so-diem/{sitting.pk}/")
            self.page.locator("html[data-offline-parts*='pack']").wait_for(state="attached")
            self.ready = True
        return self.page.evaluate(
            "async (url) => (await fetch(url, { credentials: 'same-origin' })).json()",
            f"/so-diem/{sitting.pk}/ngoai-tuyen.json",
        )

    def run(self, pack: dict[str, Any], records: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return self.page.evaluate(RUN, [pack, records])


@pytest.fixture
def device(live_server: Any, phone: Any, keeper: Any) -> Phone:
    return Phone(phone, live_server.url, keeper)


def engine_views(sitting: Sitting, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What the server makes of the same ván: the engine's settlement, the page's words."""
    table = SittingFacts.of(sitting)
    players = list(NAMES[: SEATS[sitting.game]])
    state = initial_state(players, table.game, table.rules, sitting.mode)
    out = []
    for rec in records:
        done = settle_van(state, rec, game=table.game, rules=table.rules, mode=sitting.mode)
        pool, pot = table.account("pool"), table.account("ga_trong")
        after = [[n, b] for n, b in zip(done.state.players, done.state.balances, strict=True)]
        if done.state.pool or state.pool:
            after.append([pool, done.state.pool])
        if done.state.ga_trong or state.ga_trong:
            after.append([pot, done.state.ga_trong])
        won = bool(rec.get("winner"))
        out.append(
            {
                "summary": describe(table, rec),
                "points": done.points if won else None,
                "streak": done.streak if won else 0,
                "streakName": table.streak_name(done.streak) if won else "",
                "transfers": [[t.from_, t.to, t.amount] for t in done.transfers],
                "after": after,
                "unsupported": None,
            }
        )
        state = done.state
    return out


def differences(shown: list[dict[str, Any]], expected: list[dict[str, Any]], records: list[Any]) -> list[Any]:
    return [
        (i + 1, rec, js, py)
        for i, (js, py, rec) in enumerate(zip(shown, expected, records, strict=True))
        if js != py
    ]


# -- the public golden cases ---------------------------------------------------------------------


def golden_scoring_cases() -> list[dict[str, Any]]:
    return json.loads((DATA / "scoring_cases.json").read_text(encoding="utf-8"))


def test_every_golden_scoring_case(device: Phone) -> None:
    """Each golden win, previewed as a ván after the wins that make its streak: the golden points,
    the engine's transfers and the page's words, and not one case the phone cannot compute."""
    unsupported = []
    checked = 0
    for case in golden_scoring_cases():
        req = case["request"]
        seats = SEATS[req["game"]]
        sitting = open_sitting(
            game=req["game"], rules=req["rules"], players=NAMES[:seats], created_by=device.keeper
        )
        pack = device.pack(sitting)
        streak = req.get("streak", 1)
        records = [{"winner": "An"} for _ in range(streak - 1)] + [{"winner": "An", "cuoc": req["cuoc"]}]
        shown = device.run(pack, records)
        expected = engine_views(sitting, records)
        assert (
            shown[-1]["points"]
            == case["points"]
            == score(req["game"], req["rules"], req["cuoc"], streak).points
        ), case
        assert not differences(shown, expected, records), (
            case["name"],
            differences(shown, expected, records),
        )
        unsupported += [case["name"] for view in shown if view["unsupported"]]
        checked += 1
    assert checked == len(golden_scoring_cases()) >= 28
    assert unsupported == []


def test_the_golden_sitting(device: Phone) -> None:
    """The worked example sitting: every ván's transfers and the final balances, ván by ván."""
    cases = json.loads((DATA / "replay_cases.json").read_text(encoding="utf-8"))
    for case in cases:
        req = case["request"]
        sitting = open_sitting(
            game=req["game"],
            rules=req["rules"],
            mode=req["mode"],
            players=req["players"],
            created_by=device.keeper,
        )
        pack = device.pack(sitting)
        shown = device.run(pack, req["van"])
        assert not [v for v in shown if v["unsupported"]]
        assert not differences(shown, engine_views(sitting, req["van"]), req["van"])
        final = dict(shown[-1]["after"])
        assert {n: final[n] for n in req["players"]} == case["balances"]
        assert final.get("Điểm làng", 0) == case["pool"]


# -- 500 generated ván ---------------------------------------------------------------------------

#: Sittings the generator plays: every family the preview settles, both money modes, every gà
#: regime and kind, the three báo regimes, the rule-set choices the settlement reads.
CONFIGS: list[tuple[str, Any, str]] = [
    ("to-tom-5", "luat-2005", "quang"),
    ("to-tom-5", "luat-2005", "gom"),
    ("to-tom-5", {"preset": "luat-2005", "ga_trong": "cong_nghiep", "ga_ngoai": "don"}, "quang"),
    (
        "to-tom-5",
        {
            "preset": "luat-2005",
            "ga_trong": "cong_nghiep",
            "ga_ngoai": "chong",
            "kinh_tu_co_policy": "het_hoi",
            "gom_topup_below": 30,
        },
        "gom",
    ),
    (
        "to-tom-5",
        {
            "preset": "hoi-50",
            "ga_trong": "lang",
            "bao_regime": "cheo_do",
            "main_cuoc": "highest",
            "main_tie": "most_dich",
        },
        "gom",
    ),
    (
        "to-tom-5",
        {
            "preset": "suong4-dich2",
            "ga_trong": "rung",
            "bao_regime": "ngoi_day",
            "lanh_lang_breaks_streak": False,
            "chiu_pays": True,
        },
        "quang",
    ),
    (
        "to-tom-5",
        {
            "preset": "suong2-dich1",
            "ga_trong": "nha",
            "ga_dau_hoi_quang": "none",
            "tom_leo_repeat": "once",
            "den_lang_amount": 3,
        },
        "quang",
    ),
    ("to-tom-4", {"preset": "luat-2005", "ga_trong": "cong_nghiep", "bao_regime": "cheo_do"}, "quang"),
    ("to-tom-4", {"preset": "luat-2005", "ga_ngoai": "don", "gom": 12}, "gom"),
    ("chan", "chan", "quang"),
    ("chan", {"preset": "chan", "gom": 10, "chan_ga_cuoc": ["chi", "tom+leo"]}, "gom"),
    ("tai-ban", "tai-ban", "quang"),
]
FAULTS = ["lanh_lang", "u_bao", "xuong_thua", "danh_u_den", "den_chong"]
REGIMES = ["den_lang", "ngoi_day", "cheo_do"]
VAN_PER_SITTING = 42  # 12 sittings × 42 = 504 ván


def generated(rnd: random.Random, pack: dict[str, Any]) -> dict[str, Any]:
    """One random ván of the sitting (the engine may refuse it: the caller draws again)."""
    players = pack["names"]
    rec: dict[str, Any] = {}
    roll = rnd.random()
    if roll < 0.1:
        rec["result"] = "hoa"
        if rnd.random() < 0.5:
            rec["dau_ke"] = rnd.choice(players)
    elif roll < 0.2:
        rec["bao"] = rnd.choice(players)
    else:
        rec.update(_win(rnd, pack))
    if rec.get("bao") and rnd.random() < 0.6:
        rec["regime"] = rnd.choice(REGIMES)
    if rnd.random() < 0.25:
        taken = {rec.get(k) for k in ("winner", "discarder", "bao")}
        rec["chiu"] = rnd.sample([p for p in players if p not in taken], 1)
    ga = _ga(rnd, pack)
    if ga:
        rec["ga"] = ga
    if rnd.random() < 0.08:
        rec["den_lang"] = [rnd.choice(players)]
    return rec


def _win(rnd: random.Random, pack: dict[str, Any]) -> dict[str, Any]:
    players = pack["names"]
    chips = sorted(s for s in pack["rules"]["cuoc"] if s not in ("thong", pack["rules"]["plain_slug"]))
    winner = rnd.choice(players[:2] if rnd.random() < 0.5 else players)  # so that streaks happen
    rec: dict[str, Any] = {"winner": winner}
    cuoc = rnd.sample(chips, min(len(chips), rnd.choice([0, 0, 1, 1, 1, 2, 2, 3])))
    if cuoc:
        rec["cuoc"] = cuoc
    fault = rnd.choice(FAULTS + [None] * 8)
    if fault:
        rec["fault"] = fault
    if fault == "xuong_thua" or rnd.random() < 0.1:
        # a declaration the hand holds (xướng đúng / thiếu) or not (xướng sai)
        rec["declared"] = (
            rnd.sample(chips, min(len(chips), rnd.choice([1, 1, 2])))
            if rnd.random() < 0.6
            else cuoc[:1] or chips[:1]
        )
    if fault in ("danh_u_den", "den_chong") or rnd.random() < 0.4:
        rec["discarder"] = rnd.choice([p for p in players if p != winner])
    if rnd.random() < 0.2:
        rec["bao"] = rnd.choice([p for p in players if p not in (winner, rec.get("discarder"))])
    return rec


def _ga(rnd: random.Random, pack: dict[str, Any]) -> list[dict[str, Any]]:
    kinds = sorted(pack["rules"]["ga_units"])
    if not kinds or rnd.random() >= 0.45:
        return []
    events = []
    for _ in range(rnd.choice([1, 1, 2])):
        event: dict[str, Any] = {"kind": rnd.choice(kinds), "player": rnd.choice(pack["names"])}
        if rnd.random() < 0.3:
            event["count"] = rnd.randint(2, 3)
        if pack["family"] == "chan" and rnd.random() < 0.2:
            event["chi_chi"] = True
        events.append(event)
    return events


def accepted(sitting: Sitting, state: Any, rec: dict[str, Any]) -> Any:
    table = SittingFacts.of(sitting)
    try:
        return settle_van(state, rec, game=table.game, rules=table.rules, mode=sitting.mode)
    except EngineError:
        return None


def test_500_generated_van_agree_with_the_engine(device: Phone) -> None:
    rnd = random.Random(22)
    tally: Counter[str] = Counter()
    seen: Counter[str] = Counter()
    wrong: list[Any] = []
    refused_shown: list[Any] = []
    for game, rules, mode in CONFIGS:
        sitting = open_sitting(
            game=game, rules=rules, mode=mode, players=NAMES[: SEATS[game]], created_by=device.keeper
        )
        pack = device.pack(sitting)
        table = SittingFacts.of(sitting)
        state = initial_state(pack["names"], table.game, table.rules, mode)
        records: list[dict[str, Any]] = []
        while len(records) < VAN_PER_SITTING:
            rec = generated(rnd, pack)
            done = accepted(sitting, state, rec)
            if done is None:
                # the engine refuses it: the phone must not show a number for it either
                view = device.run(pack, [*records, rec])[-1]
                tally["refused"] += 1
                if view["points"] is not None or view["transfers"] is not None:
                    refused_shown.append((game, mode, rec, view))
                continue
            records.append(rec)
            state = done.state
            seen.update(_features(rec, mode, done))
        shown = device.run(pack, records)
        expected = engine_views(sitting, records)
        tally["van"] += len(records)
        tally["unsupported"] += sum(1 for v in shown if v["unsupported"])
        wrong += [(game, mode, *d) for d in differences(shown, expected, records)]
    print(f"\npreview conformance: {dict(tally)}; features: {dict(sorted(seen.items()))}")
    assert tally["van"] >= 500
    assert not wrong, (len(wrong), wrong[:3])
    assert tally["unsupported"] == 0
    assert not refused_shown, (len(refused_shown), refused_shown[:3])
    # the generator reached what the issue names: every outcome, fault, báo regime, gà, both modes
    for feature in [
        "win",
        "hoa",
        "bao-only",
        *FAULTS,
        *REGIMES,
        "ga",
        "chiu",
        "den_lang",
        "streak",
        "quang",
        "gom",
        "pool-closes",
        "pot-taken",
    ]:
        assert seen[feature] > 0, feature


def _features(rec: dict[str, Any], mode: str, done: Any) -> list[str]:
    out = [mode, "win" if rec.get("winner") else "hoa" if rec.get("result") else "bao-only"]
    out += [rec["fault"]] if rec.get("fault") else []
    out += [rec.get("regime") or "default-regime"] if rec.get("bao") else []
    out += [k for k in ("ga", "chiu", "den_lang") if rec.get(k)]
    out += ["streak"] if done.streak >= 2 else []
    out += ["pool-closes"] if done.hoi_closed else []
    out += ["pot-taken"] if any(t.from_ == "ga_trong" for t in done.transfers) else []
    return out


def test_phom_is_said_not_computed(device: Phone) -> None:
    """A game the preview does not settle (Phỏm) gets a note and no number, never a wrong one."""
    sitting = open_sitting(game="phom", rules="phom", players=NAMES[:4], created_by=device.keeper)
    pack = device.pack(sitting)
    shown = device.run(pack, [{"ranks": NAMES[:4]}, {"winner": "An"}])
    assert [v["unsupported"] for v in shown] == ["phom", "queued"]
    assert all(v["points"] is None and v["transfers"] is None and v["after"] is None for v in shown)
    assert shown[0]["summary"] == describe(SittingFacts.of(sitting), {"ranks": NAMES[:4]})


# -- impossible cước ----------------------------------------------------------------------------

CHECK = """([pack, combos]) => combos.map((c) => {
  let why = null;
  try { SoTomPreview.checkCombination(pack, c); } catch (e) { why = e.message; }
  const rec = { winner: pack.names[0], cuoc: c };
  return [why, SoTomPreview.score(pack.rules, c, 1) === null, SoTomPreview.preview(pack, rec, 1, []).points === null];
})"""


@pytest.mark.parametrize(
    ("game", "preset"),
    [
        ("to-tom-5", "luat-2005"),
        ("to-tom-4", "hoi-50"),
        ("chan", "chan"),
        ("tai-ban", "tai-ban"),
    ],
)
def test_impossible_cuoc_are_refused_like_the_engine(device: Phone, game: str, preset: str) -> None:
    """Every set of up to four offered cước: the phone refuses exactly the sets the engine refuses
    (scoring/engine/conflicts.py from cuoc/needs.py), with the engine's reason, and never previews
    points for one."""
    sitting = open_sitting(game=game, rules=preset, players=NAMES[: SEATS[game]], created_by=device.keeper)
    pack = device.pack(sitting)
    offered = sorted(s for s in pack["rules"]["cuoc"] if s not in ("thong", pack["rules"]["plain_slug"]))
    combos = [list(c) for n in range(2, 5) for c in combinations(offered, n)]
    shown = device.page.evaluate(CHECK, [pack, combos])
    table = SittingFacts.of(sitting)
    refused = 0
    for combo, (why, no_points, no_preview) in zip(combos, shown, strict=True):
        problem = combination_problem(table.game, table.rules, combo)
        if problem is None:
            assert why is None, (combo, why)
            continue
        refused += 1
        assert why is not None and no_points and no_preview, combo
        if sorted(problem_set(why, pack)) == combo:  # a smallest impossible set: the engine's words
            assert why == ConflictError(problem).render(), combo  # Vietnamese, as the page
    assert refused > 0 or game == "tai-ban"


def problem_set(why: str, pack: dict[str, Any]) -> list[str]:
    return next(c["cuoc"] for c in pack["rules"]["conflicts"] if c["why"] == why)


# -- on the page --------------------------------------------------------------------------------

FILL = """async ([fields]) => {
  const form = document.getElementById('van-form');
  form.reset();
  for (const [name, value] of fields) {
    const box = form.querySelector(`input[name="${name}"][value="${value}"]`);
    if (box && (box.type === 'checkbox' || box.type === 'radio')) { box.checked = true; continue; }
    form.querySelector(`[name="${name}"]`).value = value;
  }
  await SoTomOffline.showPreview();
}"""


def test_the_page_previews_a_gom_van_with_ga_and_bao_as_the_ledger_will_write_it(device: Phone) -> None:
    """Offline, the ván form of a đánh gom sitting with gà trong: the preview shows the ledger's
    words (gà kinds and the báo regime by name), its points and its transfers by account name,
    and once sent the ledger writes exactly those."""
    sitting = open_sitting(
        rules={"preset": "luat-2005", "ga_trong": "cong_nghiep"}, mode="gom", created_by=device.keeper
    )
    record_all(sitting, [{"winner": "Bình", "cuoc": ["tom"]}])
    device.pack(sitting)  # the page is open and has the pack
    page = device.page
    page.context.set_offline(True)
    fields = [
        ("winner", "An"),
        ("cuoc", "leo"),
        ("discarder", "Chi"),
        ("bao", "Dũng"),
        ("regime", "cheo_do"),
        ("ga_kind_1", "quan_lo"),
        ("ga_player_1", "Em"),
        ("ga_count_1", "2"),
    ]
    page.evaluate(FILL, [fields])
    preview = page.get_by_test_id("preview")
    preview.filter(has_text="tạm tính").wait_for()
    page.context.set_offline(False)
    record = {
        "winner": "An",
        "cuoc": ["leo"],
        "discarder": "Chi",
        "bao": "Dũng",
        "regime": "cheo_do",
        "ga": [{"kind": "quan_lo", "player": "Em", "count": 2}],
    }
    record_all(sitting, [record])
    van = van_list(sitting)[-1]
    table = SittingFacts.of(sitting)
    summary = describe(table, record)
    assert "gà quân lộ: Em ×2" in summary and "Dũng: báo chèo đò" in summary
    assert page.locator(".pv-head").inner_text() == f"Ván 2: {summary}"
    assert page.get_by_test_id("preview-points").inner_text() == str(van["points"])
    shown = [
        " ".join(li.split())
        for li in page.get_by_test_id("preview-transfers").locator("li").all_inner_texts()
    ]
    expected = [
        f"{table.account(t['from'])} → {table.account(t['to'])} {t['amount']}" for t in van["transfers"]
    ]
    assert shown == expected and any(s.startswith("Điểm làng → An") for s in shown), (shown, expected)
