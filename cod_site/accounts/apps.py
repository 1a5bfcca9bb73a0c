from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    """Player accounts: sign-up, password change and reset, the API token."""

    name = "cod_site.accounts"
    label = "accounts"
    verbose_name = _("Accounts")
