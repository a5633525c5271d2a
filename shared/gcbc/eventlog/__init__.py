"""The event log: a port, an in-memory twin and the JetStream adapter."""
