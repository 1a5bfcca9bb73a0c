"""Who asks, for the pages and the API alike: a signed-in user, or an anonymous visitor known by
their session (`grimoire.selectors.Visitor`).

An anonymous visitor is recorded by their session, made on the spot when they have none (the
answer sets its cookie). Only a session that came with the request counts in a puzzle's figures:
a script that keeps no cookie is a new visitor each time, and is judged but never counted.
"""

from django.http import HttpRequest
from rest_framework.request import Request

from cod_site.users import signed_in_user
from grimoire.selectors import Visitor, session_digest


def visitor(request: HttpRequest | Request, *, start: bool = False) -> Visitor:
    """The visitor making ``request``; ``start``: give an anonymous one a session if they have
    none yet (the puzzle's page and the answers that record something)."""
    if request.user.is_authenticated:
        return Visitor(signed_in_user(request))
    session = request.session
    # Loading the session drops a key that names no stored session (a made-up cookie).
    session.keys()
    key = session.session_key
    if key is not None:
        return Visitor(None, session_digest(key), returning=True)
    if not start:
        return Visitor(None)
    session.save()
    # Saved for its key: marked modified too, so that the answer sets the cookie.
    session.modified = True
    return Visitor(None, session_digest(session.session_key or ""))
