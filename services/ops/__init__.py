"""Operator tools: inspect a table's timeline, rebuild read models from the log."""
