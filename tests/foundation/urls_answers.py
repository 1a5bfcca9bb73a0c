"""A URLconf for tests/foundation/test_hybrid_pages.py: a page in memory and a streamed one."""

from collections.abc import Iterator

from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.urls import path


def whole(request: HttpRequest) -> HttpResponse:
    return HttpResponse("all of it", content_type="text/plain")


def streamed(request: HttpRequest) -> StreamingHttpResponse:
    def chunks() -> Iterator[bytes]:
        yield b"first "
        yield b"second"

    return StreamingHttpResponse(chunks(), content_type="text/plain")


urlpatterns = [path("whole/", whole), path("streamed/", streamed)]
