"""The ván form: what the scorekeeper tapped (raw values) and the engine's ván record it makes.

The form never decides anything about points: it only turns taps into the record shape of
:mod:`scoring.engine.settlement` (``winner``, ``cuoc``, ``result``, ``chiu`` …); the services
validate and settle it. A correction prefills the same form from a stored record.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy

from scoring.engine import N_, EngineError, Game, GaPot, GaTrongRegime, Msg, RuleSet
from scoring.selectors.sitting import HOA

#: Rows of gà events the form offers.
GA_ROWS = 3

#: The gà events the form offers, by the pot they feed.
GA_KINDS: dict[GaPot, list[tuple[str, Any]]] = {
    GaPot.TRONG: [
        ("nhai", gettext_lazy("Bị nhái (mọi nhà khác góp)")),
        ("quan_lo", gettext_lazy("Quân lộ (số quân)")),
        ("bi_de_u", gettext_lazy("Bị đè ù")),
        ("bo_u", gettext_lazy("Bỏ ù")),
    ],
    GaPot.NUOI: [
        ("chiu_noc", gettext_lazy("Chíu nọc (mọi nhà khác góp)")),
        ("chiu_discard", gettext_lazy("Chíu quân đánh (người đánh góp)")),
        ("nhai", gettext_lazy("Bị nhái (mọi nhà khác góp)")),
    ],
}


def ga_kinds(game: Game, rules: RuleSet) -> list[tuple[str, Any]]:
    """The gà events worth offering: none when the rule set keeps no gà trong pot."""
    pot = game.traits.ga_pot
    if pot is GaPot.TRONG and rules.ga_trong is GaTrongRegime.NONE:
        return []
    return GA_KINDS.get(pot, [])


@dataclass
class GaRow:
    kind: str = ""
    player: str = ""
    count: str = "1"


def _ga_rows(rows: list[GaRow]) -> list[GaRow]:
    return rows + [GaRow() for _ in range(GA_ROWS - len(rows))]


class Typed(forms.Field):
    """One value as typed, spaces around it dropped ("" when missing)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(required=False, **kwargs)

    def to_python(self, value: Any) -> str:
        return value.strip() if isinstance(value, str) else ""


class TypedList(forms.Field):
    """Every value posted under the name (checkboxes, chips), typed, the empty ones dropped."""

    widget = forms.MultipleHiddenInput

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(required=False, **kwargs)

    def to_python(self, value: Any) -> list[str]:
        return [v.strip() for v in value or [] if isinstance(v, str) and v.strip()]


class VanPost(forms.Form):
    """The ván form's POST: what was tapped, by the page's field names. It refuses nothing; the
    record (:meth:`VanForm.record`) and the services say what is wrong, in the page's words."""

    winner = Typed()
    cuoc = TypedList()
    declared = TypedList()
    discarder = Typed()
    chiu = TypedList()
    fault = Typed()
    bao = Typed()
    regime = Typed()
    den_lang = TypedList()
    dau_ke = Typed()
    stake = Typed()
    den = Typed()
    cards = Typed()

    def __init__(self, data: Any, n_seats: int) -> None:
        super().__init__(data)
        for i in range(1, GA_ROWS + 1):
            for part in ("kind", "player", "count"):
                self.fields[f"ga_{part}_{i}"] = Typed()
        for i in range(1, n_seats + 1):
            self.fields[f"rank_{i}"] = Typed()


