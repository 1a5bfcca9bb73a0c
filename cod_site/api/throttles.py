"""Throttles of the API besides the anonymous one (`API_ANON_RATE`, by address).

- `ExpensiveThrottle`: the operations that cost the server the most (test batches, curves,
  tables opened, Print-and-Play PDFs) have a rate per signed-in account (per address for
  anonymous clients, where the operation allows them), one scope each, named by the view's
  `throttle_scope` and counted on its `throttle_methods` (rates in `DEFAULT_THROTTLE_RATES`).
  Pages that do the same call `page_throttled`.
- `SeatOrLinkThrottle`: a guest's seat token or a spectate link is throttled as its own client
  (`API_SEAT_RATE`), so that a family behind one address plays on; a token or link that names
  no seat or table counts against the address as before.
"""

import math
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from rest_framework.throttling import AnonRateThrottle, ScopedRateThrottle


class ExpensiveThrottle(ScopedRateThrottle):
    """`ScopedRateThrottle` on the view's `throttle_methods` only (default: POST): listing
    one's batches costs nothing, starting one does."""

    def allow_request(self, request: Any, view: Any) -> bool:
        if request.method not in getattr(view, "throttle_methods", ("POST",)):
            return True
        return super().allow_request(request, view)


class _PageView:
    """What `ExpensiveThrottle` reads of a view, for a page."""

    def __init__(self, scope: str) -> None:
        self.throttle_scope = scope
        self.throttle_methods = ("POST", "GET")


def page_throttled(request: HttpRequest, scope: str) -> HttpResponse | None:
    """The 429 page of a page doing what the API throttles under `scope`, or None (allowed)."""
    throttle = ExpensiveThrottle()
    if throttle.allow_request(request, _PageView(scope)):
        return None
    seconds = math.ceil(throttle.wait() or 1)
    response = render(request, "429.html", {"seconds": seconds}, status=429)
    response["Retry-After"] = str(seconds)
    return response


class SeatOrLinkThrottle(AnonRateThrottle):
    """The anonymous throttle, keyed by the guest's seat or the spectate link when the request
    carries a valid one (the view's `throttle_seat(request, view)` says which, or None)."""

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        if request.user and request.user.is_authenticated:
            return None
        seat = view.throttle_seat(request)
        if seat is None:
            return super().get_cache_key(request, view)
        self.rate = self.THROTTLE_RATES.get("seat")
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return self.cache_format % {"scope": "seat", "ident": seat}
