"""The signed-in user's rate of proofs (`GRIMOIRE_SOLVE_RATE`): one budget spent by the API's
`POST .../solve/` and the editor's "Prove it" button alike."""

from django.http import HttpRequest
from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle, ScopedRateThrottle
from rest_framework.views import APIView

SOLVE_SCOPE = "grimoire_solve"


class ProofView(APIView):
    """What the throttle reads its scope from: the API's solve view, and the page's button."""

    throttle_scope = SOLVE_SCOPE

    def get_throttles(self) -> list[BaseThrottle]:
        # Reading the report (GET) is not a proof.
        throttles = super().get_throttles()
        if self.request.method == "POST":
            throttles.append(ScopedRateThrottle())
        return throttles


def proof_wait(request: HttpRequest) -> float | None:
    """None if the page's user may run one more proof now (it is counted), else the seconds to
    wait, as the API's 429 says."""
    throttle = ScopedRateThrottle()
    api_request = Request(request)
    api_request.user = request.user
    if throttle.allow_request(api_request, ProofView()):
        return None
    return throttle.wait() or 0.0
