#!/usr/bin/env bash
# `npm run test:embed`: the console on real web servers, all of it (npm test runs the uvu tests and
# the @smoke tests shared out among the three servers over HTTPS; here each runs every @smoke test, over HTTP and HTTPS).
# Needs a build of the default brand (npm run build) and Debian's lighttpd (with
# lighttpd-mod-openssl and lighttpd-modules-lua), nginx, libcivetweb-dev with libssl-dev,
# busybox, openssl and libnss3-tools. SITE_DIR=<folder> tests another build.
set -uo pipefail
cd "$(dirname "$0")/../.."
status=0
node --import tsx --import ./tests/support/register.mjs node_modules/uvu/bin.js tests/servers '\.test\.ts$' || status=1
for server in lighttpd nginx civetweb; do
  echo "-- the browser through $server (tests tagged @smoke)"
  FRONT_SERVER=$server npx playwright test -c tests/browser/playwright.config.ts --grep @smoke || status=1
done
# Over HTTPS: Chromium trusts the tests' own CA (hil/web/pki.ts), nothing is ignored.
for server in lighttpd nginx civetweb; do
  echo "-- the browser through $server over HTTPS (tests tagged @smoke)"
  FRONT_SERVER=$server FRONT_TLS=1 npx playwright test -c tests/browser/playwright.config.ts --grep @smoke || status=1
done
exit $status
