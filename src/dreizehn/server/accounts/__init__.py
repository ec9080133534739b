"""Accounts: a lasting identity for a person (issue 45; rules U1–U10, docs/server.md, Accounts).

One feature, one package, its own storage: :mod:`.names` (user names, U1), :mod:`.passwords` (Argon2id, U2),
:mod:`.schema` and :mod:`.store` (accounts and sessions in the server's database, migration ``0006``), and
:mod:`.service` (signing up, in and out, rate limits, CSRF tokens: what the routes ask,
:mod:`dreizehn.server.routes.accounts`).
"""
