"""What the e2e checkers share: reading the page's verdict, the demo's
figures and a bridge's metrics, telling an image's type from its bytes, and
the one summary line each mode prints."""
import collections
import html
import json
import re
import urllib.parse
import urllib.request


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


def read_metrics(path):
    """A Prometheus text file as {'name{labels}': value} (label text as written)."""
    values = {}
    with open(path, encoding="utf-8") as file:
        for line in file:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            name, _, value = line.rpartition(" ")
            try:
                values[name] = float(value)
            except ValueError:
                pass
    return values


def metrics_delta(before_path, after_path):
    """What each counter gained between two scrapes."""
    before, after = read_metrics(before_path), read_metrics(after_path)
    return {name: value - before.get(name, 0.0) for name, value in after.items()}


def proxy_outcomes(before_path, after_path):
    """How many image requests the bridge answered each way between two scrapes:
    a function from an outcome (`webp`, `avif`, `transcoded`, `fallback`, ...) to its count."""
    delta = metrics_delta(before_path, after_path)
    return lambda name: int(delta.get(f'webpbridge_proxy_requests_total{{outcome="{name}"}}', 0))


def sniff(body):
    """The media type that an image body's first bytes say, or 'unknown'."""
    if body.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if body.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/apng" if b"acTL" in body[:4096] else "image/png"
    if body[:6] in (b"GIF87a", b"GIF89a"):
        return "image/gif"
    if body[:4] == b"RIFF" and body[8:12] == b"WEBP":
        return "image/webp"
    if body[4:8] == b"ftyp" and len(body) >= 16:
        size = int.from_bytes(body[:4], "big")
        brands = [body[8:12]] + [body[offset:offset + 4] for offset in range(16, min(size, 64), 4)]
        if b"avif" in brands or b"avis" in brands:
            return "image/avif"
    return "unknown"


def fetch(url, headers, timeout=30):
    """GET url: (status, Content-Type, body)."""
    request = urllib.request.Request(url, headers=headers)
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return response.status, response.headers.get("Content-Type", ""), response.read()


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
