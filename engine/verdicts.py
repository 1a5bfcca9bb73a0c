"""A test batch's verdict: which agents played it, how strong they are on the ladder of its mode,
and when not to trust its figures (too many draws; a control batch whose agent disagrees).
"""

from dataclasses import dataclass
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext as _

from engine import simulation
from engine.adapters.decks import MODE
from engine.agent_ladder import AgentStanding, current_ladder
from engine.models import ACTIVE_STATUSES, Agent, SimulationBatch
from engine.rules import MODES, TURN_LIMIT
from engine.selectors import batch_seats, batch_summary
from engine.verdict_drift import Drift, current_drifts

# More draws than this share of the games earns a warning: the win rates leave them out.
DRAWS_WARNING_SHARE = 0.01


@dataclass(frozen=True)
class AgentVerdict:
    """An agent that played a batch and its standing on the strength ladder of the batch's mode
    (None: unrated); in a Duel, how far its verdicts are known to drift from the strongest
    agent's (`engine.verdict_drift`; None: not measured), and whether it is that agent."""

    name: str
    label: str
    standing: AgentStanding | None
    ladder_size: int
    drift: Drift | None = None
    reference: bool = False

    @property
    def reference_name(self) -> str:
        return agent_name(self.drift.reference) if self.drift else ""


@dataclass(frozen=True)
class VerdictWarning:
    code: str  # "draws" or "agents_disagree"
    message: str
    details: dict[str, Any]


@dataclass(frozen=True)
class Verdict:
    # The agents of the batch's decks, each once, in deck order.
    agents: tuple[AgentVerdict, ...]
    control: SimulationBatch | None
    control_summary: simulation.Summary | None
    warnings: tuple[VerdictWarning, ...]

    @property
    def control_active(self) -> bool:
        return self.control is not None and self.control.status in ACTIVE_STATUSES

    @property
    def control_agent_name(self) -> str:
        return agent_name(batch_seats(self.control)[0].agent) if self.control else ""


def agent_name(agent: str) -> str:
    """An agent's short name in the current language, for sentences."""
    names = {
        Agent.RANDOM: _("the random AI"),
        Agent.GREEDY: _("the greedy AI"),
        Agent.LOOKAHEAD: _("the lookahead AI"),
        Agent.STRONG: _("the strong AI"),
        Agent.LEARNED: _("the learned AI"),
        Agent.LEARNED_DEEP: _("the deeper learned AI"),
    }
    return names.get(Agent(agent), agent) if agent in Agent.values else agent


def _percent(value: float | None) -> str:
    return "–" if value is None else f"{number_format(100 * value, 0)} %"


def batch_verdict(batch: SimulationBatch, *, summary: simulation.Summary | None) -> Verdict:
    """Who played the batch and how strong they are; warnings once the results exist (`summary`:
    `batch_summary(batch)`, which the caller shows too): too many draws, and a control batch whose
    win rate for deck A lies outside the batch's interval."""
    ladder = current_ladder(batch.mode)
    seats = batch_seats(batch)
    # Solo's automaton is the opponent the batch measures, not an agent of the ladder.
    names = list(dict.fromkeys(seat.agent for seat in seats if seat.agent != simulation.AUTOMATON))
    size = len(ladder.agents)
    # The drifts were measured on Duels.
    drifts = current_drifts() if batch.mode == MODE else {}
    references = {drift.reference for drift in drifts.values()}
    agents = tuple(
        AgentVerdict(
            name,
            str(Agent(name).label),
            ladder.of(name),
            size,
            drifts.get(name),
            name in references,
        )
        for name in names
    )
    control = batch.control
    control_summary = batch_summary(control) if control is not None else None
    warnings: list[VerdictWarning] = []
    if summary is not None and summary.games:
        share = summary.draws / summary.games
        if share > DRAWS_WARNING_SHARE:
            # A batch of a mode this engine does not know was stopped at the modes' own limit.
            known = MODES.get(batch.mode)
            limit = known.turn_limit if known is not None else TURN_LIMIT
            warnings.append(
                VerdictWarning(
                    "draws",
                    _(
                        "%(share)s of the games were draws, stopped after %(turns)d turns: the "
                        "win rates leave them out, so they say less than they seem."
                    )
                    % {"share": _percent(share), "turns": limit},
                    {"draws": summary.draws, "games": summary.games},
                )
            )
        if control is not None and control_summary is not None and control_summary.games:
            disagreement = _disagreement(
                summary, seats[0].agent, control_summary, batch_seats(control)[0].agent
            )
            if disagreement is not None:
                warnings.append(disagreement)
    return Verdict(agents, control, control_summary, tuple(warnings))


def _disagreement(
    summary: simulation.Summary, agent: str, control: simulation.Summary, control_agent: str
) -> VerdictWarning | None:
    """A warning when deck A's win rates with the two agents have 95% intervals that do not
    overlap."""
    ours, theirs = summary.decks[0].wins, control.decks[0].wins
    if ours.low <= theirs.high and theirs.low <= ours.high:
        return None
    return VerdictWarning(
        "agents_disagree",
        _(
            "The AIs disagree: with %(control_agent)s deck A wins %(control_rate)s, with "
            "%(agent)s %(rate)s. A weak AI can make a deck look better or worse than it is."
        )
        % {
            "control_agent": agent_name(control_agent),
            "control_rate": _percent(theirs.value),
            "agent": agent_name(agent),
            "rate": _percent(ours.value),
        },
        {
            "deck": "a",
            "agent": agent,
            "win_rate": ours.value,
            "control_agent": control_agent,
            "control_win_rate": theirs.value,
        },
    )
