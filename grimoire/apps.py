from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GrimoireConfig(AppConfig):
    name = "grimoire"
    verbose_name = _("Grimoire")

    def ready(self) -> None:
        # Registers the solver job task in every process: the services send it by name.
        import grimoire.tasks  # noqa: F401
