"""What the e2e checkers share: reading the page's verdict, the demo's
figures and the bridge's metrics (as run.sh saved them), an image's type
from its bytes, and the one summary line each mode prints. Sniffing and
metrics parsing are scripts/bridgekit.py's."""
import collections
import html
import json
import re
import urllib.parse

from scripts.bridgekit import metrics_delta, read_metrics, sniff


def read_verdict(path):
    """The page's verdict: (images, userAgent or None).

    PATH is either a DOM dump (`chromium --dump-dom`), holding the verdict in
    <pre id="e2e-result">, or the JSON that webkit_page.py wrote. Returns
    (None, None) when the page holds no verdict.
    """
    text = open(path, encoding="utf-8", errors="replace").read()
    if path.endswith(".json"):
        saved = json.loads(text)
        return saved["images"], saved.get("userAgent")
    match = re.search(r'<pre id="e2e-result">(.*?)</pre>', text, re.S)
    if not match:
        return None, None
    return json.loads(html.unescape(match.group(1))), None


def read_demo_figures(path, client):
    """One client's per-image figures in the demo's report (demo-report.json),
    by site path: `legacy-webview` (the WebP variants, transcoded for it),
    `webp` or `avif` (what crossed the network for each)."""
    with open(path, encoding="utf-8") as file:
        figures = json.load(file)
    for entry in figures["clients"]:
        if entry["name"] == client:
            return {image["path"]: image for image in entry["images"]}
    raise KeyError(f"the demo's report has no client '{client}'")


def bridge_delta(before_path, after_path):
    """What the bridge's counters gained between two scrapes of /__bridge/metrics saved to files,
    by short name (`requests_total:webp`, `upstream_bytes_total:image`: see bridgekit.parse_metrics)."""
    prefix = "webpbridge_proxy_"
    return metrics_delta(read_metrics(before_path, prefix), read_metrics(after_path, prefix))


def proxy_outcomes(before_path, after_path):
    """How many image requests the bridge answered each way between two scrapes:
    a function from an outcome (`webp`, `avif`, `transcoded`, `fallback`, ...) to its count."""
    delta = bridge_delta(before_path, after_path)
    return lambda name: int(delta.get(f"requests_total:{name}", 0))


def media_type(body):
    """The media type an image body's first bytes say (image/apng for an APNG), or 'unknown'."""
    kind = sniff(body)
    return kind.media_type if kind else "unknown"


def site_path(url):
    """A URL's path and query, as the page names the image on its site."""
    parts = urllib.parse.urlsplit(url)
    return parts.path + ("?" + parts.query if parts.query else "")


def summary(mode, images, types, browser_bytes, wire_bytes, wire_note):
    """The line every mode prints: images, types seen, bytes."""
    counted = collections.Counter(types)
    seen = ", ".join(f"{kind} x{count}" for kind, count in sorted(counted.items()))
    return (f"{mode}: {images} images; types: {seen or 'none'}; to the browser: {browser_bytes:,} bytes;"
            f" wire: {wire_bytes:,} bytes ({wire_note})")


def counts(passed, failed):
    """The line every check ends with, and the check's exit status."""
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def fail_early(mode, reason):
    """A check that cannot go on: one failure, said and counted."""
    print(f"{mode}: FAIL {reason}")
    return counts(0, 1)
