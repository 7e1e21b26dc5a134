"""Forms of the organiser's pages (validation only: the services do the writing)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.engine import GAMES, MAX_PLAYER_NAME
from scoring.models import Mode
from scoring.selectors.ledger import rule_sets
from tournaments.models import EventKind, RoundFormat
from tournaments.seating import Method, Remainder

TIE_BREAK_CHOICES = [
    ("points,wins,best_win", _("Điểm → số ván ù → ván ù lớn nhất")),
    ("points,per_van,wins", _("Điểm → điểm mỗi ván → số ván ù")),
    ("points,best_win,wins", _("Điểm → ván ù lớn nhất → số ván ù")),
    ("wins,points,best_win", _("Số ván ù → điểm → ván ù lớn nhất")),
    ("per_van,points,wins", _("Điểm mỗi ván → điểm → số ván ù")),
]

METHOD_CHOICES = [
    (Method.RANDOM.value, _("Bốc thăm ngẫu nhiên")),
    (Method.ROTATION.value, _("Xoay vòng, tránh gặp lại đối thủ")),
    (Method.STANDINGS.value, _("Theo bảng điểm (mạnh gặp mạnh)")),
    (Method.RATING.value, _("Theo trình độ ở làng (mạnh gặp mạnh)")),
]
REMAINDER_CHOICES = [
    (Remainder.BYE.value, _("Người dư nghỉ vòng này")),
    (Remainder.SMALLER.value, _("Xếp chiếu ít người hơn (nếu trò chơi cho phép)")),
]


def _rules_choices() -> list[tuple[str, str]]:
    return [(r["slug"], r["name"] + (" ★" if r["saved"] else "")) for r in rule_sets()]


class EventForm(forms.Form):
    name = forms.CharField(label=_("Tên giải"), max_length=160)
    date = forms.DateField(label=_("Ngày (dương lịch)"), widget=forms.DateInput(attrs={"type": "date"}))
    lunar = forms.CharField(label=_("Ngày âm lịch (để trống: tự tính)"), max_length=60, required=False)
    kind = forms.ChoiceField(label=_("Loại giải"), choices=EventKind.choices)
    game = forms.ChoiceField(label=_("Trò chơi"), choices=[(s.value, g.name_vi) for s, g in GAMES.items()])
    rules = forms.ChoiceField(label=_("Lệ làng"), choices=_rules_choices)
    mode = forms.ChoiceField(label=_("Cách tính"), choices=Mode.choices)
    round_format = forms.ChoiceField(label=_("Thể thức mỗi vòng"), choices=RoundFormat.choices)
    van_per_round = forms.IntegerField(label=_("Số ván mỗi vòng"), min_value=1, max_value=200, initial=8)
    minutes_per_round = forms.IntegerField(
        label=_("Số phút mỗi vòng"), min_value=1, max_value=600, initial=45
    )
    van_per_sitting = forms.IntegerField(
        label=_("Số ván mỗi canh (để trống: cả vòng một canh)"),
        min_value=0,
        max_value=200,
        required=False,
        help_text=_("Khi một canh đủ số ván này, chiếu sang canh mới với cùng người chơi."),
    )
    tie_breaks = forms.ChoiceField(label=_("Xếp hạng theo"), choices=TIE_BREAK_CHOICES)
    is_public = forms.BooleanField(label=_("Bảng điểm công khai"), required=False, initial=True)
    confirmation_required = forms.BooleanField(
        label=_("Mỗi ván cần người thứ hai xác nhận"),
        required=False,
        help_text=_(
            "Ván do một người ghi là tạm tính cho đến khi một người chơi ở chiếu hoặc một thư ký khác xác nhận."
        ),
    )
    count_confirmed_only = forms.BooleanField(
        label=_("Bảng xếp hạng chỉ tính ván đã xác nhận"),
        required=False,
        help_text=_("Ván tạm tính được ghi chú trên bảng điểm nhưng chưa được cộng."),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("count_confirmed_only") and not data.get("confirmation_required"):
            self.add_error("count_confirmed_only", _("Hãy bật cả “Mỗi ván cần người thứ hai xác nhận”."))
        return data


class RegistrationForm(forms.Form):
    name = forms.CharField(label=_("Tên người chơi"), max_length=MAX_PLAYER_NAME)
    team = forms.CharField(label=_("Làng / giáp / đội"), max_length=120, required=False)
    check_in = forms.BooleanField(label=_("Điểm danh luôn"), required=False)


class SeatRoundForm(forms.Form):
    method = forms.ChoiceField(label=_("Cách xếp chỗ"), choices=METHOD_CHOICES)
    remainder = forms.ChoiceField(label=_("Người dư"), choices=REMAINDER_CHOICES)
    #: seat the next round even though tables of the last one are still open (asked first)
    even_if_open = forms.BooleanField(required=False)
