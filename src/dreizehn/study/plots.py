"""Pictures of runs and tournaments (matplotlib, drawn off screen into PNG files)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dreizehn.study.sim import Run, Tournament


def plot_scores(run: Run, path: str | Path) -> None:
    """Box plots of each bot's final scores, one box per bot, with its win rate in the label."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    summaries = run.summaries()
    fig, ax = plt.subplots(figsize=(max(5.0, 1.6 * len(summaries) + 2), 4.5))
    labels = [f"{s.bot}\n{s.win_rate:.1%} wins" for s in summaries]
    ax.boxplot([s.scores for s in summaries], tick_labels=labels, showmeans=True)
    ax.set_ylabel("final score (" + ("higher" if _high(run) else "lower") + " is better)")
    ax.set_title(f"{run.game_id}, {run.players} players, {len(run.games)} games")
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_ratings(tournament: Tournament, path: str | Path) -> None:
    """Each bot's rating with a band of two standard deviations."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ratings = tournament.ratings()[::-1]
    fig, ax = plt.subplots(figsize=(6.5, 1.0 + 0.6 * len(ratings)))
    ax.errorbar([r.mu for r in ratings], range(len(ratings)), xerr=[2 * r.sigma for r in ratings], fmt="o",
                capsize=4)
    ax.set_yticks(range(len(ratings)), [r.bot for r in ratings])
    ax.set_xlabel("openskill rating (mu ± 2 sigma)")
    run = tournament.run
    ax.set_title(f"{run.game_id}, {run.players} players, {len(run.games)} games")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _high(run: Run) -> bool:
    from dreizehn.core.registry import game_class

    return game_class(run.game_id).high_score_wins
