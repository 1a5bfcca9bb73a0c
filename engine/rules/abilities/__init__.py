"""Special abilities: the registry of codes and the handlers of each activation step."""

from engine.rules import native

native.extend(__path__, "abilities")
