#!/usr/bin/env python3
"""Reads the verdict that the demo site's own script wrote into the page.

Usage: check_page.py DOM_FILE ORIGIN_URL MODE

DOM_FILE is what `chromium --headless --dump-dom 'URL?e2e=1'` printed: the
page's script (static/site.js) waits until every <img> has loaded or failed,
then appends <pre id="e2e-result"> holding, for each <img>, its URL, its
naturalWidth and the Content-Type it arrived with (Resource Timing's
contentType). This script checks that:

  - the result is there (the page and its script loaded at all);
  - every <img> decoded (naturalWidth > 0);
  - every image arrived with a type a WebView without WebP can show
    (image/jpeg, image/png, image/apng, image/gif) and never image/webp;
  - each JPEG photo cost fewer bytes than the original the origin serves
    (so it was transcoded from the smaller variant, not passed through).

Prints one line per problem and a closing 'N passed, N failed' line; exits
non-zero on any failure.
"""
import html
import json
import re
import sys
import urllib.parse
import urllib.request

WEBVIEW_UA = ("Mozilla/5.0 (iPhone; CPU iPhone OS 13_7 like Mac OS X) AppleWebKit/605.1.15 "
              "(KHTML, like Gecko) Version/13.1.2 Mobile/15E148 Safari/604.1")
WEBVIEW_ACCEPT = "image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5"
SHOWABLE = {"image/jpeg", "image/png", "image/apng", "image/gif"}


def original_size(origin, path):
    """Content-Length of the original, as the origin serves it to a WebView."""
    request = urllib.request.Request(urllib.parse.urljoin(origin, path), method="HEAD",
                                     headers={"User-Agent": WEBVIEW_UA, "Accept": WEBVIEW_ACCEPT})
    with urllib.request.urlopen(request, timeout=30) as response:
        return int(response.headers.get("Content-Length", "0"))


def main():
    dom_file, origin, mode = sys.argv[1], sys.argv[2], sys.argv[3]
    dom = open(dom_file, encoding="utf-8", errors="replace").read()
    match = re.search(r'<pre id="e2e-result">(.*?)</pre>', dom, re.S)
    if not match:
        print(f"{mode}: FAIL no e2e result in the page (did the page or its script load? see {dom_file})")
        print("0 passed, 1 failed")
        return 1
    images = json.loads(html.unescape(match.group(1)))
    passed, failed = 0, 0
    for image in images:
        path = urllib.parse.urlsplit(image["src"]).path
        problems = []
        if image["naturalWidth"] <= 0:
            problems.append("did not render (naturalWidth 0)")
        content_type = image["contentType"].split(";")[0].strip().lower()
        if content_type not in SHOWABLE:
            problems.append(f"arrived as '{content_type or 'unknown'}', not a type a WebView without WebP shows")
        if path.endswith(".jpg") and image["bytes"] > 0:
            try:
                original = original_size(origin, path)
                if original and image["bytes"] >= original:
                    problems.append(f"{image['bytes']} bytes, not fewer than the original's {original}: not transcoded")
            except OSError as error:
                problems.append(f"cannot ask the origin for the original's size: {error}")
        if problems:
            failed += 1
            print(f"{mode}: FAIL {path}: " + "; ".join(problems))
        else:
            passed += 1
    if not images:
        failed += 1
        print(f"{mode}: FAIL the page has no <img>")
    print(f"{mode}: {len(images)} images checked in the page")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
