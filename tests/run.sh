#!/usr/bin/env bash
# `npm test`: typecheck (Preact's and React's types) beside the build (size gate), then three lanes side by
# side: the unit tests (uvu) and the tests tagged @smoke on a React 19 build through real web servers
# over HTTPS (shared out among lighttpd, nginx and civetweb);
# beside them the browser tests; beside those the hardware-in-loop tests and the virtual board, and
# after the first, beside the board, the console on the real web servers and the same steps in
# Firefox ESR and WebKitGTK.
# Installs the Debian packages the tests need when it can (root with apt),
# otherwise stops with one line saying what to run. Ends with a table of each
# step's wall-clock seconds and the line 'N passed, N failed'.
set -uo pipefail
cd "$(dirname "$0")/.."

CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
need=()
[ -x "$CHROMIUM" ] || need+=(chromium)
# The other two engines the console supports (tests/engines): Firefox ESR over WebDriver BiDi,
# WebKitGTK's MiniBrowser through WebKitWebDriver on an Xvfb display of its own; and fonts for
# every script the console shows (docs/DEVELOPING.md, "Browsers and engines").
command -v firefox-esr >/dev/null || need+=(firefox-esr)
[ -x /usr/bin/WebKitWebDriver ] || need+=(webkit2gtk-driver)
[ -x /usr/bin/Xvfb ] || need+=(xvfb)
[ -f /usr/share/fonts/truetype/noto/NotoSansThai-Regular.ttf ] || need+=(fonts-noto-core)
[ -f /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc ] || need+=(fonts-noto-cjk)
command -v socat >/dev/null || need+=(socat)
command -v rb >/dev/null && command -v sb >/dev/null || need+=(lrzsz)
# The console behind real web servers (tests/servers): Debian's lighttpd (with its TLS and Lua
# modules), nginx, civetweb (OpenSSL's headers for its TLS), busybox; openssl makes the tests' CA,
# certutil (libnss3-tools) makes Chromium trust it.
[ -x /usr/sbin/lighttpd ] || need+=(lighttpd)
[ -f /usr/lib/lighttpd/mod_openssl.so ] || need+=(lighttpd-mod-openssl)
[ -f /usr/lib/lighttpd/mod_magnet.so ] || need+=(lighttpd-modules-lua)
[ -x /usr/sbin/nginx ] || need+=(nginx)
[ -f /usr/include/civetweb.h ] || need+=(libcivetweb-dev)
[ -f /usr/include/openssl/ssl.h ] || need+=(libssl-dev)
command -v busybox >/dev/null || need+=(busybox)
command -v gcc >/dev/null || need+=(gcc)
command -v openssl >/dev/null || need+=(openssl)
command -v certutil >/dev/null || need+=(libnss3-tools)
# The lab's serial server in front of the virtual board's ttyS0 (hil/ser2net.ts), and the YAML the
# labgrid recipe reads (hil/lab/labgrid-hil.sh; labgrid itself brings PyYAML).
[ -x /usr/sbin/ser2net ] || need+=(ser2net)
python3 -c 'import yaml' 2>/dev/null || need+=(python3-yaml)
# The virtual board (tests/board): QEMU, mkfs.ext4 and xz (to unpack its kernel) on the host; its kernel and the packages
# inside it are fetched with apt-get download and unpacked, never installed (board/packages.ts).
[ -x /usr/bin/qemu-system-x86_64 ] || need+=(qemu-system-x86)
command -v mkfs.ext4 >/dev/null || need+=(e2fsprogs)
command -v xz >/dev/null || need+=(xz-utils)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Installing Debian packages: ${need[*]}"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}") >/tmp/console-apt.log 2>&1 \
      || { echo "apt-get install ${need[*]} failed; see /tmp/console-apt.log"; exit 1; }
    apt_seconds=$SECONDS
  else
    echo "Missing ${need[*]}: run 'sudo apt-get update && sudo apt-get install -y ${need[*]}' (or set CHROMIUM_PATH), then npm test again."
    exit 1
  fi
fi

