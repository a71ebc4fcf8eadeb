#!/usr/bin/env python3
"""Opens the demo site in WebKitGTK's MiniBrowser through WebKitWebDriver and
saves the page's own verdict and a screenshot.

Usage: python3 -m e2e.webkit_page DRIVER_URL PAGE_URL OUT_PREFIX

Opens PAGE_URL with '?e2e=1' (the site's script, static/site.js, then writes
its JSON verdict into <pre id="e2e-result"> once every <img> has loaded or
failed), waits for that element (an async script resolved by a
MutationObserver, bounded by WebDriver's script timeout), and writes:

  OUT_PREFIX.json  {"page", "userAgent", "images": the verdict}
  OUT_PREFIX.png   the viewport (1280 px wide), scrolled to the top, once every
                   image is decoded and painted

Exits non-zero, with one line saying why, when the driver, the browser or
the page fails; the session (and so the browser) is always closed.
"""
import json
import os
import subprocess
import sys

from . import webdriver

MINIBROWSER = "/usr/lib/{}/webkit2gtk-4.1/MiniBrowser"

WAIT_FOR_VERDICT = """
var done = arguments[arguments.length - 1];
function verdict() {
  var pre = document.getElementById("e2e-result");
  if (pre) { done(pre.textContent); return true; }
  return false;
}
if (!verdict()) {
  new MutationObserver(function (changes, observer) {
    if (verdict()) observer.disconnect();
  }).observe(document.documentElement, { childList: true, subtree: true });
}
"""

# WebKit decodes large images off the main thread: naturalWidth is known before
# the pixels are ready to paint. Wait for every image's decode(), then two
# frames, so the screenshot shows the photos rather than their placeholders.
WAIT_FOR_PAINT = """
var done = arguments[arguments.length - 1];
var decoded = Array.prototype.map.call(document.images, function (img) {
  return img.decode().catch(function () {});
});
Promise.all(decoded).then(function () {
  requestAnimationFrame(function () { requestAnimationFrame(function () { done(true); }); });
});
"""


def minibrowser():
    """The MiniBrowser that libwebkit2gtk-4.1-0 installs in the multiarch library folder."""
    override = os.environ.get("E2E_MINIBROWSER")
    if override:
        return override
    try:
        triplet = subprocess.run(["dpkg-architecture", "-qDEB_HOST_MULTIARCH"], capture_output=True,
                                 text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        triplet = ""
    candidates = [MINIBROWSER.format(triplet)] if triplet else []
    candidates += [MINIBROWSER.format(name) for name in ("x86_64-linux-gnu", "aarch64-linux-gnu")]
    for path in candidates:
        if os.access(path, os.X_OK):
            return path
    raise SystemExit("webkit: no MiniBrowser in " + ", ".join(candidates) + " (is libwebkit2gtk-4.1-0 installed?)")


def main():
    driver, page, prefix = sys.argv[1], sys.argv[2], sys.argv[3]
    capabilities = {"webkitgtk:browserOptions": {"binary": minibrowser(), "args": ["--automation"]}}
    check_url = page + ("&" if "?" in page else "?") + "e2e=1"
    try:
        with webdriver.Session(driver, capabilities, timeout=150) as session:
            session.set_timeouts(page_load_ms=120_000, script_ms=60_000)
            session.set_window_size(1280, 2000)
            session.navigate(check_url)
            verdict = session.execute_async(WAIT_FOR_VERDICT)
            user_agent = session.execute("return navigator.userAgent")
            session.execute("window.scrollTo(0, 0)")
            session.execute_async(WAIT_FOR_PAINT)
            png = session.screenshot_png()
    except webdriver.WebDriverError as error:
        print(f"webkit: FAIL {error}")
        return 1
    result = {"page": check_url, "userAgent": user_agent, "images": json.loads(verdict)}
    with open(prefix + ".json", "w", encoding="utf-8") as file:
        json.dump(result, file, indent=1)
    with open(prefix + ".png", "wb") as file:
        file.write(png)
    print(f"webkit: {len(result['images'])} images in the page; User-Agent: {user_agent}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
