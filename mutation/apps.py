from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MutationConfig(AppConfig):
    name = "mutation"
    verbose_name = _("Mutation")
