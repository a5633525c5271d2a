"""Bots that play from a seat's view only (the same JSON a client sees)."""

from gcbc.bots.base import Bot, Observation
from gcbc.bots.heuristic import HeuristicBot
from gcbc.bots.random_bot import RandomBot

BOTS: dict[str, type[Bot]] = {"random": RandomBot, "heuristic": HeuristicBot}

__all__ = ["BOTS", "Bot", "HeuristicBot", "Observation", "RandomBot"]
