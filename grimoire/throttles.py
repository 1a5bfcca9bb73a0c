"""The signed-in user's rate of proofs (`GRIMOIRE_SOLVE_RATE`): one budget spent by the API's
`POST .../solve/` and the editor's "Prove it" button alike (`cod_site.api.throttles`)."""

from django.http import HttpRequest
from rest_framework.throttling import AnonRateThrottle
from rest_framework.views import APIView

from cod_site.api.throttles import ExpensiveThrottle, page_wait

SOLVE_SCOPE = "grimoire_solve"


class ProofView(APIView):
    """The API's solve view: a proof (POST) spends the budget, reading the report (GET) not."""

    throttle_classes = [AnonRateThrottle, ExpensiveThrottle]
    throttle_scope = SOLVE_SCOPE


def proof_wait(request: HttpRequest) -> float | None:
    """None if the page's user may run one more proof now (it is counted), else the seconds to
    wait."""
    return page_wait(request, SOLVE_SCOPE)
