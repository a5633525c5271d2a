"""The services: table service (HTTP), rules worker, projection service, ops CLI."""
