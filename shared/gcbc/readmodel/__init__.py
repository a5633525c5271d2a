"""The read model: its ports (``port``), an in-memory twin (``memory``) and the Redis adapters
(``redis``: one Redis; ``rediscluster``: a Redis Cluster), which share ``redisbase`` (writing,
reading, waiting), ``wakeups`` (pub/sub; ``clusterwakeups``: sharded) and
``pipelined`` (the hot calls on one connection)."""
