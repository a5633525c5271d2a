"""Read models: a port, an in-memory twin and the Redis adapter."""
