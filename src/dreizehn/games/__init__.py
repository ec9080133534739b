"""One module per game: ``knizia13``, ``three_thirteen`` (with its meld solver, ``melds``) and ``holzwurm``."""
