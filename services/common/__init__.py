"""The kit every service shares: a table folded from its log (``folded``), a cache of them
(``cache``), the settings and the runner. No service imports another service."""
