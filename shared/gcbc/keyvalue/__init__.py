"""Keyed values (snapshots, the deadline index): a port, an in-memory twin and the JetStream KV
adapter."""
