"""A URLconf for tests/foundation/test_health_thread.py: the site's URLs and one page that
holds its thread until the test lets it go."""

import threading

from django.http import HttpRequest, HttpResponse
from django.urls import path

from cod_site.urls import urlpatterns as site

released = threading.Event()


def busy(request: HttpRequest) -> HttpResponse:
    released.wait(30)
    return HttpResponse("done")


urlpatterns = [path("busy/", busy), *site]
