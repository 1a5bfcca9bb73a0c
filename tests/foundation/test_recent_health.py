"""`make serve` answers /healthz from the process's recent report (cod_site.health.RecentHealth):
at once while it is fresh or merely old, checked again in the background; awaited once stale."""

from cod_site.health import RecentHealth, Report


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Checks:
    """Health checks that answer ok, then whatever a test sets, and count how often they ran."""

    def __init__(self) -> None:
        self.runs = 0
        self.next: Report = (True, {"status": "ok"})

    def __call__(self) -> Report:
        self.runs += 1
        return self.next


def recent() -> tuple[RecentHealth, Checks, Clock]:
    checks, clock = Checks(), Clock()
    return RecentHealth(check=checks, fresh=1.0, stale=5.0, clock=clock), checks, clock


def test_the_first_probe_waits_for_a_check() -> None:
    health, checks, _clock = recent()
    assert health.answer() == (None, True)
    assert health.refresh() == (True, {"status": "ok"})
    assert checks.runs == 1


def test_a_fresh_report_is_answered_without_a_check() -> None:
    health, checks, clock = recent()
    health.answer()
    health.refresh()
    clock.now += 0.99
    assert health.answer() == ((True, {"status": "ok"}), False)
    assert checks.runs == 1


def test_an_old_report_is_answered_at_once_and_checked_again_once() -> None:
    health, checks, clock = recent()
    health.answer()
    health.refresh()
    checks.next = (False, {"status": "unavailable"})
    clock.now += 1.0
    # The first probe past a second starts one check; the probes that come before it ends do not.
    assert health.answer() == ((True, {"status": "ok"}), True)
    assert health.answer() == ((True, {"status": "ok"}), False)
    health.refresh()
    assert health.answer() == ((False, {"status": "unavailable"}), False)
    assert checks.runs == 2


def test_a_stale_report_is_not_answered() -> None:
    health, _checks, clock = recent()
    health.answer()
    health.refresh()
    clock.now += 5.0
    assert health.answer() == (None, True)
