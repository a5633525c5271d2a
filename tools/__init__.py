"""Developer tools, not services: ``make run``'s launcher, local NATS and Redis processes, the
demo and the system bench."""
