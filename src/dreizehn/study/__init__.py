"""Many games at once, for people who study the games: simulations and tournaments between bots (:mod:`.sim`, their
batches :mod:`.jobs` on local processes or a Ray cluster :mod:`.distributed`, saved as they finish :mod:`.saved`),
their statistics (:mod:`.stats`) and pictures (:mod:`.plots`), and the batched environment over a game's compiled
kernel (:mod:`.vector`). Above one table (:mod:`dreizehn.play`), below the research adapters and the interfaces
(docs/architecture.md)."""