passed=0
failed=0
log=$(mktemp)
# Where the time goes: each step's name and wall-clock seconds, printed as a table at the end.
times=()
[ -n "${apt_seconds:-}" ] && times+=("Debian packages (apt-get, a new machine only)|$apt_seconds")
step_name=""
step_start=0
end_step() {
  [ -n "$step_name" ] && times+=("$step_name|$((SECONDS - step_start))")
  step_name=""
}
# step <short name for the table> <what it runs>
step() {
  end_step
  step_name="$1"
  step_start=$SECONDS
  echo
  echo "== $2"
}
count_uvu() {
  local p t
  p=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | awk '/Passed:/ {print $2}' | tail -1)
  t=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | awk '/Total:/ {print $2}' | tail -1)
  # A suite that ended before uvu's summary (its process crashed) counts as one failure, not none.
  if [ -z "$t" ]; then
    echo "(this suite ended before its summary: counted as 1 failed)"
    failed=$((failed + 1))
    return
  fi
  passed=$((passed + ${p:-0}))
  failed=$((failed + t - ${p:-0}))
}
count_playwright() {
  local p f
  p=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -Eo '^ *[0-9]+ passed' | grep -Eo '[0-9]+' | tail -1)
  f=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | awk '/^ *[0-9]+ (failed|flaky)/ {n += $1} END {print n + 0}')
  # A run that ended before Playwright's summary (no line of passed or failed tests) counts as one failure.
  if [ -z "$p" ] && [ "${f:-0}" = 0 ]; then
    echo "(this run ended before its summary: counted as 1 failed)"
    failed=$((failed + 1))
    return
  fi
  passed=$((passed + ${p:-0}))
  failed=$((failed + ${f:-0}))
}
status=0
# uvu <folder> <pattern> / playwright [args]: run, show, count.
uvu() {
  node --import tsx --import ./tests/support/register.mjs node_modules/uvu/bin.js "$@" 2>&1 | tee "$log"
  [ "${PIPESTATUS[0]}" = 0 ] || status=1
  count_uvu
}
playwright() {
  node_modules/.bin/playwright test -c tests/browser/playwright.config.ts "$@" 2>&1 | tee "$log"
  [ "${PIPESTATUS[0]}" = 0 ] || status=1
  count_playwright
}

# The typecheck beside the build: each check is one thread, and so is the build's first part (Lingui).
step "typecheck and build" "typecheck (Preact's and React's types) beside the build (default brand, all locales; fails over the size budget)"
typecheck_log=$(mktemp)
(node_modules/.bin/tsc -p tsconfig.json & preact=$!; node_modules/.bin/tsc -p tsconfig.react.json; react=$?; wait $preact && [ $react = 0 ]) >"$typecheck_log" 2>&1 &
typecheck_pid=$!
brand="$(node -p "require('./brands/index.json').default")"
node_modules/.bin/tsx build.ts --brand "$brand" || { status=1; failed=$((failed + 1)); }
if wait "$typecheck_pid"; then echo "typecheck: no errors"; else cat "$typecheck_log"; status=1; failed=$((failed + 1)); fi
rm -f "$typecheck_log"

