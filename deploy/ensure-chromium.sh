#!/usr/bin/env bash
# Makes sure Debian's chromium exists for the web client's browser tests (Playwright drives it at
# /usr/bin/chromium; nothing is downloaded at test time). Installed (pinned) when root with apt;
# otherwise says how, and the browser tests fail until it is there.
set -euo pipefail
CHROMIUM_DEB_VERSION="${CHROMIUM_DEB_VERSION:-156.0.8078.114-1~deb12u1}"

if [ -x /usr/bin/chromium ]; then
    exit 0
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "chromium is needed for the browser tests. Install it, e.g.: sudo apt-get install chromium" >&2
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
if ! apt-get install -y -q --no-install-recommends "chromium=${CHROMIUM_DEB_VERSION}"; then
    echo ">> chromium ${CHROMIUM_DEB_VERSION} is not offered here any more; installing Debian's current one" >&2
    apt-get install -y -q --no-install-recommends chromium
fi
/usr/bin/chromium --version
