"""Players that see only views: the random player here; stronger bots build on the same interface."""
