"""Lệ làng: every rule set's table side by side, and a form to save a village's own numbers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.engine import (
    CATALOGUE,
    FAMILY_TRAITS,
    N_,
    PRESETS,
    BaoRegime,
    BareTriple,
    ChanGaNuoi,
    EngineError,
    GaDauHoiQuang,
    GaNgoaiKind,
    GaTrongRegime,
    KinhTuCoPolicy,
    MainCuoc,
    MainTie,
    Repeat,
    RuleSet,
    ScoringFamily,
    khoi_name,
    load_rules,
)
from scoring.htmx import render_htmx
from scoring.models import Club, ClubRoleKind, VillageRuleSet
from scoring.respond import status_of
from scoring.services.rules import village_rules_save

FAMILY_NAMES = {
    ScoringFamily.TO_TOM: _("Tổ Tôm (Bí Ngũ, Bí Tứ, Điếm)"),
    ScoringFamily.TAI_BAN: _("Tài Bàn"),
    ScoringFamily.CHAN: _("Chắn"),
    ScoringFamily.PHOM: _("Phỏm"),
}

#: The top-level options the form offers, with their Vietnamese labels and choices.
CHOICE_LABELS: dict[str, tuple[Any, dict[str, Any]]] = {
    "kinh_tu_co_policy": (
        _("Kính Tứ Cố khi đánh gom"),
        {
            KinhTuCoPolicy.POINTS: _("tính điểm như cước khác"),
            KinhTuCoPolicy.HET_HOI: _("hết hội: lấy cả làng"),
        },
    ),
    "ga_ngoai": (
        _("Gà ngoài"),
        {
            GaNgoaiKind.NONE: _("không"),
            GaNgoaiKind.DON: _("gà ngoài đơn"),
            GaNgoaiKind.CHONG: _("gà ngoài chồng"),
        },
    ),
    "ga_trong": (
        _("Gà trong"),
        {
            GaTrongRegime.NONE: _("không"),
            GaTrongRegime.LANG: _("gà làng"),
            GaTrongRegime.CONG_NGHIEP: _("gà công nghiệp"),
            GaTrongRegime.NHA: _("gà nhà"),
            GaTrongRegime.RUNG: _("gà rừng"),
        },
    ),
    "bao_regime": (
        _("Báo trong khi chơi"),
        {
            BaoRegime.DEN_LANG: _("đền làng"),
            BaoRegime.NGOI_DAY: _("ngồi đấy"),
            BaoRegime.CHEO_DO: _("chèo đò"),
        },
    ),
}


@dataclass(frozen=True)
class Disputed:
    """A choice where the sources disagree (docs/rules.md), switchable per rule set; the option marked
    "(mặc định)" is what the engine does when a rule set says nothing."""

    label: Any
    options: dict[str, Any]
    families: frozenset[ScoringFamily]
    #: The rule set's value as a string (int choices are posted as text).
    numeric: bool = False


_TT, _TB, _CH = ScoringFamily.TO_TOM, ScoringFamily.TAI_BAN, ScoringFamily.CHAN
#: The choices where the sources disagree, shown on the lệ làng page and in its form.
DISPUTED: dict[str, Disputed] = {
    "main_cuoc": Disputed(
        _("Cước tính điểm chính (Cửu Khôi + Thập Điều)"),
        {
            MainCuoc.MOST_POINTS: _("cước cho ván nhiều điểm nhất (mặc định)"),
            MainCuoc.HIGHEST: _("tiếng ù cao nhất: điểm chính lớn nhất"),
        },
        frozenset({_TT, _CH}),
    ),
    "main_tie": Disputed(
        _("Hai cước bằng điểm chính (Hội 50), khi tính tiếng ù cao nhất"),
        {
            MainTie.MOST_POINTS: _("cước cho ván nhiều điểm hơn (mặc định)"),
            MainTie.MOST_DICH: _("cước nhiều dịch hơn"),
        },
        frozenset({_TT, _CH}),
    ),
    "khoi_dich_offset": Disputed(
        _("Khôi đi kèm cước cao hơn"),
        {
            "2": _("N−2 dịch (Luật 2005: Bát Khôi + Thập Điều = 30)"),
            "1": _("N−1 dịch (Hội 50)"),
            "0": _("N dịch (số in trong seed: Bát Khôi + Thập Điều = 34)"),
        },
        frozenset({_TT}),
        numeric=True,
    ),
    "tom_leo_repeat": Disputed(
        _("Tôm, Lèo lặp lại"),
        {Repeat.EACH: _("mỗi Tôm, mỗi Lèo đều tính (mặc định)"), Repeat.ONCE: _("chỉ tính một lần")},
        frozenset({_TT, _CH}),
    ),
    "ga_dau_hoi_quang": Disputed(
        _("Gà đầu hội khi đánh quăng"),
        {
            GaDauHoiQuang.ONCE: _("góp một lần trước ván đầu (mặc định)"),
            GaDauHoiQuang.NONE: _("không góp: chỉ đánh gom mới có hội"),
        },
        frozenset({_TT, _TB}),
    ),
    "tai_ban_triple": Disputed(
        _("Tài Bàn: ba quân giống nhau không nói là khàn"),
        {BareTriple.PHONG: _("tính như phỗng (mặc định)"), BareTriple.KHAN: _("tính như khàn")},
        frozenset({_TB}),
    ),
    "chan_ga_nuoi": Disputed(
        _("Chắn: gà nuôi"),
        {ChanGaNuoi.NUOI: _("có gà nuôi (mặc định)"), ChanGaNuoi.NONE: _("không nuôi gà")},
        frozenset({_CH}),
    ),
}


def _disputed_label(key: str, value: Any) -> Any:
    return DISPUTED[key].options.get(str(value), str(value))


NUMBER_LABELS: dict[str, Any] = {
    "suong": _("Suông (S)"),
    "dich": _("Dịch (D)"),
    "stake": _("Tiền cược N (Tài Bàn)"),
    "gom": _("Gom mỗi người (để trống = tự tính)"),
    "den_lang_amount": _("Đền làng (để trống = Suông)"),
    "chan_ga_points": _("Điểm gà (Chắn)"),
}


@dataclass(frozen=True)
class Column:
    slug: str
    name: str
    rules: RuleSet
    saved: bool
    #: A saved set's owner ("" for a preset, or a set that belongs to nobody) and newest version.
    owner: str = ""
    version: int | None = None


def _columns() -> list[Column]:
    columns = [Column(slug, load_rules(slug).name, load_rules(slug), False) for slug in PRESETS]
    for village in VillageRuleSet.objects.select_related("snapshot", "owner_club", "owner_user"):
        columns.append(
            Column(village.slug, village.name, village.rules(), True, village.owner_name, village.version)
        )
    return columns


def _cell(rules: RuleSet, slug: str) -> str:
    try:
        main, dich = rules.value_of(slug)
    except EngineError:
        return "—"
    return f"{main} / {dich}"


def _streak_cell(rules: RuleSet, n: int) -> str:
    try:
        main, dich = rules.khoi_value(n)
    except EngineError:
        return "—"
    return f"{main} / {dich}"


def _family_table(family: ScoringFamily, columns: list[Column]) -> dict[str, Any]:
    traits = FAMILY_TRAITS[family]
    cols = [c for c in columns if c.rules.family == family]
    slugs = [s for s in CATALOGUE if any(s in c.rules.cuoc for c in cols)]
    rows = [("S / D", [f"{c.rules.suong} / {c.rules.dich}" for c in cols])]
    if traits.stake_per_hoi:
        rows.append(("N", [str(c.rules.stake) for c in cols]))
    rows += [(CATALOGUE[s].name, [_cell(c.rules, s) for c in cols]) for s in slugs]
    if traits.has_thong:
        for n in (2, 3, 4, 8):
            label = "Thông" if n == 2 else khoi_name(n)
            if n > 2 and not traits.has_khoi:
                continue
            rows.append((label, [_streak_cell(c.rules, n) for c in cols]))
    if traits.has_tu_tru:
        yes, no = gettext("có"), gettext("không")
        rows.append((gettext("Tứ Trụ cộng dịch"), [yes if c.rules.tu_tru_cong_dich else no for c in cols]))
        rows.append((gettext("Gom mỗi người (5 người)"), [str(c.rules.gom_amount(5)) for c in cols]))
    for key, choice in DISPUTED.items():
        if family in choice.families:
            rows.append((choice.label, [_disputed_label(key, getattr(c.rules, key)) for c in cols]))
    if traits.ranked:
        rows = [
            (gettext("Nhất/nhì/ba/bét trả"), [", ".join(map(str, c.rules.phom_rank_stakes)) for c in cols]),
            (gettext("Ù: mỗi người trả"), [str(c.rules.phom_u_stake) for c in cols]),
        ]
    return {"family": family, "name": FAMILY_NAMES[family], "columns": cols, "rows": rows}


def rules_table(request: HttpRequest) -> HttpResponse:
    columns = _columns()
    tables = [_family_table(f, columns) for f in ScoringFamily]
    return render(
        request, "scoring/rules.html", {"tables": [t for t in tables if t["columns"]], "nav": "rules"}
    )


# -- the form -------------------------------------------------------------------------------------


def _form_fields(rules: RuleSet, data: Any | None) -> dict[str, Any]:
    """The values to show: what was posted, else the preset's."""
    cuoc_rows = []
    for slug in (s for s in CATALOGUE if s in rules.cuoc):
        main, dich = rules.value_of(slug)
        cuoc_rows.append(
            {
                "slug": slug,
                "name": CATALOGUE[slug].name,
                "main": data.get(f"main_{slug}", main) if data else main,
                "dich": data.get(f"dich_{slug}", dich) if data else dich,
            }
        )
    numbers = []
    for key, label in NUMBER_LABELS.items():
        value = getattr(rules, key)
        numbers.append({"key": key, "label": label, "value": data.get(key, value) if data else value})
    choices = []
    for key, (label, options) in CHOICE_LABELS.items():
        value = data.get(key, getattr(rules, key)) if data else getattr(rules, key)
        choices.append({"key": key, "label": label, "value": str(value), "options": options.items()})
    cong = (data.get("tu_tru_cong_dich") == "on") if data else rules.tu_tru_cong_dich
    disputed = [
        {
            "key": key,
            "label": choice.label,
            "options": choice.options.items(),
            "value": str(data.get(key, getattr(rules, key)) if data else getattr(rules, key)),
        }
        for key, choice in DISPUTED.items()
        if rules.family in choice.families
    ]
    return {
        "cuoc_rows": cuoc_rows,
        "numbers": numbers,
        "choices": choices,
        "tu_tru_cong_dich": cong,
        "disputed": disputed,
    }


