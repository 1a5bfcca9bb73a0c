"""Renderers that let clients ask for `image/png` or `application/pdf` explicitly.

Successful answers are plain HttpResponses carrying the file; these renderers only exist so
content negotiation accepts such an `Accept` header. An error answered to such a request is
still the API's JSON error body, with a JSON content type.
"""

from collections.abc import Mapping
from typing import Any

from django.http import HttpResponse
from rest_framework.renderers import BaseRenderer, JSONRenderer


class _FileRenderer(BaseRenderer):
    charset = None

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        if isinstance(data, bytes):
            return data
        response = (renderer_context or {}).get("response")
        if response is not None:
            response["Content-Type"] = "application/json"
        return JSONRenderer().render(data)


class PNGRenderer(_FileRenderer):
    media_type = "image/png"
    format = "png"


class PDFRenderer(_FileRenderer):
    media_type = "application/pdf"
    format = "pdf"


class ImageRenderer(_FileRenderer):
    media_type = "image/*"
    format = "image"


def pdf_response(content: bytes, filename: str) -> HttpResponse:
    """A PDF shown in the browser (not downloaded), under `filename` if saved."""
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response