# Three lanes side by side: the hardware-in-loop tests (they mostly wait: lines paced like a UART,
# restarts, one browser per terminal) with the virtual board beside them; the browser tests (each
# mostly waits on its page and its terminal); and, in front, the steps that mostly compute. The lanes
# beside print their output at the end. Nothing they assert depends on how busy the machine is
# (docs/DEVELOPING.md, "Tests").
hil_log=$(mktemp)
transfer_log=$(mktemp)
board_log=$(mktemp)
hil_time=$(mktemp)
servers_log=$(mktemp)
engines_log=$(mktemp)
after_times=$(mktemp)
(
  start=$SECONDS
  # The virtual board: Debian's kernel on QEMU, flashed over its ttyS0 (tests/board). It boots and
  # flashes while the harness's own tests wait on their paced lines, beside them.
  node --import tsx --import ./tests/support/register.mjs node_modules/uvu/bin.js tests/board '\.test\.ts$' >"$board_log" 2>&1 &
  board_pid=$!
  # YMODEM and ZMODEM with lrzsz on their paced lines, beside the rest of the harness's tests: both mostly wait.
  node --import tsx --import ./tests/support/register.mjs node_modules/uvu/bin.js tests/hil '^(ymodem|zmodem)\.test\.ts$' >"$transfer_log" 2>&1 &
  transfer_pid=$!
  # The lab test runs a representative part of the browser suite on its two terminals (the whole suite: npm run test:hil):
  # the tests tagged @smoke of sign-in, the layout, the Host check, the policy (a screen of each menu group), a
  # settings form kept across the terminal's restart and adding a user; and @lab, one that skips on a device.
  HIL_LAB_GREP='(auth|layout|host|security|basic|users)\.spec\.ts.*@smoke|@lab' node --import tsx --import ./tests/support/register.mjs node_modules/uvu/bin.js tests/hil '^(?!(ymodem|zmodem)\.test)[^/]+\.test\.ts$' >"$hil_log" 2>&1
  rc=$?
  wait "$transfer_pid" || rc=1
  # Then, beside the board and below it (nice 5, as the other lanes; the board's processes keep their
  # niceness), the console on real web servers (lighttpd and nginx with the generated configuration,
  # civetweb with the C table, busybox httpd's limits) and the same steps as the tests tagged @smoke in
  # Firefox ESR and WebKitGTK: they were in front, the longest lane once the board's boots got shorter
  # (PVH: docs/HIL.md), while this lane waited a few minutes on the board alone.
  renice -n 5 -p "$BASHPID" >/dev/null
  for part in servers engines; do
    part_start=$SECONDS
    part_log=$servers_log
    [ "$part" = engines ] && part_log=$engines_log
    node --import tsx --import ./tests/support/register.mjs node_modules/uvu/bin.js "tests/$part" '\.test\.ts$' >"$part_log" 2>&1 || rc=1
    echo "$part|$((SECONDS - part_start))" >>"$after_times"
  done
  wait "$board_pid" || rc=1
  echo $((SECONDS - start)) >"$hil_time"
  exit $rc
) &
hil_pid=$!
# The lanes after this one run at nice 5, the hardware-in-loop lane at the niceness npm test started with:
# its lines are paced like a UART and its board's QEMU emulates a CPU, so a timer that fires late costs
# it line time (and rb, which waits 10 s for a block, may give up), while the other lanes only compute and
# take what it leaves. All at one priority, the paced lines lost 3.2 s (YMODEM) and 19.5 s (ZMODEM) to
# late timers and the board's suite took 518 s (140 s alone); with this, 0.6 s, 6.7 s and 436 s, and
# npm test as long (553 s against 547; docs/DEVELOPING.md, "Tests").
renice -n 5 -p $$ >/dev/null

# Each Playwright run has its own output folder: runs side by side must not clear each other's.
browser_log=$(mktemp)
browser_time=$(mktemp)
(
  start=$SECONDS
  node_modules/.bin/playwright test -c tests/browser/playwright.config.ts --output test-results/browser >"$browser_log" 2>&1
  rc=$?
  echo $((SECONDS - start)) >"$browser_time"
  exit $rc
) &
browser_pid=$!

step "uvu suites" "the console (happy-dom), the contract, the simulated terminal over HTTP, the build, the tools, the house rules (uvu); the bench's own beside them"
# The bench's own test mostly waits (YMODEM on a paced line, the slow line, a throttled browser):
# it runs beside the other unit tests, and its output follows theirs.
# The unit suites in three processes, the build's and the contract's (the builds, the fuzz: mostly computing)
# each beside the rest: this lane is the longest, and each process gets it a share of a busy machine (with the
# build's and the contract's in one, that process alone took 477 to 504 s of a 506 to 530 s step; the rest 324 to 343).
bench_log=$(mktemp)
node --import tsx --import ./tests/support/register.mjs node_modules/uvu/bin.js tests '^bench/[^/]+\.test\.ts$' >"$bench_log" 2>&1 &
bench_pid=$!
build_log=$(mktemp)
node --import tsx --import ./tests/support/register.mjs node_modules/uvu/bin.js tests '^build/[^/]+\.test\.tsx?$' >"$build_log" 2>&1 &
build_pid=$!
contract_log=$(mktemp)
node --import tsx --import ./tests/support/register.mjs node_modules/uvu/bin.js tests '^contract/[^/]+\.test\.tsx?$' >"$contract_log" 2>&1 &
contract_pid=$!
uvu tests '^(console|simulator|tools|repo)/[^/]+\.test\.tsx?$'
# beside <pid> <its log>: wait for a suite run beside this one, show its output, count it.
beside() {
  wait "$1" || status=1
  cat "$2"
  mv "$2" "$log"
  count_uvu
}
beside "$build_pid" "$build_log"
beside "$contract_pid" "$contract_log"
beside "$bench_pid" "$bench_log"