#: The one mistake the rule-set forms can find (choices are the engine's to refuse).
NOT_WHOLE = N_("'{label}' phải là một số nguyên (nhận được '{raw}').")


class WholeNumber(forms.Field):
    """A whole number as typed (spaces around it allowed); ``optional``: empty means "none"."""

    def __init__(self, label: str, *, optional: bool = False, **kwargs: Any) -> None:
        super().__init__(label=label, required=False, **kwargs)
        self.optional = optional

    def to_python(self, value: Any) -> int | None:
        raw = (value or "").strip()
        if raw == "" and self.optional:
            return None
        try:
            return int(raw)
        except ValueError:
            raise forms.ValidationError(NOT_WHOLE, params={"label": self.label, "raw": raw}) from None


class Posted(forms.Field):
    """A choice as posted, unchanged (the engine refuses a value it does not know, in its words)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(required=False, **kwargs)

    def to_python(self, value: Any) -> Any:
        return value


class Ticked(forms.Field):
    """A checkbox: ticked when the browser posts "on"."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(required=False, **kwargs)

    def to_python(self, value: Any) -> bool:
        return value == "on"


class RuleSetForm(forms.Form):
    """The village's numbers and choices against the base preset: a field for each one the page
    posted, its initial value the preset's, so ``changed_data`` is "only what differs"."""

    def __init__(self, base: RuleSet, data: Any) -> None:
        super().__init__(data)
        self.base = base
        for key, label in NUMBER_LABELS.items():
            if key in data:
                optional = getattr(base, key) is None or key == "gom"
                # str(): the label (a lazy translation) is a parameter of the coded message
                self.fields[key] = WholeNumber(str(label), optional=optional, initial=getattr(base, key))
        for key in CHOICE_LABELS:
            if key in data:
                self.fields[key] = Posted(initial=str(getattr(base, key)))
        self.fields["tu_tru_cong_dich"] = Ticked(initial=base.tu_tru_cong_dich)
        for key, choice in DISPUTED.items():
            if base.family in choice.families and data.get(key) is not None:
                self.fields[key] = Posted(initial=str(getattr(base, key)))

    def overrides(self) -> dict[str, Any]:
        """What differs from the base (the first mistake, in the page's order, is an EngineError)."""
        cleaned = _cleaned(self)
        out: dict[str, Any] = {}
        for key in self.changed_data:
            value = cleaned[key]
            choice = DISPUTED.get(key)
            out[key] = int(value) if choice and choice.numeric and value.isdigit() else value
        return out


