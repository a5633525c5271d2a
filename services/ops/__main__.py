"""``python -m services.ops``: the operator's CLI (also installed as ``gcbc-ops``)."""

from services.ops.cli import entry_point

entry_point()
