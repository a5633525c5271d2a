#!/usr/bin/env bash
# Makes sure Node and npm exist for the TypeScript client's test (clients/typescript: its pinned
# generator and compiler come from npm with `npm ci`): Debian's, pinned, when root with apt.
set -euo pipefail
NODEJS_DEB_VERSION="${NODEJS_DEB_VERSION:-18.20.4+dfsg-1~deb12u3}"
exec "$(dirname "$0")/ensure-deb.sh" \
    'command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1' \
    nodejs "$NODEJS_DEB_VERSION" "for the TypeScript client's test" npm
