#!/usr/bin/env bash
# Makes sure a redis-server binary exists (on PATH, else Debian's pinned package when root); its
# own service is kept from starting: the project starts its own Redis on a free port.
set -euo pipefail
REDIS_DEB_VERSION="${REDIS_DEB_VERSION:-5:7.0.15-1~deb12u10}"
REQUIRED=1 NO_SERVICE=1 exec "$(dirname "$0")/ensure-deb.sh" \
    'command -v redis-server >/dev/null 2>&1 || [ -x /usr/bin/redis-server ]' \
    redis-server "$REDIS_DEB_VERSION" "to run the server"
