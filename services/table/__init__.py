"""The table service: the public HTTP/JSON API (docs/api.md)."""
