"""The rules worker: the only writer of outcomes."""
