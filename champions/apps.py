from django.apps import AppConfig


class ChampionsConfig(AppConfig):
    name = "champions"

    def ready(self) -> None:
        # Registers the app's Celery tasks in every process (web, worker, tests): its services
        # send them by name through Celery's registry, since the tasks import the services.
        import champions.tasks  # noqa: F401
