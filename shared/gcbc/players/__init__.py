"""Players: their identity folded from the players' log, and its appends (``log``)."""
