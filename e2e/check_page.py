#!/usr/bin/env python3
"""Checks the legacy path: a WebView without WebP through the qiniu-legacy bridge.

Usage: python3 -m e2e.check_page RESULT ORIGIN_URL MODE [--demo-report JSON]
                                 [--metrics BEFORE AFTER] [--webkit]

RESULT is the page's own verdict (see verdict.read_verdict): a Chromium DOM
dump or the JSON webkit_page.py saved. The page's script (static/site.js)
waited until every <img> had loaded or failed and recorded, per image, its
URL, naturalWidth, Resource Timing's contentType and encodedBodySize. This
script checks that:

  - the verdict is there (the page and its script loaded at all);
  - every <img> decoded (naturalWidth > 0);
  - every image arrived with a type a WebView without WebP can show
    (image/jpeg, image/png, image/apng, image/gif), never image/webp.
    WebKit does not expose Resource Timing's contentType, so for it the
    image is fetched again through the bridge with the browser's own
    User-Agent and image Accept, its type read from its first bytes, and
    the replay must be byte-for-byte the size the browser received;
  - each JPEG photo cost fewer bytes than the original the origin serves
    (so it was transcoded from the smaller variant, not passed through).

With --metrics (the bridge's /__bridge/metrics scraped before and after
the browser ran): the bridge answered no request of this run with WebP and
transcoded at least one image. With --webkit, the browser's User-Agent must
contain 'AppleWebKit' (what the legacy policy keys on) although its image
Accept lists image/webp: together with the above, the bridge treated it as
an old iOS WebView.

Prints one line per problem, a summary (images, types seen, bytes) and
'N passed, N failed'; exits non-zero on any failure.
"""
import argparse
import sys
import urllib.parse
import urllib.request

from scripts.bridgekit import get

from . import verdict

WEBVIEW_UA = ("Mozilla/5.0 (iPhone; CPU iPhone OS 13_7 like Mac OS X) AppleWebKit/605.1.15 "
              "(KHTML, like Gecko) Version/13.1.2 Mobile/15E148 Safari/604.1")
WEBVIEW_ACCEPT = "image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5"
# What WebKitGTK 2.50 sends for <img>: it decodes WebP and AVIF and says so.
WEBKIT_IMAGE_ACCEPT = "image/webp,image/avif,video/*;q=0.8,image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5"
SHOWABLE = {"image/jpeg", "image/png", "image/apng", "image/gif"}


def original_size(origin, path):
    """Content-Length of the original, as the origin serves it to a WebView."""
    request = urllib.request.Request(urllib.parse.urljoin(origin, path), method="HEAD",
                                     headers={"User-Agent": WEBVIEW_UA, "Accept": WEBVIEW_ACCEPT})
    with urllib.request.urlopen(request, timeout=30) as response:
        return int(response.headers.get("Content-Length", "0"))


def arrived_as(image, user_agent, problems):
    """The type the image arrived with: Resource Timing's, else a replay's (see the module's doc)."""
    content_type = image["contentType"].split(";")[0].strip().lower()
    if content_type:
        return content_type
    try:
        status, _, body = get(image["src"], {"User-Agent": user_agent, "Accept": WEBKIT_IMAGE_ACCEPT})
    except OSError as error:
        problems.append(f"no contentType in Resource Timing and the replay failed: {error}")
        return "unknown"
    if status != 200:
        problems.append(f"no contentType in Resource Timing and the replay answered {status}")
        return "unknown"
    if len(body) != image["bytes"]:
        problems.append(f"no contentType in Resource Timing; the replay got {len(body)} bytes, the browser"
                        f" {image['bytes']}: cannot tell what the browser received")
        return "unknown"
    return verdict.media_type(body)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("result")
    parser.add_argument("origin")
    parser.add_argument("mode")
    parser.add_argument("--demo-report")
    parser.add_argument("--metrics", nargs=2, metavar=("BEFORE", "AFTER"))
    parser.add_argument("--webkit", action="store_true")
    args = parser.parse_args()
    mode = args.mode

    images, user_agent = verdict.read_verdict(args.result)
    if images is None:
        return verdict.fail_early(
            mode, f"no e2e result in the page (did the page or its script load? see {args.result})")
    user_agent = user_agent or WEBVIEW_UA
    figures = verdict.read_demo_figures(args.demo_report, "legacy-webview") if args.demo_report else {}
    passed, failed = 0, 0
    types, wire = [], 0
    for image in images:
        path = verdict.site_path(image["src"])
        problems = []
        if image["naturalWidth"] <= 0:
            problems.append("did not render (naturalWidth 0)")
        content_type = arrived_as(image, user_agent, problems)
        types.append(content_type)
        if content_type not in SHOWABLE:
            problems.append(f"arrived as '{content_type}', not a type a WebView without WebP shows")
        if path.endswith(".jpg") and image["bytes"] > 0:
            try:
                original = original_size(args.origin, path)
                if original and image["bytes"] >= original:
                    problems.append(f"{image['bytes']} bytes, not fewer than the original's {original}: not transcoded")
            except OSError as error:
                problems.append(f"cannot ask the origin for the original's size: {error}")
        if figures:
            if path in figures:
                wire += figures[path]["wireBytes"]
            else:
                problems.append("not in the demo's report")
        if problems:
            failed += 1
            print(f"{mode}: FAIL {path}: " + "; ".join(problems))
        else:
            passed += 1
    if not images:
        failed += 1
        print(f"{mode}: FAIL the page has no <img>")

    fetched_note = ""
    if args.metrics:
        delta = verdict.bridge_delta(*args.metrics)
        outcome = verdict.proxy_outcomes(*args.metrics)
        served_webp, transcoded = outcome("webp"), outcome("transcoded")
        fetched = int(delta.get("upstream_bytes_total:image", 0))
        passed_through = int(delta.get("upstream_bytes_total:passthrough", 0))
        fetched_note = (f"; during this run the bridge fetched {fetched:,} image bytes (the rest from its cache)"
                        f" and passed {passed_through:,} through (page, CSS, JS, GIF)")
        print(f"{mode}: the bridge answered this run: {int(transcoded)} transcoded, {int(served_webp)} as WebP")
        for problem in ([f"the bridge served {int(served_webp)} images as WebP"] if served_webp else []) + (
                [] if transcoded > 0 else ["the bridge transcoded nothing for this browser"]):
            failed += 1
            print(f"{mode}: FAIL {problem}")
    if args.webkit:
        print(f"{mode}: User-Agent {user_agent}")
        if "AppleWebKit" not in user_agent:
            failed += 1
            print(f"{mode}: FAIL the User-Agent has no 'AppleWebKit': the legacy policy would pass it through")

    print(verdict.summary(mode, len(images), types, sum(image["bytes"] for image in images), wire,
                          "what the bridge received from the origin for them, per the demo's report" + fetched_note
                          if figures else "no demo report given"))
    return verdict.counts(passed, failed)


if __name__ == "__main__":
    sys.exit(main())
