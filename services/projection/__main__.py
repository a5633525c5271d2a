"""``python -m services.projection``: the projection service."""

from services.projection.service import main

main()
