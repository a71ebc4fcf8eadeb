#!/usr/bin/env bash
# A real browser through the bridge: headless Chromium loads the demo's news
# site through `webp-bridge demo --serve` (origin + bridge on loopback) and
# the page itself reports whether every image rendered and arrived in a
# type a WebView without WebP can show. Saves a screenshot per mode.
#
#   e2e/run.sh                  both modes
#   E2E_MODES=reverse e2e/run.sh
#
# Modes:
#   reverse  Chromium opens the bridge's URL; the bridge fetches from the origin.
#   forward  Chromium opens the origin's URL with --proxy-server=<bridge>
#            (and --proxy-bypass-list='<-loopback>', since Chromium never
#            proxies loopback otherwise).
#
# How the check works: the site's own script (static/site.js) runs a check
# when the page's URL has '?e2e': once every <img> has loaded or failed it
# writes a JSON verdict (naturalWidth and Resource Timing's contentType per
# image) into <pre id="e2e-result">. 'chromium --headless --dump-dom' prints
# the DOM after load (with --virtual-time-budget so scripts and images
# settle), and e2e/check_page.py reads the verdict. No WebDriver, no
# DevTools client: one browser run per mode, plus one for the screenshot.
#
# Everything is bounded in time, and the demo's servers are always stopped.
# Output: .build/e2e/ (DOM dumps, screenshots, logs). Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."

OUT=${E2E_OUT:-.build/e2e}
MODES=${E2E_MODES:-reverse forward}
SERVE_TIMEOUT=${E2E_SERVE_TIMEOUT:-600}   # building the site + the demo's own measurement
BROWSER_TIMEOUT=${E2E_BROWSER_TIMEOUT:-120}
WEBVIEW_UA="Mozilla/5.0 (iPhone; CPU iPhone OS 13_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.2 Mobile/15E148 Safari/604.1"
SUDO=$([ "$(id -u)" = 0 ] || echo sudo)

mkdir -p "$OUT"
rm -f "$OUT"/*.dom "$OUT"/*.png "$OUT"/*.log

# 1. Chromium (Debian's package) when missing.
if ! command -v chromium >/dev/null; then
  echo "e2e: installing chromium"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi
echo "e2e: $(chromium --version 2>/dev/null | head -n 1)"

# 2. The release binary and the sample photos.
swift build -c release --product webp-bridge 2>&1 | tail -n 1
BIN=.build/release/webp-bridge
if [ -n "${E2E_IMAGES:-}" ]; then
  IMAGES=$E2E_IMAGES
else
  make --no-print-directory -f demo.mk SUDO="$SUDO" demo-photos
  IMAGES=.build/demo-cache/mate-backgrounds/usr/share/backgrounds/mate/nature
fi

# 3. The demo's servers, stopped whatever happens.
DEMO_PID=""
PROFILE=$(mktemp -d)
cleanup() {
  if [ -n "$DEMO_PID" ] && kill -0 "$DEMO_PID" 2>/dev/null; then
    kill -TERM "$DEMO_PID" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$DEMO_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$DEMO_PID" 2>/dev/null || true
    wait "$DEMO_PID" 2>/dev/null || true
  fi
  rm -rf "$PROFILE"
}
trap cleanup EXIT INT TERM

timeout --signal=TERM "$((SERVE_TIMEOUT + 900))" "$BIN" demo --serve --images "$IMAGES" \
  --report "$OUT/demo-report.html" >"$OUT/demo.log" 2>&1 &
DEMO_PID=$!
echo "e2e: started webp-bridge demo --serve (pid $DEMO_PID); waiting for its servers"
deadline=$((SECONDS + SERVE_TIMEOUT))
until grep -q '^serving: ' "$OUT/demo.log"; do
  if ! kill -0 "$DEMO_PID" 2>/dev/null; then
    echo "e2e: FAIL the demo stopped before serving:"; tail -n 20 "$OUT/demo.log"; exit 1
  fi
  if [ $SECONDS -ge $deadline ]; then
    echo "e2e: FAIL the demo was not serving after ${SERVE_TIMEOUT}s"; tail -n 20 "$OUT/demo.log"; exit 1
  fi
  sleep 1
done
ORIGIN=$(sed -n 's/^origin: \(http:[^ ]*\).*/\1/p' "$OUT/demo.log" | head -n 1)
BRIDGE=$(sed -n 's/^bridge: \(http:[^ ]*\).*/\1/p' "$OUT/demo.log" | head -n 1)
FORWARD=$(sed -n 's/^forward-bridge: \(http:[^ ]*\).*/\1/p' "$OUT/demo.log" | head -n 1)
grep '^saved ' "$OUT/demo.log" || true
echo "e2e: origin $ORIGIN, bridge $BRIDGE, forward bridge $FORWARD"

# 4. Chromium, once per mode for the check and once for the screenshot.
browser() {
  timeout --signal=KILL "$BROWSER_TIMEOUT" chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
    --no-first-run --hide-scrollbars --user-data-dir="$PROFILE/$1" --user-agent="$WEBVIEW_UA" \
    --virtual-time-budget=30000 "${@:2}"
}

status=0
for mode in $MODES; do
  case $mode in
    reverse) page=$BRIDGE; proxy=() ;;
    forward) page=$ORIGIN; proxy=(--proxy-server="${FORWARD#http://}" --proxy-bypass-list='<-loopback>') ;;
    *) echo "e2e: unknown mode '$mode'"; status=1; continue ;;
  esac
  echo "e2e: $mode: opening $page/ ${proxy[*]:-}"
  if ! browser "$mode-check" "${proxy[@]}" --dump-dom "$page/?e2e=1" >"$OUT/$mode.dom" 2>"$OUT/$mode-chromium.log"; then
    echo "e2e: $mode: FAIL chromium did not finish within ${BROWSER_TIMEOUT}s (see $OUT/$mode-chromium.log)"
    status=1
  elif ! python3 e2e/check_page.py "$OUT/$mode.dom" "$ORIGIN" "$mode"; then
    status=1
  fi
  if browser "$mode-shot" "${proxy[@]}" --window-size=1280,2000 --screenshot="$OUT/$mode.png" "$page/" \
      >/dev/null 2>>"$OUT/$mode-chromium.log" && [ -s "$OUT/$mode.png" ]; then
    echo "e2e: $mode: screenshot $OUT/$mode.png"
  else
    echo "e2e: $mode: FAIL no screenshot"
    status=1
  fi
done

if [ $status -eq 0 ]; then echo "e2e: passed"; else echo "e2e: FAILED"; fi
exit $status
