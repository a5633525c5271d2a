"""Rule violations: a closed list of stable codes, and messages that reveal nothing hidden."""

from __future__ import annotations

CODES = frozenset(
    {
        # lobby
        "table_exists",
        "no_table",
        "bad_seat_count",
        "option_not_offered",
        "invalid_deal",
        "table_full",
        "not_seated",
        "game_already_started",
        "seats_not_filled",
        "bad_name",
        # game flow
        "game_not_started",
        "game_over",
        "not_your_turn",
        "not_waiting_for_you",
        "wrong_phase",
        "prompt_pending",
        "must_discard",
        "stale_deadline",
        "not_absent",
        # targets and cards
        "invalid_target",
        "target_is_self",
        "target_eliminated",
        "target_disguised",
        "target_wounded",  # Crossbow, Chainsaw (RULES §8.1): a non-wounded seat
        "target_is_leader",  # Machete (RULES §8.1): no face-up Leader card
        "invalid_position",
        "card_not_face_down",
        "card_not_face_up",  # Fake ID (RULES §9)
        "card_is_leader",  # Fake ID (RULES §9): only Honest/Crooked cards
        "invalid_arrangement",
        "already_arranged",
        # guns
        "no_gun",
        "has_gun",
        "no_gun_in_centre",
        "not_aimed",
        "gun_locked",
        "deck_empty",
        "arm_barred",
        # zombies (RULES §8)
        "zombie_cannot",
        "not_a_zombie",
        "target_is_zombie",
        "not_aimed_to_bite",
        "must_reaim",
        # equipment
        "card_not_in_hand",
        "unknown_card",
        "not_playable_now",
        "not_enough_seats",
        "no_effect",
        "bad_parameters",
        "invalid_choice",
        "bad_text",
        "chat_full",
    }
)


class RuleViolation(Exception):
    """A command refused by the rules. ``code`` is stable; ``message`` is safe to show anyone."""

    def __init__(self, code: str, message: str) -> None:
        assert code in CODES, code
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


def refuse(code: str, message: str) -> RuleViolation:
    return RuleViolation(code, message)
