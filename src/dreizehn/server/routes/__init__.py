"""The server's routers, one per resource: games, tables (with seats, records, replays), the websocket."""
