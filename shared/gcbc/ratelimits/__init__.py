"""The request counts every table-service process shares: a port, an in-memory twin and the
Redis adapter."""
