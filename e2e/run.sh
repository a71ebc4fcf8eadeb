#!/usr/bin/env bash
# Real browsers through the bridge, on the demo's news site (`webp-bridge
# demo --serve`: origin + qiniu-legacy bridge on loopback). Each mode prints
# one summary line (images, types seen, bytes to the browser, wire bytes)
# and 'N passed, N failed'; screenshots and logs go to .build/e2e/.
#
#   e2e/run.sh                        every mode
#   E2E_MODES="reverse webkit-modern" e2e/run.sh
#
# Modes:
#   reverse        headless Chromium (the iOS 13 WebView's User-Agent) opens the
#                  bridge's URL; the bridge fetches from the origin.
#   forward        the same, opening the origin's URL with --proxy-server=<bridge>
#                  (and --proxy-bypass-list='<-loopback>', since Chromium never
#                  proxies loopback otherwise).
#   webkit-legacy  the legacy path in a real WebKit engine: WebKitGTK's
#                  MiniBrowser, driven by WebKitWebDriver under Xvfb, opens the
#                  bridge's URL with its own User-Agent (AppleWebKit/605.1.15,
#                  an image Accept that lists image/webp). The qiniu-legacy
#                  policy keys on 'AppleWebKit', so it is served as an old iOS
#                  WebView: every image renders, every image is JPEG/PNG/GIF,
#                  the bridge served no WebP and transcoded for it.
#   avif           the AVIF path: headless Chromium as itself (its image Accept
#                  names image/avif) opens a bridge with the demo's measured rule
#                  (--preset qiniu --formats avif,webp, the accept policy). Every
#                  photo arrives as image/avif, and every image's bytes equal the
#                  demo's AVIF client's wire bytes (e2e/check_avif.py).
#   avif-sequence  the demo's photographic GIF from its tuned origin (--auto-format)
#                  as Chromium asks for it: curl gets image/avif, avifdec --info
#                  reads it as an image sequence of the GIF's frames, and
#                  headless Chromium, opening the demo's page on the tuned
#                  origin, shows it 480 px wide as those same AVIF bytes.
#   client-hints   a browser's own width hints through the bridge: headless
#                  Chromium as itself, its window 500 px wide, opens
#                  `webp-bridge proxy --rewrite-html --client-hints` in front of
#                  the tuned origin (`--client-hints`) with the qiniu preset
#                  at width 750. The rewritten page asks for the hints
#                  (Accept-CH); Chromium sends Sec-CH-Viewport-Width 500,
#                  Sec-CH-DPR 1 and, with some images, Sec-CH-Width (their
#                  width attribute); the proxy passes them on as
#                  a bucket: each photo must arrive as wide as the hints
#                  Chromium sent for it ask (read from its --log-net-log:
#                  Sec-CH-Width, else Viewport-Width x DPR, bucketed, capped
#                  by the rule's 750; e2e/check_hints.py). curl checks one
#                  image's Vary and a 300 px Sec-CH-Width (bucket 320).
#   webkit-modern  the modern path: the same browser opens
#                  `webp-bridge proxy --rewrite-html` (the `accept` policy, the
#                  same qiniu-legacy rule) in front of the demo's origin. Every
#                  image renders; every image URL in the page (currentSrc) is
#                  its variant as `webp-bridge rewrite` gives it; the proxy
#                  transcoded nothing (its /__bridge/metrics); and the image
#                  bytes the browser received equal, per image and in sum, the
#                  demo's wire bytes (demo-report.json: what its bridge
#                  received from the origin, i.e. what a WebP client needs).
#
# How the checks work: the site's own script (static/site.js) runs a check
# when the page's URL has '?e2e': once every <img> has loaded or failed it
# writes a JSON verdict (naturalWidth, Resource Timing's contentType and
# encodedBodySize per image) into <pre id="e2e-result">. Chromium:
# 'chromium --headless --dump-dom' prints the DOM after load (with
# --virtual-time-budget so scripts and images settle). WebKit:
# e2e/webkit_page.py speaks W3C WebDriver over plain HTTP (e2e/webdriver.py,
# standard library only; it says why not selenium), waits for the verdict,
# saves it as JSON with the browser's User-Agent, and takes the screenshot.
# e2e/check_page.py checks the legacy modes, e2e/check_variants.py the
# modern one (their headers say exactly what each compares). The bridge's
# metrics are scraped before and after each browser run.
#
# Installs what it needs when missing (Debian: chromium; webkit2gtk-driver,
# xvfb, xauth). Everything is bounded in time; the demo, the proxy, the
# driver, Xvfb and the browser are always stopped. Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."

