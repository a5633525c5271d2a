"""The bot worker: the house plays the seats a table gives it (the sandbox)."""
