#!/usr/bin/env bash
# Makes sure Debian's chromium exists for the web client's browser tests (Playwright drives it at
# /usr/bin/chromium; nothing is downloaded at test time): pinned, when root with apt. A Japanese
# font comes with it: without one the Japanese pages' screenshots show boxes for every character.
set -euo pipefail
CHROMIUM_DEB_VERSION="${CHROMIUM_DEB_VERSION:-156.0.8078.114-1~deb12u1}"
exec "$(dirname "$0")/ensure-deb.sh" \
    '[ -x /usr/bin/chromium ] && [ -e /usr/share/fonts/opentype/ipafont-gothic/ipag.ttf ]' \
    chromium "$CHROMIUM_DEB_VERSION" "for the browser tests" fonts-ipafont-gothic
