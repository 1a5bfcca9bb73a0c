"""The seam between the domain apps and the rules engine: their rows in, the engine's data out.

Only this package turns catalogue cards, Champions and decks into what `engine.rules` plays, so
the domain apps never import the engine app and the engine's input format has one translator.
"""
