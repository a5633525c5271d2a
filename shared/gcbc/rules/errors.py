"""Rule violations: a closed list of stable codes, each with its HTTP class, and messages that
reveal nothing hidden.

The class says why a command was refused, so a service maps it to a status without a list of its
own (``http_class``):

- ``invalid`` (422): never valid at this table, whatever happens: its shape, a name that does not
  exist, aiming at oneself, a bad arrangement, bad parameters, a bad name or text, a name of the
  house's, a bad seat count, an option not offered, an invalid deal;
- ``conflict`` (409): "not now": it depends on the table's state, which a client may have seen
  stale (a turn, a phase, a card since turned, a target since gone);
- ``not_found`` (404): there is no such table.
"""

from __future__ import annotations

from typing import Literal

HttpClass = Literal["invalid", "conflict", "not_found"]

INVALID: HttpClass = "invalid"
CONFLICT: HttpClass = "conflict"
NOT_FOUND: HttpClass = "not_found"

# code -> its HTTP class: the one table of refusals
HTTP_CLASS: dict[str, HttpClass] = {
    # lobby
    "table_exists": CONFLICT,
    "no_table": NOT_FOUND,
    "bad_seat_count": INVALID,
    "option_not_offered": INVALID,
    "invalid_deal": INVALID,
    "table_full": CONFLICT,
    "seat_taken": CONFLICT,  # a rematch's seat already claimed
    "not_seated": CONFLICT,
    "game_already_started": CONFLICT,
    "seats_not_filled": CONFLICT,
    "bad_name": INVALID,
    "name_reserved": INVALID,  # the house's names (House bot 3)
    "name_taken": CONFLICT,  # that name, or one that looks like it, sits at the table now
    # game flow
    "game_not_started": CONFLICT,
    "game_over": CONFLICT,
    "not_your_turn": CONFLICT,
    "not_waiting_for_you": CONFLICT,
    "wrong_phase": CONFLICT,
    "prompt_pending": CONFLICT,
    "must_discard": CONFLICT,
    "stale_deadline": CONFLICT,
    "not_absent": CONFLICT,
    "already_away": CONFLICT,
    # targets and cards
    "invalid_target": CONFLICT,  # a seat number may name a seat since changed (a card, a fall)
    "target_is_self": INVALID,
    "target_eliminated": CONFLICT,
    "target_disguised": CONFLICT,
    "target_wounded": CONFLICT,  # Crossbow, Chainsaw (RULES §8.1): a non-wounded seat
    "target_is_leader": CONFLICT,  # Machete (RULES §8.1): no face-up Leader card
    "invalid_position": CONFLICT,  # a seat may hold fewer cards now (classic Defibrillator)
    "card_not_face_down": CONFLICT,
    "card_not_face_up": CONFLICT,  # Fake ID (RULES §9)
    "card_is_leader": CONFLICT,  # Fake ID (RULES §9): only Honest/Crooked cards
    "invalid_arrangement": INVALID,
    "already_arranged": CONFLICT,
    # guns
    "no_gun": CONFLICT,
    "has_gun": CONFLICT,
    "no_gun_in_centre": CONFLICT,
    "not_aimed": CONFLICT,
    "gun_locked": CONFLICT,
    "arm_barred": CONFLICT,
    # zombies (RULES §8)
    "zombie_cannot": CONFLICT,
    "not_a_zombie": CONFLICT,
    "target_is_zombie": CONFLICT,
    "not_aimed_to_bite": CONFLICT,
    "must_reaim": CONFLICT,
    # equipment
    "card_not_in_hand": CONFLICT,
    "unknown_card": INVALID,
    "not_playable_now": CONFLICT,
    "not_enough_seats": CONFLICT,
    "no_effect": CONFLICT,
    "bad_parameters": INVALID,
    "invalid_choice": CONFLICT,  # the prompt may have changed since
    # talk
    "bad_text": INVALID,
    "chat_full": CONFLICT,
}

CODES = frozenset(HTTP_CLASS)


def http_class(code: str) -> HttpClass:
    """The HTTP class of a rule violation's code: ``invalid`` (422), ``conflict`` (409) or
    ``not_found`` (404). KeyError for a code that is not the engine's."""
    return HTTP_CLASS[code]


class RuleViolation(Exception):
    """A command refused by the rules. ``code`` is stable; ``message`` is safe to show anyone."""

    def __init__(self, code: str, message: str) -> None:
        assert code in HTTP_CLASS, code
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


def refuse(code: str, message: str) -> RuleViolation:
    return RuleViolation(code, message)
