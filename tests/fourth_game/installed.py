"""Twenty installed as another package would be: a distribution's metadata naming ``twenty`` under the entry point
``dreizehn.games``, beside the game's folder. Shared by the tests that load it in this process and those that start a
``dreizehn`` process with it (the game server of the browser tests)."""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).parent


def install(site: Path) -> list[str]:
    """Write the distribution's metadata into the folder ``site``; answers the folders to put on the path (or on
    ``PYTHONPATH``) for ``twenty`` to be found: ``site`` and the folder that holds the game's package."""
    info = site / "dreizehn_twenty-0.1.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: dreizehn-twenty\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[dreizehn.games]\ntwenty = twenty\n", encoding="utf-8")
    return [str(site), str(HERE)]
