"""The game server's tests (issue 13)."""
