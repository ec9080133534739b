"""Accounts: a lasting identity for a person (issue 45; rules U1–U10, docs/accounts.md).

One feature, one package, its own storage (migration ``0006``): :mod:`.names` (user names, U1), :mod:`.passwords`
(Argon2id, U2), :mod:`.schema` and :mod:`.store` (accounts and sessions), :mod:`.service` (signing up, in and out,
rate limits, CSRF tokens, who a request or a websocket acts for), :mod:`.links`, :mod:`.mail` and :mod:`.recovery`
(verify and reset links, U6), :mod:`.seats` and :mod:`.home` (seats bound to accounts, a player's home, U7),
:mod:`.relations` (friends and blocks, U8), :mod:`.tokens` (personal API tokens, U9), :mod:`.settings` (kept for every
device) and :mod:`.moderation` (the operators' commands, U10).
"""
