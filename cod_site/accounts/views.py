"""Account pages: sign-up, the account with its API token (password pages: Django's, in urls)."""

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from cod_site.accounts import selectors, services
from cod_site.accounts.forms import SignUpForm
from cod_site.users import signed_in_user


def sign_up(request: HttpRequest) -> HttpResponse:
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = services.account_create(
            username=form.cleaned_data["username"],
            password=form.cleaned_data["password1"],
            email=form.cleaned_data.get("email", ""),
        )
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome, %(name)s! Your account is ready.") % {"name": user})
        target = request.POST.get("next", "")
        if not url_has_allowed_host_and_scheme(
            target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        ):
            target = reverse("decks:mine")
        return redirect(target)
    return render(
        request, "accounts/signup.html", {"form": form, "next": request.GET.get("next", "")}
    )


# The page shows the token itself: no cache may keep a copy.
@never_cache
@login_required
def account(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "accounts/account.html",
        {"token": selectors.api_token_get(user=signed_in_user(request))},
    )


@require_POST
@login_required
def token_create(request: HttpRequest) -> HttpResponse:
    user = signed_in_user(request)
    # Only a replaced token is worth a warning: the first one replaces nothing (issue 29).
    replaced = selectors.api_token_get(user=user) is not None
    services.api_token_create(user=user)
    if replaced:
        messages.success(
            request, _("Your new API token is ready; the previous one no longer works.")
        )
    else:
        messages.success(request, _("Your API token is ready."))
    return redirect("accounts:account")


@require_POST
@login_required
def token_revoke(request: HttpRequest) -> HttpResponse:
    if services.api_token_revoke(user=signed_in_user(request)):
        messages.success(request, _("Your API token is revoked: it no longer works."))
    return redirect("accounts:account")
