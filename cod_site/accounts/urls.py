"""/accounts/…: sign-up, the account page and its API token, password change and reset.

The password pages keep the paths of `django.contrib.auth.urls` (`/accounts/password_reset/` …)
with this app's templates; log in and out stay at `login` and `logout` (cod_site/urls.py).
"""

from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from cod_site.accounts import views

app_name = "accounts"

urlpatterns = [
    path("", views.account, name="account"),
    path("signup/", views.sign_up, name="signup"),
    path("token/", views.token_create, name="token_create"),
    path("token/revoke/", views.token_revoke, name="token_revoke"),
    path(
        "password_change/",
        auth_views.PasswordChangeView.as_view(
            template_name="accounts/password_change_form.html",
            success_url=reverse_lazy("accounts:password_change_done"),
        ),
        name="password_change",
    ),
    path(
        "password_change/done/",
        auth_views.PasswordChangeDoneView.as_view(
            template_name="accounts/password_change_done.html"
        ),
        name="password_change_done",
    ),
    path(
        "password_reset/",
        auth_views.PasswordResetView.as_view(
            template_name="accounts/password_reset_form.html",
            email_template_name="accounts/password_reset_email.txt",
            subject_template_name="accounts/password_reset_subject.txt",
            success_url=reverse_lazy("accounts:password_reset_done"),
        ),
        name="password_reset",
    ),
    path(
        "password_reset/done/",
        auth_views.PasswordResetDoneView.as_view(template_name="accounts/password_reset_done.html"),
        name="password_reset_done",
    ),
    path(
        "reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(
            template_name="accounts/password_reset_confirm.html",
            success_url=reverse_lazy("accounts:password_reset_complete"),
        ),
        name="password_reset_confirm",
    ),
    path(
        "reset/done/",
        auth_views.PasswordResetCompleteView.as_view(
            template_name="accounts/password_reset_complete.html"
        ),
        name="password_reset_complete",
    ),
]
