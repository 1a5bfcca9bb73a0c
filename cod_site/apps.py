from django.apps import AppConfig


class CodSiteConfig(AppConfig):
    name = "cod_site"
    verbose_name = "cod_site"