OUT=${E2E_OUT:-.build/e2e}
MODES=${E2E_MODES:-reverse forward webkit-legacy webkit-modern avif avif-sequence client-hints}
SERVE_TIMEOUT=${E2E_SERVE_TIMEOUT:-600}   # building the site + the demo's own measurement
BROWSER_TIMEOUT=${E2E_BROWSER_TIMEOUT:-120}
START_TIMEOUT=${E2E_START_TIMEOUT:-60}    # WebKitWebDriver under Xvfb, the modern proxy
WIDTH=750                                 # the screen width both bridges ask variants for
WEBVIEW_UA="Mozilla/5.0 (iPhone; CPU iPhone OS 13_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.2 Mobile/15E148 Safari/604.1"
SUDO=$([ "$(id -u)" = 0 ] || echo sudo)

mkdir -p "$OUT"
rm -f "$OUT"/*.dom "$OUT"/*.png "$OUT"/*.log "$OUT"/*.prom "$OUT"/webkit-*.json

wants() { [[ " $MODES " == *" $1"* ]]; }   # wants webkit: any webkit-* mode

# 1. The browsers (Debian's packages) when missing.
missing_packages() {
  for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || echo "$package"
  done
}
install_missing() {
  local missing
  missing=$(missing_packages "$@" | xargs)
  [ -z "$missing" ] && return 0
  echo "e2e: installing $missing"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
}
if wants reverse || wants forward || wants avif || wants client-hints; then
  install_missing chromium
  echo "e2e: $(chromium --version 2>/dev/null | head -n 1)"
fi
if wants webkit; then
  # WebKitWebDriver, and the MiniBrowser of libwebkit2gtk-4.1-0 that it drives; Xvfb, since
  # WebKitGTK without a display (--headless) hangs.
  install_missing webkit2gtk-driver xvfb xauth
  echo "e2e: WebKitGTK $(dpkg-query -W -f='${Version}' libwebkit2gtk-4.1-0 2>/dev/null)"
fi

# 2. The release binary and the sample photos.
swift build -c release --product webp-bridge 2>&1 | tail -n 1
BIN=.build/release/webp-bridge
if [ -n "${E2E_IMAGES:-}" ]; then
  IMAGES=$E2E_IMAGES
else
  make --no-print-directory -f demo.mk SUDO="$SUDO" demo-photos
  IMAGES=.build/demo-cache/mate-backgrounds/usr/share/backgrounds/mate/nature
fi

# 3. Everything started here is stopped whatever happens: the demo and the two proxies by
# pid, the driver by its process group (xvfb-run, Xvfb, WebKitWebDriver, MiniBrowser and
# WebKit's own processes).
DEMO_PID=""
PROXY_PID=""
AVIF_PROXY_PID=""
HINTS_PROXY_PID=""
DRIVER_PGID=""
PROFILE=$(mktemp -d)
stop() {   # stop PID: SIGTERM, up to 10 s, then SIGKILL
  local pid=$1
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}
cleanup() {
  if [ -n "$DRIVER_PGID" ]; then
    kill -TERM -- "-$DRIVER_PGID" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 -- "-$DRIVER_PGID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$DRIVER_PGID" 2>/dev/null || true
  fi
  stop "$PROXY_PID"
  stop "$AVIF_PROXY_PID"
  stop "$HINTS_PROXY_PID"
  stop "$DEMO_PID"
  rm -rf "$PROFILE"
}
trap cleanup EXIT INT TERM

# The waits are scripts/bridgekit.py's (bounded; the log's last lines on failure), as the Python scripts'.
export PYTHONDONTWRITEBYTECODE=1
kit() { python3 -m scripts.bridgekit "$@"; }
# listening WHAT LOG PID: the URL of a server's `listening on` line (a failure said on stderr, not captured).
listening() {
  kit listening "$2" "$3" "$START_TIMEOUT" || { echo "e2e: FAIL $1 was not ready" >&2; return 1; }
}

timeout --signal=TERM "$((SERVE_TIMEOUT + 900))" "$BIN" demo --serve --images "$IMAGES" --width "$WIDTH" \
  --report "$OUT/demo-report.html" >"$OUT/demo.log" 2>&1 &
DEMO_PID=$!
echo "e2e: started webp-bridge demo --serve (pid $DEMO_PID); waiting for its servers"
kit wait "$OUT/demo.log" "$DEMO_PID" "$SERVE_TIMEOUT" '^serving: ' >/dev/null \
  || { echo "e2e: FAIL the demo was not serving"; exit 1; }
ORIGIN=$(sed -n 's/^origin: \(http:[^ ]*\).*/\1/p' "$OUT/demo.log" | head -n 1)
BRIDGE=$(sed -n 's/^bridge: \(http:[^ ]*\).*/\1/p' "$OUT/demo.log" | head -n 1)
FORWARD=$(sed -n 's/^forward-bridge: \(http:[^ ]*\).*/\1/p' "$OUT/demo.log" | head -n 1)
TUNED=$(sed -n 's/^tuned origin: \(http:[^ ]*\).*/\1/p' "$OUT/demo.log" | head -n 1)
FIGURES=$OUT/demo-report.json
grep '^saved ' "$OUT/demo.log" || true
echo "e2e: origin $ORIGIN, bridge $BRIDGE, forward bridge $FORWARD; the demo's figures in $FIGURES"

