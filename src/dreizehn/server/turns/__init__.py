"""Turn-based tables: the turn clocks, kept in the database, and what happens when a person's time runs out."""
