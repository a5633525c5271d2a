"""The projection service: per-seat and public views in Redis."""
