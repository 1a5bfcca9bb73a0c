"""URL converter for a Champion's public id (`models.new_uid()`: 11 URL-safe characters)."""

from django.urls import register_converter


class ChampionUidConverter:
    regex = "[A-Za-z0-9_-]{11}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(ChampionUidConverter, "champion")
