"""Accounts: sign in (with a lock-out after too many wrong passwords), sign out, sign up.

What is typed is bounded before anything is done with it: a name longer than
:data:`NAME_MAX` or a password longer than :data:`PASSWORD_MAX` is refused with the wrong
password's own message, before any counter or query. Then every try is counted *before* the
password is checked (:mod:`scoring.services.throttle`), per **client and account name** (the
client: the address and the device cookie, :mod:`scoring.devices`; the key a fixed-length digest):
after 20 wrong passwords in a row that client is locked out of that name for a while, and while it
is locked no password from it is checked at all. Other clients, and the owner on a device that
signed in to the account before, are not locked. What bounds a guesser who changes address or
cookie is the name's ceiling (:func:`scoring.services.throttle.pace`): after 10 tries in a row,
one try per 3 seconds from devices not known to the name; it only slows, never locks. The admin's
sign-in (``/admin/login/``) goes through the same counters (:class:`AdminSignInForm`, set as the
admin site's ``login_form`` in ``totom_site/urls.py``), as does the console's (the same page).

:func:`denied` is the page every view shows a signed-in person who may not do something
(anonymous visitors are sent to the sign-in page instead).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import authenticate, login
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.contrib.auth.views import LoginView, LogoutView
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render, resolve_url
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods

from scoring import devices
from scoring.errors import BAD_INPUT
from scoring.services import throttle

__all__ = [
    "AdminSignInForm",
    "LoginPage",
    "SignInForm",
    "SignUpForm",
    "logout_view",
    "signup",
    "NAME_MAX",
    "PASSWORD_MAX",
    "pace_key",
    "throttle_key",
]

#: The longest account name (Django's ``User.username``) and password looked at; longer is wrong.
NAME_MAX = 150
PASSWORD_MAX = 4096

LOGIN_TEMPLATE = "accounts/login.html"
SIGNUP_TEMPLATE = "accounts/signup.html"
USERNAME_HELP = gettext_lazy("Tối đa 150 ký tự: chữ, số và các dấu @ . + - _ (không có dấu cách).")


def _name(username: str) -> str:
    return username.strip().lower()


def throttle_key(username: str, client: str) -> str:
    """The lock-out counter of an account name (the same for any capitalisation) from one client."""
    return throttle.key(_name(username), client, kind="login")


def pace_key(username: str) -> str:
    """The ceiling of an account name, for every client."""
    return throttle.key(_name(username), kind="login-pace")


def throttled_clean(form: AuthenticationForm) -> dict[str, Any]:
    """``AuthenticationForm.clean`` inside the lock-out: what is typed is bounded first, the try is
    counted (the name's ceiling, then the client's counter) before the password is checked, and
    refused unchecked while the client is locked out of the name or must wait."""
    username = form.cleaned_data.get("username")
    password = form.cleaned_data.get("password")
    if username is None or not password:
        return form.cleaned_data
    if len(username) > NAME_MAX or len(password) > PASSWORD_MAX:  # no counter, no query
        form.data = form.data.copy()
        form.data["username"] = username[:NAME_MAX]  # the page does not echo megabytes back
        raise form.get_invalid_login_error()
    request = form.request
    key = throttle_key(username, devices.client_of(request))
    state = throttle.status(key=key)
    if not state.admitted:  # this client is locked out of the name: nothing else is looked at
        raise ValidationError(state.message, code="locked")
    if not devices.is_known(request, _name(username)):  # the name's ceiling slows, never locks
        paced = throttle.pace(key=pace_key(username))
        if not paced.admitted:
            raise ValidationError(paced.message, code="paced")
    admission = throttle.admit(key=key)
    if not admission.admitted:  # locked: the password is not even looked at
        raise ValidationError(admission.message, code="locked")
    form.user_cache = authenticate(request, username=username, password=password)
    if form.user_cache is None:
        after = throttle.failed(key=key)
        if not after.admitted:
            raise ValidationError(after.message, code="locked")
        raise form.get_invalid_login_error()
    throttle.succeeded(key=key, admission=admission)
    throttle.pace_clear(key=pace_key(username))
    form.confirm_login_allowed(form.user_cache)
    devices.remember_sign_in(request, _name(username))
    return form.cleaned_data


class SignInForm(AuthenticationForm):
    """Django's sign-in form, with Vietnamese messages and the lock-out counter around the check."""

    error_messages = {
        "invalid_login": gettext_lazy("Tên đăng nhập hoặc mật khẩu không đúng. Chú ý chữ hoa và chữ thường."),
        "inactive": gettext_lazy("Tài khoản này đã bị khóa; hãy hỏi ban tổ chức."),
    }

    def __init__(self, request: Any = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(request, *args, **kwargs)
        self.fields["username"].label = gettext("Tên đăng nhập")
        self.fields["username"].widget.attrs.update(autocomplete="username", autocapitalize="none")
        self.fields["password"].label = gettext("Mật khẩu")
        for field in self.fields.values():
            field.error_messages["required"] = gettext("Hãy nhập %(what)s.") % {
                "what": str(field.label).lower()
            }

    def clean(self) -> dict[str, Any]:
        return throttled_clean(self)


class AdminSignInForm(AdminAuthenticationForm):
    """The admin's sign-in form (staff only, Django's own page), counted by the same lock-out as
    the site's sign-in."""

    def clean(self) -> dict[str, Any]:
        return throttled_clean(self)


class LoginPage(LoginView):
    """``/dang-nhap/`` (and the console's ``trung-quan/dang-nhap/``): one sign-in page for the site."""

    template_name = LOGIN_TEMPLATE
    authentication_form = SignInForm

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        devices.device_id(request)  # the device cookie, before the first try
        return super().get(request, *args, **kwargs)


class SignUpForm(UserCreationForm):
    """A name and a password twice, checked by the site's password validators."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        labels = {
            "username": gettext("Tên đăng nhập"),
            "password1": gettext("Mật khẩu"),
            "password2": gettext("Nhập lại mật khẩu"),
        }
        for name, label in labels.items():
            self.fields[name].label = label
            self.fields[name].error_messages["required"] = gettext("Hãy nhập %(what)s.") % {
                "what": label.lower()
            }
        self.fields["username"].help_text = USERNAME_HELP
        self.fields["username"].widget.attrs.update(autocomplete="username", autocapitalize="none")
        self.fields["password2"].help_text = gettext("Nhập lại đúng mật khẩu trên để chắc là không gõ nhầm.")
        mismatch = gettext("Hai lần nhập mật khẩu không giống nhau.")
        self.error_messages = {**self.error_messages, "password_mismatch": mismatch}


def _next_url(request: HttpRequest) -> str:
    wanted = request.POST.get("next") or request.GET.get("next") or ""
    if wanted and url_has_allowed_host_and_scheme(
        wanted, {request.get_host()}, require_https=request.is_secure()
    ):
        return wanted
    return resolve_url(settings.LOGIN_REDIRECT_URL)


@sensitive_post_parameters("password1", "password2")
@require_http_methods(["GET", "HEAD", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """``/dang-ky/``: create an account and sign in with it."""
    form = SignUpForm(request.POST) if request.method == "POST" else SignUpForm()
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect(_next_url(request))
    status = BAD_INPUT if form.is_bound else 200  # a form refused: bad input (scoring.errors)
    return render(request, SIGNUP_TEMPLATE, {"form": form, "next": _next_url(request)}, status=status)


class _Logout(LogoutView):
    """Sign out, and ask the browser to drop its caches (the service worker's copies of sổ điểm
    pages): the next person on a shared phone cannot read them offline. Ván waiting to be sent
    live in the page's storage, which is kept."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = super().post(request, *args, **kwargs)
        response["Clear-Site-Data"] = '"cache"'
        return response


logout_view = _Logout.as_view()
