"""A batch of test games cut by concern: which game is which (``seeding``), what the games
count (``totals``), a game played again to be watched (``replay``); ``engine.simulation`` plays
them."""
