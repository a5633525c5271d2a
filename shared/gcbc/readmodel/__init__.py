"""The read model: its ports (``port``), an in-memory twin (``memory``) and the Redis adapters
(``redis``: one Redis; ``rediscluster``: a Redis Cluster), which share ``redisbase`` (reading,
waiting, the put script's runs), ``wakeups`` (pub/sub; ``clusterwakeups``: sharded) and
``pipelined`` (the hot calls on one connection)."""