# 4. WebKitWebDriver under Xvfb on a free loopback port, when a WebKit mode runs.
DRIVER=""
start_driver() {
  local port
  port=$(kit free-port)
  # setsid: the driver and everything it starts get a process group of their own, to stop at once.
  setsid timeout --signal=TERM "$((BROWSER_TIMEOUT * 6 + START_TIMEOUT))" \
    xvfb-run -a -s "-screen 0 1280x2048x24" WebKitWebDriver --port="$port" --host=local \
    >"$OUT/webkit-driver.log" 2>&1 &
  DRIVER_PGID=$!
  DRIVER=http://127.0.0.1:$port
  local deadline=$((SECONDS + START_TIMEOUT))
  until python3 -c 'import sys; from e2e import webdriver; sys.exit(0 if webdriver.status(sys.argv[1]) else 1)' \
      "$DRIVER" 2>/dev/null; do
    if ! kill -0 "$DRIVER_PGID" 2>/dev/null || [ $SECONDS -ge $deadline ]; then
      echo "e2e: FAIL WebKitWebDriver did not get ready on $DRIVER (see $OUT/webkit-driver.log)"
      tail -n 20 "$OUT/webkit-driver.log"; return 1
    fi
    sleep 0.5
  done
  echo "e2e: WebKitWebDriver on $DRIVER, under Xvfb"
}

