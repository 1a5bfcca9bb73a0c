"""Special abilities: the registry of codes and the handlers of each activation step."""
