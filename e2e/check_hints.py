"""The client-hints mode's browser check: every photo Chromium showed
through `proxy --rewrite-html --client-hints` is as wide as the hints
Chromium itself sent for it ask, read from Chromium's own net log
(`--log-net-log`): Sec-CH-Width when sent, else Sec-CH-Viewport-Width times
Sec-CH-DPR (rounded up to a half, at least 1), rounded up to the width
buckets of the hint table (Tests/WebPBridgeTests/Fields/Resources/hint-buckets.json),
never wider than the rule's width; no bucket (past 2,560) leaves the rule's
width. Every photo must have gone with a hint, and arrived as WebP.

    python3 -m e2e.check_hints DOM NETLOG RULE_WIDTH
"""
import json
import math
import os
import sys
import urllib.parse

from e2e import verdict

# The origin's width buckets, from the one table ClientHints is tested with (as deploy/nginx/hint_maps.py reads them).
TABLE = os.path.join(os.path.dirname(__file__), "..", "Tests", "WebPBridgeTests", "Fields", "Resources", "hint-buckets.json")
with open(TABLE, encoding="utf-8") as table:
    BUCKETS = json.load(table)["buckets"]
HINTS = {"sec-ch-width", "sec-ch-viewport-width", "sec-ch-dpr"}


def sent_hints(netlog_path):
    """The hint fields of the last request Chromium sent for each URL: {url: {name: value}}."""
    with open(netlog_path, encoding="utf-8") as file:
        log = json.load(file)
    names = {number: name for name, number in log["constants"]["logEventTypes"].items()}
    urls, sent = {}, {}
    for event in log["events"]:
        kind, params = names.get(event["type"]), event.get("params", {})
        source = event["source"]["id"]
        if kind == "URL_REQUEST_START_JOB" and "url" in params:
            urls[source] = params["url"]
        elif kind == "HTTP_TRANSACTION_SEND_REQUEST_HEADERS" and source in urls:
            pairs = (line.partition(": ") for line in params.get("headers", []))
            sent[urls[source]] = {name.lower(): value for name, _, value in pairs if name.lower() in HINTS}
    return sent


def expected_width(hints, rule_width):
    """The width the hints ask for, as the origin reads them, capped by the rule's; None without a hint."""
    if "sec-ch-width" in hints:
        target = int(hints["sec-ch-width"])
    elif "sec-ch-viewport-width" in hints:
        dpr = max(1.0, math.ceil(float(hints.get("sec-ch-dpr", "1")) * 2) / 2)
        target = math.ceil(int(hints["sec-ch-viewport-width"]) * dpr)
    else:
        return None
    bucket = next((b for b in BUCKETS if b >= target), None)
    return rule_width if bucket is None else min(bucket, rule_width)


def main():
    dom, netlog, rule_width = sys.argv[1], sys.argv[2], int(sys.argv[3])
    images, _ = verdict.read_verdict(dom)
    sent = sent_hints(netlog)
    photos = [image for image in images or [] if "/images/article-" in image["src"]]
    failures, seen = [], {}
    for image in photos:
        path = urllib.parse.urlsplit(image["src"]).path
        hints = sent.get(image["src"])
        if hints is None:
            failures.append(f"{path}: not in Chromium's net log")
            continue
        expected = expected_width(hints, rule_width)
        decided = "Sec-CH-Width" if "sec-ch-width" in hints else "Sec-CH-Viewport-Width × DPR"
        seen.setdefault((expected, decided), []).append(
            int(hints.get("sec-ch-width") or hints.get("sec-ch-viewport-width") or 0))
        if expected is None:
            failures.append(f"{path}: sent no width hint ({hints})")
        elif image["naturalWidth"] != expected or not image["contentType"].startswith("image/webp"):
            failures.append(f"{path}: {image['naturalWidth']} px {image['contentType']}, the hints ask {expected} ({hints})")
    if len(photos) != 48:
        failures.append(f"{len(photos)} photos in the verdict, not 48")
    summary = ", ".join(
        f"{len(values)} at {width} px by {decided} ({min(values)}-{max(values)})"
        for (width, decided), values in sorted(seen.items(), key=lambda item: (item[0][0] or 0, item[0][1])))
    print(f"e2e: client-hints: chromium's hints per photo: {summary or 'none'}")
    for failure in failures[:10]:
        print(f"e2e: client-hints: FAIL {failure}")
    print(f"e2e: client-hints: {len(photos) - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
