"""``python -m services.rules``: the rules worker."""

from services.rules.worker import main

main()
