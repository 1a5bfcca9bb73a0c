from django.apps import AppConfig


class PlayConfig(AppConfig):
    name = "play"

    def ready(self) -> None:
        # Registers the app's Celery tasks in every process: its services send them by name.
        import play.tasks  # noqa: F401
