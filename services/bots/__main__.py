"""``python -m services.bots``: the bot worker."""

from services.bots.worker import main

main()
