"""The game protocol, views, errors, registry, records and conformance checks shared by every game."""
