"""Helpers shared by the sitting pages: rendering (partials for htmx), the ván form's context,
the preview, and the small parsing of hidden fields."""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext

from scoring.access import Refusal
from scoring.engine import N_, EngineError, Msg, parse_van
from scoring.refusals import Missing
from scoring.respond import respond, status_of
from scoring.selectors.cards import deck_of, picker_cards
from scoring.selectors.rules import DEFAULT_PRESET, chip_conflicts, chip_rows, chips
from scoring.selectors.sitting import (
    FAULT_CHOICES,
    HOA,
    REGIME_NAMES,
    SittingFacts,
    describe,
    signed,
    transfer_rows,
)
from scoring.services.people import acting_user
from scoring.services.sittings import van_preview
from scoring.services.van import check_cards
from scoring.views.sitting.form import VanForm, card_codes, ga_kinds


def missing_in_vietnamese(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A sitting or ván that does not exist: a Vietnamese page with status 404. A sitting the
    request may not see or write in: the sign-in page, or a Vietnamese 403 (:func:`refuse`)."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except Http404 as exc:
            return respond(Missing(str(exc)), request, page=True)
        except Refusal as refusal:  # not signed in (the sign-in page), not allowed (403)
            return respond(refusal, request, page=True)

    return wrapper


def user_of(request: HttpRequest) -> Any:
    return acting_user(getattr(request, "user", None))


def new_key() -> str:
    """A fresh idempotency key, put in a hidden field when a form is rendered."""
    return str(uuid.uuid4())


def posted_key(request: HttpRequest) -> str:
    key = (request.POST.get("key") or "").strip()
    if not key:
        raise EngineError(N_("Thiếu khóa chống gửi lặp của biểu mẫu: hãy tải lại trang rồi ghi lại."))
    return key


def posted_seq(value: Any) -> int:
    try:
        seq = int(value)
    except (TypeError, ValueError):
        raise EngineError(N_("Thiếu số thứ tự ván của biểu mẫu: hãy tải lại trang rồi ghi lại.")) from None
    if seq < 1:
        raise EngineError(N_("Số thứ tự ván phải từ 1 trở lên (nhận được {seq})."), seq=seq)
    return seq


#: The engine's refusals of a ván the form can make name the API's keys ('ranks', 'winner', 'den',
#: 'discarder'): the form's words say what to tap instead. Keyed by the error's code (given where the
#: engine raises it, ``scoring/engine/settlement/``), so the engine's wording may change freely; the
#: API keeps the engine's words.
_FORM_WORDS = {
    "phom_result_missing": N_("Chưa có kết quả ván Phỏm: hãy chọn người ù, hoặc xếp hạng đủ mọi người."),
    "ranks_incomplete": N_("Xếp hạng chưa đủ: hãy chọn thứ hạng cho mọi người chơi, mỗi người một lần."),
    "player_repeated": N_("Một người được xếp hai thứ hạng: mỗi người chỉ một thứ hạng."),
    "den_is_winner": N_("Người đền phải là người khác người ù."),
    "winner_discarded": N_(
        "{name} ù nên không thể là người đánh ra quân ù: hãy chọn người khác, hoặc Không (ù nọc)."
    ),
    "chiu_player_named": N_(
        "{name} đã chịu (bỏ ván) nên không thể ù, đánh ra quân ù hay bị báo trong ván này."
    ),
}


def form_words(exc: EngineError) -> str:
    """The refusal as the ván form's reader should see it: the engine's message, or the form's own
    words (by the error's code) where the engine's name the API's keys."""
    words = _FORM_WORDS.get(exc.code)
    if words is None:
        return exc.message
    inner = exc.params.get("inner")  # "Ván {number}: {inner}": the words take the inner parameters
    params = inner.params if isinstance(inner, Msg) else exc.params
    return Msg(words, **params).render(gettext)


def van_form_context(table: SittingFacts, form: VanForm, *, key: str, seq: int) -> dict[str, Any]:
    """What the ván form needs: seats, the game's cước chips, faults, báo regimes, gà events."""
    traits = table.game.traits
    regime = table.rules.bao_regime
    offered = chips(table.game, table.rules) if not traits.ranked else []
    return {
        "form": form,
        "key": key,
        "seq": seq,
        "chips": offered,
        # the chips grey out when no hand could hold them with those chosen (static/scoring/chips.js)
        "cuoc_rows": chip_rows(table.game, table.rules, offered, form.cuoc) if offered else [],
        "declared_rows": chip_rows(table.game, table.rules, offered, form.declared) if offered else [],
        "conflicts": chip_conflicts(table.game, table.rules, offered) if offered else {"conflicts": []},
        "fault_choices": [(value, gettext(label)) for value, label in FAULT_CHOICES],
        "regime_choices": [(value, gettext(label)) for value, label in REGIME_NAMES.items()],
        "default_regime": gettext(REGIME_NAMES[regime]) if regime in REGIME_NAMES else regime,
        "ga_kinds": ga_kinds(table.game, table.rules),
        "traits": traits,
        # Phỏm's "Xếp hạng theo quân" asks the kiểm bài API under the sitting's own ù khan rule
        "phom_u_khan": "true" if table.rules.phom_u_khan else "false",
        "ranked_game": table.game.slug.value,
        "ranked_preset": DEFAULT_PRESET[table.game.family],
        # the card picker (templates/scoring/_card_picker.html): the grid, and the hand typed so far
        "card_picker": picker_cards(deck_of(table.game), card_codes(form.cards)),
        "card_hand": [c.lower() for c in card_codes(form.cards)],
        "rank_rows": [
            {"place": i, "value": form.ranks[i - 1] if i <= len(form.ranks) else ""}
            for i in range(1, table.sitting.seats.count() + 1)
        ],
        "HOA": HOA,
    }


def kiem_bai(table: SittingFacts, form: VanForm, record: dict[str, Any], seq: int) -> dict[str, Any] | None:
    """The hand checker's verdict on the typed cards, exactly as recording will store it (the
    service's ``check_cards``); None when no cards were typed."""
    if not card_codes(form.cards) or table.game.traits.ranked:
        return None
    names = [s.name for s in table.sitting.seats.order_by("position")]
    try:
        verdict = check_cards(table.game.slug.value, parse_van(record, names, seq), form.cards)
    except EngineError as exc:
        return {"error": exc.message}
    if verdict is None:
        return None
    return {
        "valid": verdict.get("valid", False),
        "message": verdict.get("message", ""),
        "cuoc": table.cuoc_names(verdict.get("cuoc", [])),
    }


def preview(table: SittingFacts, form: VanForm, *, seq: int | None) -> dict[str, Any]:
    """The preview of the tapped ván (``van_preview``: nothing is written), or why there is none."""
    if form.empty:
        return {"idle": True}
    try:
        record = form.record(table.game)
        answer = van_preview(sitting=table.sitting, record=record, seq=seq)
    except EngineError as exc:
        return {"error": form_words(exc), "status": status_of(exc)}
    delta: dict[str, int] = defaultdict(int)
    for t in answer.transfers:
        delta[t.from_] -= t.amount
        delta[t.to] += t.amount
    after = [
        {"name": name, "balance": signed(value), "delta": delta[name], "shown": signed(delta[name])}
        for name, value in answer.balances.items()
    ]
    lines = (answer.breakdown or {}).get("lines", [])
    return {
        "seq": answer.seq,
        "summary": describe(table, record),
        "points": answer.points,
        "streak": answer.streak,
        "streak_name": table.streak_name(answer.streak),
        "transfers": transfer_rows(table, answer.transfers),
        "after": after,
        "pool": answer.pool,
        "ga_trong": answer.ga_trong,
        "hoi_note": _hoi_note(table, answer.hoi_opened, answer.hoi_closed),
        "lines": lines,
        "won": "winner" in record,
        "kiem_bai": kiem_bai(table, form, record, answer.seq),
    }


def _hoi_note(table: SittingFacts, opened: bool, closed: bool) -> str:
    notes = []
    if opened:
        gom = table.sitting.mode == "gom"
        notes.append(
            gettext("Mở hội mới trước ván này: mọi người góp gom vào điểm làng.")
            if gom
            else gettext("Mở hội mới trước ván này.")
        )
    if closed:
        notes.append(gettext("Điểm làng hết: hội đóng sau ván này."))
    return " ".join(notes)
