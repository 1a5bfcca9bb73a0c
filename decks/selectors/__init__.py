"""Reads of the decks app, one module per concern (see CONTRIBUTING.md's Layout)."""
