"""The game server: authoritative tables over websockets, stored in SQL (docs/server.md).

``dreizehn serve`` starts it; :func:`dreizehn.server.app.create_app` builds the ASGI application for tests and
deployments.
"""
