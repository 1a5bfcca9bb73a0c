from django.apps import AppConfig


class EngineConfig(AppConfig):
    name = "engine"

    def ready(self) -> None:
        # Registers the app's Celery tasks in every process (web, worker, tests): its services
        # send them by name through Celery's registry, since the tasks import the services.
        import engine.metagame.tasks
        import engine.suggestions.tasks
        import engine.tasks  # noqa: F401
