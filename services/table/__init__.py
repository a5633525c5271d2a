"""The table service: the public HTTP/JSON API (API.md)."""
