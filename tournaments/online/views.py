"""The "Kết nối nền tảng" pages (connections) of a club and of an event, for their managers: platform
tokens (create: shown once; revoke) and webhooks (register: the secret shown once; switch off;
"send test"; resume one its circuit breaker paused), and each webhook's delivery log (status, attempts, answer code, time; polled by
htmx while deliveries are pending).

A club's page is for its organisers (``scoring.manage_club``), an event's for its organisers
(``tournaments.manage_event``). Forms post with htmx (the section is swapped) and work without it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from scoring.engine import EngineError
from scoring.htmx import is_htmx
from scoring.models import Club
from scoring.respond import respond, status_of, with_retry_after
from tournaments.models import Event
from tournaments.online.models import Access, DeliveryStatus, HookEvent, PlatformToken, Webhook
from tournaments.online.selectors import deliveries, hooks_of, tokens_of
from tournaments.online.services.tokens import token_create, token_revoke
from tournaments.online.services.webhooks import (
    webhook_create,
    webhook_disable,
    webhook_resume,
    webhook_test,
)
from tournaments.views.common import error_status, page

TEMPLATE = "online/connections.html"
LOG = "online/deliveries.html"
CLUB, EVENT = "club", "event"


class TokenForm(forms.Form):
    label = forms.CharField(label=gettext_lazy("Tên nền tảng"), max_length=80)
    access = forms.ChoiceField(label=gettext_lazy("Quyền"), choices=Access.choices, initial=Access.READ)


class WebhookForm(forms.Form):
    url = forms.CharField(label=gettext_lazy("Địa chỉ nhận (URL)"), max_length=500)
    events = forms.MultipleChoiceField(
        label=gettext_lazy("Sự kiện"), choices=HookEvent.choices, widget=forms.CheckboxSelectMultiple
    )


@dataclass(frozen=True)
class Owner:
    """The club or the event whose connections a page manages."""

    kind: str
    club: Club | None
    event: Event | None

    @property
    def name(self) -> str:
        return self.club.name if self.club is not None else self.event.name  # type: ignore[union-attr]

    @property
    def slug(self) -> str:
        return self.club.slug if self.club is not None else self.event.slug  # type: ignore[union-attr]

    @property
    def owns(self) -> dict[str, Any]:
        return {"club": self.club} if self.club is not None else {"event": self.event}

    def url(self, name: str, *args: Any) -> str:
        return reverse(f"online:{self.kind}_{name}", args=[self.slug, *args])

    @property
    def urls(self) -> dict[str, str]:
        return {name: self.url(name) for name in ("connections", "token_new", "hook_new")}

    @property
    def back(self) -> str:
        if self.club is not None:
            return reverse("scoring:club", args=[self.slug])
        return reverse("tournaments:manage", args=[self.slug])


def _owner(request: HttpRequest, kind: str, slug: str) -> Owner:
    if kind == CLUB:
        club = get_object_or_404(Club, slug=slug)
        if not request.user.has_perm("scoring.manage_club", club):
            raise PermissionDenied(gettext("Chỉ chủ sổ (ban tổ chức) của làng mới quản lý kết nối nền tảng."))
        return Owner(kind, club, None)
    event = get_object_or_404(Event, slug=slug)
    if not request.user.has_perm("tournaments.manage_event", event):
        if not (event.is_public or request.user.has_perm("tournaments.view_event", event)):
            raise Http404(gettext("Không có giải này."))
        raise PermissionDenied(gettext("Chỉ ban tổ chức giải mới quản lý kết nối nền tảng."))
    return Owner(kind, None, event)


def _signed_in(view: Any) -> Any:
    def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        return view(request, *args, **kwargs)

    checked.__name__ = view.__name__
    checked.__doc__ = view.__doc__
    return checked


def _with_urls(owner: Owner, hook: Webhook) -> Webhook:
    hook.log_url = owner.url("hook_log", hook.pk)  # type: ignore[attr-defined]
    hook.test_url = owner.url("hook_test", hook.pk)  # type: ignore[attr-defined]
    hook.end_url = owner.url("hook_end", hook.pk)  # type: ignore[attr-defined]
    hook.resume_url = owner.url("hook_resume", hook.pk)  # type: ignore[attr-defined]
    return hook


def _context(request: HttpRequest, owner: Owner, **extra: Any) -> dict[str, Any]:
    tokens = list(tokens_of(**owner.owns))
    for token in tokens:
        token.end_url = owner.url("token_end", token.pk)  # type: ignore[attr-defined]
    return {
        "owner": owner,
        "urls": owner.urls,
        "tokens": tokens,
        "hooks": [_with_urls(owner, h) for h in hooks_of(**owner.owns)],
        "token_form": extra.pop("token_form", None) or TokenForm(),
        "hook_form": extra.pop("hook_form", None) or WebhookForm(),
        "api_docs": reverse("api-docs"),
        "nav": "clubs" if owner.kind == CLUB else "tournaments",
        **extra,
    }


def _answer(
    request: HttpRequest, owner: Owner, partial: str, status: int = 200, **extra: Any
) -> HttpResponse:
    return page(request, TEMPLATE, _context(request, owner, **extra), partial=partial, status=status)


@_signed_in
@require_http_methods(["GET", "HEAD"])
def connections(request: HttpRequest, kind: str, slug: str) -> HttpResponse:
    owner = _owner(request, kind, slug)
    return page(request, TEMPLATE, _context(request, owner))


@_signed_in
@require_POST
def token_new(request: HttpRequest, kind: str, slug: str) -> HttpResponse:
    owner = _owner(request, kind, slug)
    form = TokenForm(request.POST)
    if not form.is_valid():
        return _answer(request, owner, "tokens", error_status(None, invalid=True), token_form=form)
    try:
        token, raw = token_create(
            label=form.cleaned_data["label"],
            access=form.cleaned_data["access"],
            created_by=request.user,
            **owner.owns,
        )
    except EngineError as exc:
        return _answer(request, owner, "tokens", status_of(exc), token_form=form, token_error=exc.message)
    return _answer(request, owner, "tokens", 201, new_token=raw, new_token_id=token.pk)


@_signed_in
@require_POST
def token_end(request: HttpRequest, kind: str, slug: str, token_id: int) -> HttpResponse:
    owner = _owner(request, kind, slug)
    token = get_object_or_404(PlatformToken, pk=token_id, **owner.owns)
    token_revoke(token=token, by=request.user)
    return _answer(request, owner, "tokens")


@_signed_in
@require_POST
def hook_new(request: HttpRequest, kind: str, slug: str) -> HttpResponse:
    owner = _owner(request, kind, slug)
    form = WebhookForm(request.POST)
    if not form.is_valid():
        return _answer(request, owner, "hooks", error_status(None, invalid=True), hook_form=form)
    try:
        hook, secret = webhook_create(
            url=form.cleaned_data["url"],
            events=form.cleaned_data["events"],
            created_by=request.user,
            **owner.owns,
        )
    except EngineError as exc:  # over a per-owner cap (WebhookLimit): 429 with Retry-After
        answer = _answer(request, owner, "hooks", status_of(exc), hook_form=form, hook_error=exc.message)
        return with_retry_after(answer, exc)
    return _answer(request, owner, "hooks", 201, new_secret=secret, new_hook_id=hook.pk)


def _hook(owner: Owner, hook_id: int) -> Webhook:
    return get_object_or_404(Webhook, pk=hook_id, **owner.owns)


@_signed_in
@require_POST
def hook_end(request: HttpRequest, kind: str, slug: str, hook_id: int) -> HttpResponse:
    owner = _owner(request, kind, slug)
    webhook_disable(hook=_hook(owner, hook_id), by=request.user)
    return _answer(request, owner, "hooks")


def _log_context(owner: Owner, hook: Webhook, **extra: Any) -> dict[str, Any]:
    rows = deliveries(hook)
    waiting = any(d.status in (DeliveryStatus.PENDING, DeliveryStatus.RETRYING) for d in rows)
    return {
        "owner": owner,
        "urls": owner.urls,
        "hook": _with_urls(owner, hook),
        "deliveries": rows,
        "waiting": waiting,
        "nav": "clubs" if owner.kind == CLUB else "tournaments",
        **extra,
    }


@_signed_in
@require_http_methods(["GET", "HEAD"])
def hook_log(request: HttpRequest, kind: str, slug: str, hook_id: int) -> HttpResponse:
    owner = _owner(request, kind, slug)
    return page(request, LOG, _log_context(owner, _hook(owner, hook_id)), partial="log")


@_signed_in
@require_POST
def hook_test(request: HttpRequest, kind: str, slug: str, hook_id: int) -> HttpResponse:
    """Queue a ``ping`` delivery; the log shows it (and polls until it is delivered or failed)."""
    owner = _owner(request, kind, slug)
    hook = _hook(owner, hook_id)
    try:
        webhook_test(hook=hook)
    except EngineError as exc:  # over a per-owner cap (WebhookLimit): 429 with Retry-After
        return respond(
            exc, request, LOG, _log_context(owner, hook, error=exc.message), partial="log", render=page
        )
    if not is_htmx(request):
        return redirect(owner.url("hook_log", hook.pk))
    return page(
        request, LOG, _log_context(owner, hook, notice=gettext("Đã xếp một lần gửi thử.")), partial="log"
    )


@_signed_in
@require_POST
def hook_resume(request: HttpRequest, kind: str, slug: str, hook_id: int) -> HttpResponse:
    """Close a paused hook's circuit breaker (from the connections page or the delivery log)."""
    owner = _owner(request, kind, slug)
    hook = webhook_resume(hook=_hook(owner, hook_id), by=request.user)
    notice = gettext("Webhook gửi lại từ sự kiện tiếp theo.")
    if request.POST.get("from") == "log":
        if not is_htmx(request):
            return redirect(owner.url("hook_log", hook.pk))
        return page(request, LOG, _log_context(owner, hook, notice=notice), partial="log")
    if not is_htmx(request):
        return redirect(owner.url("connections"))
    return _answer(request, owner, "hooks", hook_notice=notice)
