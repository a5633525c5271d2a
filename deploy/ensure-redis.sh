#!/usr/bin/env bash
# Makes sure a redis-server binary exists: on PATH, else Debian's package (pinned) when root.
# The package's own service is kept from starting: the project starts its own Redis on a free port.
set -euo pipefail
REDIS_DEB_VERSION="${REDIS_DEB_VERSION:-5:7.0.15-1~deb12u10}"

if command -v redis-server >/dev/null 2>&1 || [ -x /usr/bin/redis-server ]; then
    exit 0
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "redis-server is needed and not found. Install it, e.g.: sudo apt-get install redis-server" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
created_policy=0
if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d
    chmod +x /usr/sbin/policy-rc.d
    created_policy=1
fi
trap '[ "$created_policy" = 1 ] && rm -f /usr/sbin/policy-rc.d' EXIT
apt-get update -q
if ! apt-get install -y -q --no-install-recommends "redis-server=${REDIS_DEB_VERSION}"; then
    echo ">> redis-server ${REDIS_DEB_VERSION} is not offered here any more; installing Debian's current one" >&2
    apt-get install -y -q --no-install-recommends redis-server
fi
redis-server --version
