"""``python -m services.rules``: the rules worker."""

from services.rules.service import main

main()
