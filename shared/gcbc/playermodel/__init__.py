"""The players' read model: a port, an in-memory twin and the Redis adapter."""