class CuocTableForm(forms.Form):
    """The cước table's cells (điểm, dịch) against ``probe``: the base preset with the village's new
    S, D and cộng dịch, so Tứ Trụ resolves against them and only the cells the user edited count."""

    def __init__(self, base: RuleSet, probe: RuleSet, data: Any) -> None:
        super().__init__(data)
        for slug in (s for s in CATALOGUE if s in base.cuoc):
            main, dich = probe.value_of(slug)
            name = CATALOGUE[slug].name
            for part, label, initial in (("main", gettext("điểm"), main), ("dich", gettext("dịch"), dich)):
                if f"{part}_{slug}" in data:
                    self.fields[f"{part}_{slug}"] = WholeNumber(f"{name}: {label}", initial=initial)

    def overrides(self) -> dict[str, Any]:
        cleaned = _cleaned(self)
        table: dict[str, Any] = {}
        for key in self.changed_data:
            part, slug = key.split("_", 1)
            table.setdefault(slug, {})[part] = cleaned[key]
        return {"cuoc": table} if table else {}


def _cleaned(form: forms.Form) -> dict[str, Any]:
    """The form's values; its first mistake (in field order) refused with the page's message."""
    if not form.is_valid():
        first = next(iter(form.errors.as_data().values()))[0]
        raise EngineError(NOT_WHOLE, **(first.params or {}))
    return form.cleaned_data


