"""Speed tables, run by ``make bench``."""
