from django.apps import AppConfig


class ChampionsConfig(AppConfig):
    name = "champions"
