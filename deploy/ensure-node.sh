#!/usr/bin/env bash
# Makes sure Node and npm exist for the TypeScript client's test (clients/typescript: its pinned
# generator and compiler come from npm with `npm ci`). Debian's nodejs and npm (pinned) when root
# with apt; otherwise says how, and that test fails until they are there.
set -euo pipefail
NODEJS_DEB_VERSION="${NODEJS_DEB_VERSION:-18.20.4+dfsg-1~deb12u3}"

if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
    exit 0
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "node and npm are needed for the TypeScript client's test. Install them, e.g.: sudo apt-get install nodejs npm" >&2
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
if ! apt-get install -y -q --no-install-recommends "nodejs=${NODEJS_DEB_VERSION}" npm; then
    echo ">> nodejs ${NODEJS_DEB_VERSION} is not offered here any more; installing Debian's current one" >&2
    apt-get install -y -q --no-install-recommends nodejs npm
fi
node --version