def overrides_from_post(base: RuleSet, data: Any) -> dict[str, Any]:
    """Only what differs from the base preset becomes an override (a village's own numbers)."""
    overrides = RuleSetForm(base, data).overrides()
    probe = load_rules({"preset": base.preset, **overrides})
    return overrides | CuocTableForm(base, probe, data).overrides()


def _owner_choices(user: Any) -> list[Club]:
    """The clubs a new rule set may belong to: those the user organises (staff: every club)."""
    clubs = Club.objects.order_by("name")
    if user.is_staff:
        return list(clubs)
    return list(clubs.filter(roles__user=user, roles__role=ClubRoleKind.ORGANISER).distinct())


def _owner(user: Any, posted: str) -> Club | None:
    """The club chosen as a new set's owner (``""``: the user's own set)."""
    if not posted:
        return None
    club = next((c for c in _owner_choices(user) if c.slug == posted), None)
    if club is None:
        raise EngineError(
            N_("Bạn không lập được lệ làng cho “{club}”: chỉ chủ sổ của nơi đó mới lập được."), club=posted
        )
    return club


@login_required
def rules_new(request: HttpRequest) -> HttpResponse:
    """Save a village's own rule set: a new one (the user's own, or a club's they organise), or a
    new version of one of that name they may change (its owner's managers; the rule sets' history
    says who saved it)."""
    source = request.POST if request.method == "POST" else request.GET
    preset = source.get("preset") or "luat-2005"
    if preset not in PRESETS:
        preset = "luat-2005"
    base = load_rules(preset)
    error, status = None, 200
    if request.method == "POST" and not request.POST.get("reload"):
        try:
            overrides = overrides_from_post(base, request.POST)
            village = village_rules_save(
                name=request.POST.get("name", ""),
                preset=preset,
                overrides=overrides,
                description=request.POST.get("description", ""),
                by=request.user,
                owner_club=_owner(request.user, request.POST.get("owner", "")),
            )
        except EngineError as exc:
            error, status = exc.message, status_of(exc)
        else:
            messages.success(
                request,
                gettext("Đã lưu lệ làng “%(name)s” (mã %(slug)s), phiên bản %(version)d.")
                % {"name": village.name, "slug": village.slug, "version": village.version},
            )
            return redirect("scoring:rules")
    posted = request.POST if request.method == "POST" and not request.POST.get("reload") else None
    context = {
        "nav": "rules",
        "presets": [(slug, load_rules(slug).name) for slug in PRESETS],
        "preset": preset,
        "base": base,
        "name": request.POST.get("name", ""),
        "description": request.POST.get("description", ""),
        "owners": _owner_choices(request.user),
        "owner": request.POST.get("owner", ""),
        "error": error,
        **_form_fields(base, posted),
    }
    return render_htmx(request, "scoring/rules_new.html", context, partial="fields", status=status)
