"""`manage.py agent_ladder`: play the strength ladders of every mode and write the file the app
chooses its AIs by (`engine/agent_ladder.json`, read by `engine.agent_ladder`).

Solo and Co-op rate the agents against the automaton at levels 1, 5 and 10 of the difficulty
table as this database holds it (`engine.adapters.difficulty`), so the ladder follows the table
and the rules after a change: run it again on the compiled engine (`make engine` first). It takes
a while on one core (`--games` rounds per mode; defaults: `GAMES`); `--modes` plays some only and
keeps the others' entries from the file.
"""

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from engine.adapters.difficulty import difficulty_level_options
from engine.agent_ladder import LADDER_FILE
from engine.rules import AGENTS, AiOptions, native
from engine.rules.ladder import AUTOMATON_LEVELS, LADDER_MODES, ladders

# Rounds of each mode's fixtures per pair (engine.rules.ladder.fixtures): a Duel round is 32
# games, a 4-player round 8, a Solo round 4 per level, a Co-op round 6 per level.
GAMES = {"duel": 4, "solo": 8, "coop": 4, "free_for_all": 3, "teams": 3}


class Command(BaseCommand):
    help = "Play the strength ladder of every mode and write engine/agent_ladder.json."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--games", type=int, help="rounds per mode (default: GAMES)")
        parser.add_argument("--modes", default=",".join(LADDER_MODES))
        parser.add_argument("--agents", default=",".join(AGENTS))
        parser.add_argument("--out", type=Path, default=LADDER_FILE)

    def handle(self, *args: Any, **options: Any) -> None:
        modes = [mode.strip() for mode in options["modes"].split(",")]
        names = [name.strip() for name in options["agents"].split(",")]
        unknown = [mode for mode in modes if mode not in LADDER_MODES]
        unknown += [name for name in names if name not in AGENTS]
        if unknown:
            raise CommandError(f"unknown modes or agents: {', '.join(unknown)}")
        if not native.STATUS.startswith("compiled"):
            self.stderr.write(f"engine: {native.STATUS}: the costs will be the interpreted ones")
        levels = {
            level: AiOptions.from_json(difficulty_level_options(level=level))
            for level in AUTOMATON_LEVELS
        }
        rounds = {mode: options["games"] or GAMES[mode] for mode in modes}
        played = ladders(names, options["seed"], rounds, levels, self.stdout.write)
        out: Path = options["out"]
        kept = []
        if out.is_file():
            kept = [
                entry
                for entry in json.loads(out.read_text(encoding="utf-8")).get("modes", [])
                if entry["mode"] not in modes
            ]
        entries = {entry["mode"]: entry for entry in [*kept, *played["modes"]]}
        ordered = [entries[mode] for mode in LADDER_MODES if mode in entries]
        out.write_text(json.dumps({"modes": ordered}, indent=2) + "\n", encoding="utf-8")
        self.stdout.write(f"wrote {out}")