# 5. The modern path's proxy: `proxy --rewrite-html`, the `accept` policy, the demo's rule.
PROXY=""
start_modern_proxy() {
  if ! "$BIN" proxy --help 2>&1 | grep -q -- --rewrite-html; then
    echo "e2e: webkit-modern: FAIL this webp-bridge has no 'proxy --rewrite-html' (issue #12 item 3):" \
      "the modern path cannot run until it is merged"
    return 1
  fi
  local host=${ORIGIN#http://}
  host=${host%%:*}
  # The demo's bridge runs `--preset qiniu-legacy --host HOST --width WIDTH`; the same rule, with
  # the `accept` policy instead of the preset's legacy one.
  cat >"$OUT/modern-rules.json" <<JSON
{
  "rules": [{ "name": "demo", "hosts": ["$host"], "dialect": "qiniu-legacy", "width": $WIDTH }],
  "client": { "webpSupport": "accept" }
}
JSON
  timeout --signal=TERM "$((BROWSER_TIMEOUT * 2 + START_TIMEOUT))" "$BIN" proxy --upstream "$ORIGIN" \
    --config "$OUT/modern-rules.json" --rewrite-html --listen 127.0.0.1:0 >"$OUT/webkit-modern-proxy.log" 2>&1 &
  PROXY_PID=$!
  PROXY=$(listening "the modern proxy" "$OUT/webkit-modern-proxy.log" "$PROXY_PID") || return 1
  echo "e2e: webkit-modern: proxy --rewrite-html on $PROXY (upstream $ORIGIN, accept policy)"
}

# 5b. The AVIF path's bridge: the demo's measured rule (`--preset qiniu --formats avif,webp --gif`), `accept` policy.
AVIF_PROXY=""
start_avif_proxy() {
  local host=${ORIGIN#http://}
  host=${host%%:*}
  timeout --signal=TERM "$((BROWSER_TIMEOUT * 2 + START_TIMEOUT))" "$BIN" proxy --upstream "$ORIGIN" \
    --preset qiniu --host "$host" --width "$WIDTH" --formats avif,webp --gif --listen 127.0.0.1:0 \
    >"$OUT/avif-proxy.log" 2>&1 &
  AVIF_PROXY_PID=$!
  AVIF_PROXY=$(listening "the AVIF bridge" "$OUT/avif-proxy.log" "$AVIF_PROXY_PID") || return 1
  echo "e2e: avif: proxy on $AVIF_PROXY (upstream $ORIGIN, --formats avif,webp, accept policy)"
}

scrape() {   # scrape BASE FILE: the bridge's Prometheus text
  curl -fsS --max-time 10 "$1/__bridge/metrics" >"$2" && return 0
  echo "e2e: FAIL cannot scrape $1/__bridge/metrics"
  return 1
}

# 6. The modes.
browser() {
  timeout --signal=KILL "$BROWSER_TIMEOUT" chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
    --no-first-run --hide-scrollbars --user-data-dir="$PROFILE/$1" --user-agent="$WEBVIEW_UA" \
    --virtual-time-budget=30000 "${@:2}"
}

chromium_mode() {   # chromium_mode MODE PAGE BRIDGE [PROXY ARGS...]
  local mode=$1 page=$2 bridge=$3 status=0
  local proxy=("${@:4}")
  echo "e2e: $mode: chromium opens $page/ ${proxy[*]:-}"
  scrape "$bridge" "$OUT/$mode-before.prom" || return 1
  if ! browser "$mode-check" "${proxy[@]}" --dump-dom "$page/?e2e=1" >"$OUT/$mode.dom" 2>"$OUT/$mode-chromium.log"; then
    echo "e2e: $mode: FAIL chromium did not finish within ${BROWSER_TIMEOUT}s (see $OUT/$mode-chromium.log)"
    return 1
  fi
  scrape "$bridge" "$OUT/$mode-after.prom" || return 1
  python3 -m e2e.check_page "$OUT/$mode.dom" "$ORIGIN" "$mode" --demo-report "$FIGURES" \
    --metrics "$OUT/$mode-before.prom" "$OUT/$mode-after.prom" || status=1
  if browser "$mode-shot" "${proxy[@]}" --window-size=1280,2000 --screenshot="$OUT/$mode.png" "$page/" \
      >/dev/null 2>>"$OUT/$mode-chromium.log" && [ -s "$OUT/$mode.png" ]; then
    echo "e2e: $mode: screenshot $OUT/$mode.png"
  else
    echo "e2e: $mode: FAIL no screenshot"
    status=1
  fi
  return $status
}

webkit_page() {   # webkit_page MODE PAGE: the verdict in OUT/MODE.json, the screenshot in OUT/MODE.png
  echo "e2e: $1: WebKitGTK MiniBrowser opens $2/"
  if ! timeout --signal=KILL "$BROWSER_TIMEOUT" python3 -m e2e.webkit_page "$DRIVER" "$2/" "$OUT/$1"; then
    echo "e2e: $1: FAIL no verdict from WebKit within ${BROWSER_TIMEOUT}s (see $OUT/webkit-driver.log)"
    return 1
  fi
  echo "e2e: $1: screenshot $OUT/$1.png"
}

# The demo's photographic GIF as an AVIF image sequence, from the tuned origin (--auto-format).
avif_sequence() {
  local url="$TUNED/images/scene-pan.gif" accept="image/avif,image/webp,image/apng,image/*,*/*;q=0.8"
  local gif_frames type frames loaded
  # The GIF itself, as a client that names neither AVIF nor WebP gets it, and its frames.
  curl -sS --max-time "$BROWSER_TIMEOUT" -H 'Accept: image/png,image/*;q=0.8' -o "$OUT/scene-pan.gif" "$url"
  gif_frames=$("$BIN" info "$OUT/scene-pan.gif" 2>/dev/null | sed -n 's/.*, \([0-9]*\) frames,.*/\1/p')
  type=$(curl -sS --max-time "$BROWSER_TIMEOUT" -H "Accept: $accept" -o "$OUT/scene-pan.avif" -w '%{content_type}' "$url")
  frames=$(avifdec --info "$OUT/scene-pan.avif" 2>&1 | sed -n 's/.* \([0-9]*\) frames$/\1/p' | head -n 1)
  echo "e2e: avif-sequence: $url as $type, $(stat -c %s "$OUT/scene-pan.avif") bytes, avifdec reads ${frames:-no} frames (the GIF has ${gif_frames:-?})"
  if [ "$type" != image/avif ] || [ -z "$frames" ] || [ "$frames" != "$gif_frames" ]; then
    echo "e2e: avif-sequence: FAIL not an AVIF sequence of the GIF's frames"; return 1
  fi
  # Chromium as itself loads the demo's page from the tuned origin: every image straight from it.
  timeout --signal=KILL "$BROWSER_TIMEOUT" chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
    --no-first-run --hide-scrollbars --user-data-dir="$PROFILE/avif-sequence" --virtual-time-budget=30000 \
    --dump-dom "$TUNED/index.html?e2e=1" >"$OUT/avif-sequence.dom" 2>"$OUT/avif-sequence-chromium.log" || true
  loaded=$(python3 -c '
import sys
from e2e import verdict
images, _ = verdict.read_verdict(sys.argv[1])
for image in images or []:
    if verdict.site_path(image["src"]) == "/images/scene-pan.gif":
        print(image["naturalWidth"], image["contentType"].split(";")[0].strip(), image["bytes"])
' "$OUT/avif-sequence.dom")
  echo "e2e: avif-sequence: chromium shows the GIF as: ${loaded:-nothing} (width, type, bytes)"
  if [ "$loaded" != "480 image/avif $(stat -c %s "$OUT/scene-pan.avif")" ]; then
    echo "e2e: avif-sequence: FAIL chromium did not show the sequence curl got (see $OUT/avif-sequence.dom)"
    return 1
  fi
  echo "e2e: avif-sequence: passed"
}

# A browser's width hints through `proxy --rewrite-html --client-hints` to the tuned origin.
client_hints() {
  local host=${TUNED#http://} proxy shown widths vary single
  host=${host%%:*}
  # The qiniu dialect (imageView2), which the tuned origin serves; the demo's style suffix it has not.
  timeout --signal=TERM "$((BROWSER_TIMEOUT * 2 + START_TIMEOUT))" "$BIN" proxy --upstream "$TUNED" \
    --preset qiniu --host "$host" --width "$WIDTH" --rewrite-html --client-hints --listen 127.0.0.1:0 \
    >"$OUT/client-hints-proxy.log" 2>&1 &
  HINTS_PROXY_PID=$!
  proxy=$(listening "the client-hints proxy" "$OUT/client-hints-proxy.log" "$HINTS_PROXY_PID") || return 1
  echo "e2e: client-hints: proxy --rewrite-html --client-hints on $proxy (upstream $TUNED, width $WIDTH)"
  # One image as a client that hints a 300 px slot: the bucket (320) on the wire, and Vary naming the hints.
  vary=$(curl -sS --max-time "$BROWSER_TIMEOUT" -H 'Accept: image/webp' -H 'Sec-CH-Width: 300' \
    -o "$OUT/client-hints-300.webp" -D - "$proxy/images/article-01.jpg" | tr -d '\r' | sed -n 's/^[Vv]ary: //p')
  single=$("$BIN" info "$OUT/client-hints-300.webp" 2>/dev/null | head -n 1)
  echo "e2e: client-hints: Sec-CH-Width 300 gets: $single; Vary: $vary"
  if [[ "$single" != *"WebP 320x"* ]] || [[ "$vary" != *Sec-CH-Width* ]]; then
    echo "e2e: client-hints: FAIL not the 320 px bucket, or Vary does not name the hints"; return 1
  fi
  timeout --signal=KILL "$BROWSER_TIMEOUT" chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
    --no-first-run --hide-scrollbars --user-data-dir="$PROFILE/client-hints" --virtual-time-budget=30000 \
    --window-size=500,2000 --log-net-log="$OUT/client-hints-netlog.json" --dump-dom "$proxy/index.html?e2e=1" \
    >"$OUT/client-hints.dom" 2>"$OUT/client-hints-chromium.log" || true
  # Each photo as wide as the hints Chromium sent for it ask (its own net log), never the rule's
  # width when they ask for less.
  python3 -m e2e.check_hints "$OUT/client-hints.dom" "$OUT/client-hints-netlog.json" "$WIDTH" || return 1
  echo "e2e: client-hints: passed"
}

status=0
for mode in $MODES; do
  case $mode in
    reverse)
      chromium_mode reverse "$BRIDGE" "$BRIDGE" || status=1 ;;
    forward)
      chromium_mode forward "$ORIGIN" "$FORWARD" \
        --proxy-server="${FORWARD#http://}" --proxy-bypass-list='<-loopback>' || status=1 ;;
    webkit-legacy|webkit-modern)
      if [ -z "$DRIVER" ] && ! start_driver; then status=1; continue; fi
      if [ $mode = webkit-legacy ]; then
        if scrape "$BRIDGE" "$OUT/$mode-before.prom" && webkit_page "$mode" "$BRIDGE" \
            && scrape "$BRIDGE" "$OUT/$mode-after.prom"; then
          python3 -m e2e.check_page "$OUT/$mode.json" "$ORIGIN" "$mode" --webkit --demo-report "$FIGURES" \
            --metrics "$OUT/$mode-before.prom" "$OUT/$mode-after.prom" || status=1
        else
          status=1
        fi
      else
        if ! start_modern_proxy; then status=1; continue; fi
        if scrape "$PROXY" "$OUT/$mode-before.prom" && webkit_page "$mode" "$PROXY" \
            && scrape "$PROXY" "$OUT/$mode-after.prom"; then
          python3 -m e2e.check_variants "$OUT/$mode.json" "$mode" --origin "$ORIGIN" --proxy "$PROXY" \
            --rules "$OUT/modern-rules.json" --bin "$BIN" --demo-report "$FIGURES" \
            --metrics "$OUT/$mode-before.prom" "$OUT/$mode-after.prom" || status=1
        else
          status=1
        fi
      fi ;;
    avif)
      # Chromium as itself (its own User-Agent; its <img> Accept names image/avif).
      if ! start_avif_proxy; then status=1; continue; fi
      echo "e2e: avif: chromium opens $AVIF_PROXY/"
      if scrape "$AVIF_PROXY" "$OUT/avif-before.prom" \
          && timeout --signal=KILL "$BROWSER_TIMEOUT" chromium --headless --no-sandbox --disable-gpu \
            --disable-dev-shm-usage --no-first-run --hide-scrollbars --user-data-dir="$PROFILE/avif" \
            --virtual-time-budget=30000 --dump-dom "$AVIF_PROXY/?e2e=1" >"$OUT/avif.dom" 2>"$OUT/avif-chromium.log" \
          && scrape "$AVIF_PROXY" "$OUT/avif-after.prom"; then
        python3 -m e2e.check_avif "$OUT/avif.dom" avif --demo-report "$FIGURES" \
          --metrics "$OUT/avif-before.prom" "$OUT/avif-after.prom" || status=1
      else
        echo "e2e: avif: FAIL chromium did not finish within ${BROWSER_TIMEOUT}s, or the bridge's metrics"
        status=1
      fi ;;
    avif-sequence)
      avif_sequence || status=1 ;;
    client-hints)
      client_hints || status=1 ;;
    *) echo "e2e: unknown mode '$mode'"; status=1 ;;
  esac
done

if [ $status -eq 0 ]; then echo "e2e: passed"; else echo "e2e: FAILED"; fi
exit $status
