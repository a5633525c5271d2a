"""The game's closed vocabularies, as they cross the wire (events and views): one ``Literal`` each,
so a decoder refuses a word the game does not have and a type checker sees a misspelt one. A
command's card names stay ``str``: a command naming an unknown card is refused by the rules
(``unknown_card``), not by the decoder; what the server sends names cards from the closed sets of
``gcbc_contract.fields``."""

from __future__ import annotations

from typing import Literal

# a table's status and the phase a view shows (a settled table: RULES §3, §6)
Status = Literal["waiting", "playing", "finished"]
Phase = Literal["lobby", "arrange", "action", "reaction", "aim", "finished"]
Direction = Literal["clockwise", "counter_clockwise"]
Step = Literal[1, -1]  # the turn order as an event records it: +1 clockwise, -1 counter-clockwise

# who the table waits for, and why (RULES §10)
WaitKind = Literal["arrange", "reaction", "turn", "aim", "prompt"]
# reaction windows (RULES §6; bite: §8)
WindowKind = Literal["start_of_game", "investigate", "shoot", "bite", "end_of_turn"]
# the turn's actions (RULES §3.1; bite: §8)
ActionName = Literal["investigate", "equip", "arm", "shoot", "bite"]
# why a declared action did not resolve: it became impossible, or the shooter may choose again (§6)
CancelReason = Literal["impossible", "reconsider"]
# how a card was looked at (RULES §11); "held": a seat that gave the card away still knows it
Means = Literal[
    "investigate",
    "metal_detector",
    "wiretap",
    "polygraph",
    "surveillance_camera",
    "fingerprint_kit",
]
SeenBy = Literal[Means, "held"]

# teams (RULES §2, §8, §9) and who wins together ("bomber_traitor": both teams, §9.3a)
Team = Literal["honest", "crooked", "solo", "zombie", "bomber", "traitor"]
Winners = Literal["honest", "crooked", "solo", "zombie", "bomber", "traitor", "bomber_traitor"]
# a table closed before its game began ends with "closed_<its reason>" (nobody won)
WinReason = Literal[
    "both_leaders", "bomber_shot", "agent_eliminated", "kingpin_eliminated", "closed_not_started"
]

# how a table is opened (docs/api.md "Table options", "House bots")
Edition = Literal["fourth", "classic"]
Wounds = Literal["token", "card"]  # where a wound lives (RULES §4)
BotKind = Literal["random", "heuristic"]
# a rating pool (services.common.ratings): the expansions played
Pool = Literal["base", "zombies", "bombers_traitors", "zombies_bombers_traitors"]
# a player's place in the queue (quick play)
QueueStatus = Literal["waiting", "seated", "none"]
