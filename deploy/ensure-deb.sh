#!/usr/bin/env bash
# Makes sure a program from a Debian package exists: if CHECK (a shell test) fails, installs the
# packages with apt when root (the first one pinned to VERSION, or Debian's current one once that
# version is gone). Without root or apt it says how to install them, and fails when REQUIRED=1
# (the tests that need an optional program fail until it is there).
# Usage: ensure-deb.sh CHECK PACKAGE VERSION WHAT [MORE_PACKAGES...]
# NO_SERVICE=1 keeps the package's own service from starting (the project starts its own).
set -euo pipefail
check="$1" package="$2" version="$3" what="$4"
shift 4
more=("$@")

if eval "$check"; then
    exit 0
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "${package} is needed ${what}. Install it, e.g.: sudo apt-get install ${package} ${more[*]:-}" >&2
    [ "${REQUIRED:-0}" = 1 ] && exit 1
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
created_policy=0
if [ "${NO_SERVICE:-0}" = 1 ] && [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d
    chmod +x /usr/sbin/policy-rc.d
    created_policy=1
fi
trap '[ "$created_policy" = 1 ] && rm -f /usr/sbin/policy-rc.d' EXIT
apt-get update -q
if ! apt-get install -y -q --no-install-recommends "${package}=${version}" "${more[@]}"; then
    echo ">> ${package} ${version} is not offered here any more; installing Debian's current one" >&2
    apt-get install -y -q --no-install-recommends "${package}" "${more[@]}"
fi
eval "$check"