# Every served file, the serving rules and the configurations are proven through each server, over
# HTTP and HTTPS, by tests/servers (in the harness's lane, beside the board). The same source on React 19 then goes through them in the
# browser over HTTPS, trusting a CA the run makes (hil/web/pki.ts): the tests tagged @smoke in one run, each
# through one of the three, picked by its file and title (FRONT_SERVER with the three: hil/web/servers.ts,
# frontOf), so each of them passes on React 19 and over TLS once, and each server carries a share of the
# flows. One run rather than one a server: a run's start (Playwright's runner, its workers, their browsers)
# cost about 11 s of CPU (npm run cpu -- --steps: the three runs took 75 s for 16 tests). The Preact set in
# a browser behind a real server: the virtual board's lighttpd (tests/board). Every @smoke test through every
# server, over HTTP and HTTPS, on the Preact set: npm run test:embed; the whole suite on React 19: npm run test:react.
step "React 19 through the servers" "the same source on React 19 (dist-react/$brand), through lighttpd, nginx and civetweb over HTTPS: the tests tagged @smoke, each through one of them"
if node_modules/.bin/tsx build.ts --react --brand "$brand" --no-extract --quiet; then
  SITE_DIR="dist-react/$brand" FRONT_SERVER=lighttpd,nginx,civetweb FRONT_TLS=1 playwright --grep @smoke --output test-results/react
else
  status=1
  failed=$((failed + 1))
fi

step "browser tests: the rest after the steps above" "browser tests (Playwright + $CHROMIUM against the simulated terminal, every spec), run beside the steps above"
wait "$browser_pid" || status=1
cat "$browser_log"
mv "$browser_log" "$log"
count_playwright
end_step
times+=("  (browser tests, from their start beside the steps above)|$(cat "$browser_time")")

step "hardware-in-loop tests: the rest after the other steps" "hardware-in-loop tests (YMODEM and ZMODEM with lrzsz over ptys, the simulated console, real bash and busybox shells, a --simulate loop, two lab shards running a part of the browser suite on their terminals, and beside them the virtual board; then, beside the board, the real web servers, Firefox and WebKit), run beside the steps above"
wait "$hil_pid" || status=1
cat "$hil_log"
mv "$hil_log" "$log"
count_uvu
cat "$transfer_log"
mv "$transfer_log" "$log"
count_uvu
echo
echo "== the virtual board (QEMU, Debian's kernel, ttyS0, ext4 /data, lighttpd; tests/board)"
cat "$board_log"
mv "$board_log" "$log"
count_uvu
echo
echo "== the console on real web servers: lighttpd and nginx with the generated configuration, civetweb with the C table, busybox httpd's limits (tests/servers; in this lane, beside the board)"
cat "$servers_log"
mv "$servers_log" "$log"
count_uvu
echo
echo "== the same steps as the tests tagged @smoke in Firefox ESR and WebKitGTK, and every script drawn with a real font (tests/engines; after the servers)"
cat "$engines_log"
mv "$engines_log" "$log"
count_uvu
end_step
times+=("  (hardware-in-loop tests, from their start beside the steps above)|$(cat "$hil_time")")
while IFS='|' read -r part secs; do
  case $part in
    servers) times+=("    (of which the real web servers, beside the board)|$secs") ;;
    engines) times+=("    (of which Firefox and WebKit, beside the board)|$secs") ;;
  esac
done <"$after_times"
rm -f "$hil_time" "$browser_time" "$after_times" "$log"

echo
echo "== where the time went (wall clock, seconds)"
for t in "${times[@]}"; do printf '  %-66s %5s\n' "${t%|*}" "${t##*|}"; done
printf '  %-66s %5s\n' "npm test" "$SECONDS"

echo
echo "$passed passed, $failed failed"
[ "$status" = 0 ] && [ "$failed" = 0 ]
