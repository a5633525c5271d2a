"""``python -m services.table``: the table service (HTTP API)."""

from services.table.app import main

main()