@dataclass
class VanForm:
    """The values of the ván form as typed (strings), kept as they were when an error is shown."""

    winner: str = ""
    cuoc: list[str] = field(default_factory=list)
    declared: list[str] = field(default_factory=list)
    discarder: str = ""
    chiu: list[str] = field(default_factory=list)
    fault: str = ""
    bao: str = ""
    regime: str = ""
    ga: list[GaRow] = field(default_factory=lambda: _ga_rows([]))
    den_lang: list[str] = field(default_factory=list)
    dau_ke: str = ""
    stake: str = ""
    ranks: list[str] = field(default_factory=list)
    den: str = ""
    cards: str = ""

    @property
    def empty(self) -> bool:
        """Nothing tapped yet that makes a ván (no preview to show)."""
        return not (self.winner or self.bao or any(self.ranks))

    @classmethod
    def from_post(cls, data: Any, n_seats: int) -> VanForm:
        """The values posted by the ván form (:class:`VanPost`), as typed."""
        post = VanPost(data, n_seats)
        post.is_valid()  # nothing is refused here: the record and the services say what is wrong
        c = post.cleaned_data
        return cls(
            winner=c["winner"],
            cuoc=c["cuoc"],
            declared=c["declared"],
            discarder=c["discarder"],
            chiu=c["chiu"],
            fault=c["fault"],
            bao=c["bao"],
            regime=c["regime"],
            ga=[
                GaRow(c[f"ga_kind_{i}"], c[f"ga_player_{i}"], c[f"ga_count_{i}"] or "1")
                for i in range(1, GA_ROWS + 1)
            ],
            den_lang=c["den_lang"],
            dau_ke=c["dau_ke"],
            stake=c["stake"],
            ranks=[c[f"rank_{i}"] for i in range(1, n_seats + 1)],
            den=c["den"],
            cards=c["cards"],
        )

    @classmethod
    def from_record(cls, record: Mapping[str, Any], cards: str, n_seats: int) -> VanForm:
        """Prefill the form from a stored ván record (a correction starts from it)."""
        winner = HOA if record.get("result") == "hoa" else str(record.get("winner") or "")
        rows = [
            GaRow(str(e.get("kind", "")), str(e.get("player", "")), str(e.get("count", 1)))
            for e in record.get("ga") or []
            if isinstance(e, Mapping)
        ][:GA_ROWS]
        ranks = [str(r) for r in record.get("ranks") or []]
        return cls(
            winner=winner,
            cuoc=list(record.get("cuoc") or []),
            declared=list(record.get("declared") or []),
            discarder=str(record.get("discarder") or ""),
            chiu=list(record.get("chiu") or []),
            fault=str(record.get("fault") or ""),
            bao=str(record.get("bao") or ""),
            regime=str(record.get("regime") or ""),
            ga=_ga_rows(rows),
            den_lang=list(record.get("den_lang") or []),
            dau_ke=str(record.get("dau_ke") or ""),
            stake="" if record.get("stake") is None else str(record["stake"]),
            ranks=ranks + [""] * (n_seats - len(ranks)),
            den=str(record.get("den") or ""),
            cards=cards or "",
        )

    def record(self, game: Game) -> dict[str, Any]:
        """The engine's ván record. Win-only taps are left out when nobody won (e.g. after Hòa)."""
        if game.traits.ranked:
            return self._phom_record()
        out: dict[str, Any] = {}
        won = bool(self.winner) and self.winner != HOA
        if self.winner == HOA:
            out["result"] = "hoa"
        elif won:
            out["winner"] = self.winner
            _put(out, "cuoc", self.cuoc)
            _put(out, "declared", self.declared)
            _put(out, "discarder", self.discarder)
            _put(out, "fault", self.fault)
        _put(out, "chiu", self.chiu)
        if self.bao:
            out["bao"] = self.bao
            _put(out, "regime", self.regime)
        _put(out, "ga", self._ga_events())
        _put(out, "den_lang", self.den_lang)
        _put(out, "dau_ke", self.dau_ke)
        if self.stake:
            out["stake"] = _positive(self.stake, Msg(N_("Mức cược N (Tài Bàn)")))
        if "winner" not in out and "result" not in out and "bao" not in out:
            # The engine's own words name the API's fields ('winner', "result"): the form's say what to tap
            # .
            raise EngineError(N_("Chưa có kết quả ván: hãy chọn người ù, hoặc Hòa, hoặc người báo."))
        return out

    def _phom_record(self) -> dict[str, Any]:
        ranks = [r for r in self.ranks if r]
        if self.winner and self.winner != HOA:
            out: dict[str, Any] = {"winner": self.winner}
            _put(out, "den", self.den)
            return out
        return {"ranks": ranks} if ranks else {}

    def _ga_events(self) -> list[dict[str, Any]]:
        events: list[dict[str, Any]] = []
        for row in self.ga:
            if not (row.kind and row.player):
                continue
            event: dict[str, Any] = {"kind": row.kind, "player": row.player}
            count = _positive(row.count or "1", Msg(N_("Số lần / số quân của gà")))
            if count != 1:
                event["count"] = count
            events.append(event)
        return events


def _put(out: dict[str, Any], key: str, value: Any) -> None:
    if value:
        out[key] = value


def _positive(text: str, what: Msg) -> int:
    try:
        value = int(text)
    except ValueError:
        raise EngineError(
            N_("{what} phải là một số nguyên dương (nhận được '{text}')."), what=what, text=text
        ) from None
    if value < 1:
        raise EngineError(
            N_("{what} phải là một số nguyên dương (nhận được {value})."), what=what, value=value
        )
    return value


def card_codes(cards: str) -> list[str]:
    """The card codes typed in the cards field (spaces or commas between them)."""
    return [c for c in cards.replace(",", " ").split() if c]
