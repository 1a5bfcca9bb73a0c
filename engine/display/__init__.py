"""How a game looks on a page: the display code, beside the rules engine it shows.

- ``faces``: a card as every board draws it (its name in the page's language, its emblem).
- ``board``: the one board of every page (the Play table, the replay viewer, the Grimoire),
  built from the engine's observation of a position (``engine.rules.observation``) and drawn by
  the one template ``engine/board.html``; the Play table adds its controls to it.
- ``event_text``: the engine's events and refusals in the page's language
  (``event_messages``: the gettext messages ``manage.py event_messages`` generates for them).
- ``replay_steps``: a replay viewer's position, its buttons and its board.
- ``chaos_text`` and ``chaos_display``: a Duel of Chaos game's events, phases and refusals in the
  page's language, and its replay viewer (finished tables and test batches' games).

It depends on the pure rules engines (``engine.rules``, ``engine.chaos``) and the catalogue, never
on the engine app's models, services or batches (import-linter checks it), so Play, the test
games and the Grimoire share it without depending on one another.
"""
