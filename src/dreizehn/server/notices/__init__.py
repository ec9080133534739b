"""Notices (issue 46 item 2): "your turn" reaches the player — the count of games waiting for them, the browser's
notifications, Web Push, e-mail (each opt-in, through an outbox), and a reminder before their time runs out;
docs/notices.md, rules N1…N8."""
