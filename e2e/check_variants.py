#!/usr/bin/env python3
"""Checks the modern path: a browser that shows WebP through `proxy --rewrite-html`.

Usage: python3 -m e2e.check_variants RESULT MODE --origin URL --proxy URL --rules FILE --bin WEBP_BRIDGE
                                     --demo-report JSON --metrics BEFORE AFTER

RESULT is the JSON webkit_page.py saved (the page's own verdict, see
check_page.py). The proxy ran with the `accept` client policy and the same
qiniu-legacy rule as the demo's bridge (RULES), in front of the demo's
origin. Checks:

  - every <img> rendered (naturalWidth > 0);
  - every image URL in the page (currentSrc) is its variant: the path and
    query that `webp-bridge rewrite --config RULES` gives for the URL the
    origin's own page names (the original page, fetched from the origin);
    images no rule rewrites (the GIF) keep their URL; every one points at
    the proxy or the origin;
  - each variant arrived as image/webp (read from its first bytes in a
    replay with the browser's User-Agent and image Accept, which must be
    the size the browser received: WebKit has no Resource Timing
    contentType);
  - the proxy transcoded nothing and fell back for nothing during the run
    (its /__bridge/metrics before and after: outcomes `transcoded` and
    `fallback` unchanged), and when the variants came through it, the
    image bytes it received from the origin (`upstream_bytes`,
    path="image") are exactly the variant bytes the browser received:
    passed on untouched. (Its `client_bytes` path="image" is not used: it
    also counts the proxy's own /__bridge/metrics answers.)
  - the wire bytes equal the demo's figure for WebP clients: per image,
    the bytes the browser received (Resource Timing's encodedBodySize; the
    proxy passes the variant through, so they are the bytes on the wire
    from the origin) equal the `wireBytes` the demo's report gives for the
    same original (what its bridge received from the origin: the WebP
    variant, or the GIF itself), and so do the sums.

Prints one line per problem, a summary (images, types seen, bytes) and
'N passed, N failed'; exits non-zero on any failure.
"""
import argparse
import html.parser
import subprocess
import sys
import urllib.parse

from scripts.bridgekit import get

from . import verdict

# What WebKitGTK 2.50 (like Safari) sends for a page: no image/webp.
PAGE_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
# What WebKitGTK 2.50 sends for <img>.
WEBKIT_IMAGE_ACCEPT = "image/webp,image/avif,video/*;q=0.8,image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5"


class ImageSources(html.parser.HTMLParser):
    """Every <img src> of a page, in document order (as document.images lists them)."""

    def __init__(self):
        super().__init__()
        self.sources = []

    def handle_starttag(self, tag, attrs):
        if tag == "img":
            self.sources.append(dict(attrs).get("src") or "")


def original_sources(origin, user_agent):
    """The image URLs of the origin's own front page, absolute."""
    status, _, body = get(urllib.parse.urljoin(origin, "/"), {"User-Agent": user_agent, "Accept": PAGE_ACCEPT})
    if status != 200:
        raise OSError(f"the origin's page answered {status}")
    parser = ImageSources()
    parser.feed(body.decode("utf-8", errors="replace"))
    return [urllib.parse.urljoin(origin, source) for source in parser.sources]


def variants(binary, rules, urls):
    """What `webp-bridge rewrite --config RULES` makes of each URL (the URL itself when unchanged)."""
    output = subprocess.run([binary, "rewrite", "--config", rules, *urls], capture_output=True, text=True,
                            timeout=60, check=True).stdout
    results = [line.split("\t")[0] for line in output.splitlines() if line.strip()]
    if len(results) != len(urls):
        raise OSError(f"webp-bridge rewrite printed {len(results)} lines for {len(urls)} URLs")
    return results


def authority(url):
    parts = urllib.parse.urlsplit(url)
    return f"{parts.hostname}:{parts.port}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("result")
    parser.add_argument("mode")
    for option in ("--origin", "--proxy", "--rules", "--bin", "--demo-report"):
        parser.add_argument(option, required=True)
    parser.add_argument("--metrics", nargs=2, metavar=("BEFORE", "AFTER"), required=True)
    args = parser.parse_args()
    mode = args.mode

    images, user_agent = verdict.read_verdict(args.result)
    if images is None:
        return verdict.fail_early(mode, f"no e2e result in {args.result}")
    figures = verdict.read_demo_figures(args.demo_report, "webp")
    try:
        originals = original_sources(args.origin, user_agent)
        expected = variants(args.bin, args.rules, originals)
    except (OSError, subprocess.SubprocessError) as error:
        return verdict.fail_early(mode, f"cannot work out the expected variants: {error}")

    passed, failed = 0, 0
    types, served_by = [], set()
    not_variants = 0
    browser_bytes, demo_wire, variant_bytes = 0, 0, 0
    if len(images) != len(originals):
        failed += 1
        print(f"{mode}: FAIL the page has {len(images)} images, the origin's page {len(originals)}")
    allowed = {authority(args.proxy), authority(args.origin)}
    for image, original, variant in zip(images, originals, expected):
        path, original_path = verdict.site_path(image["src"]), verdict.site_path(original)
        rewritten = variant != original
        problems = []
        if image["naturalWidth"] <= 0:
            problems.append("did not render (naturalWidth 0)")
        if path != verdict.site_path(variant):
            not_variants += rewritten
            problems.append(f"the page asks for '{path}', not the variant '{verdict.site_path(variant)}'")
        served_by.add(authority(image["src"]))
        if authority(image["src"]) not in allowed:
            problems.append(f"loaded from {authority(image['src'])}, neither the proxy nor the origin")
        try:
            status, _, body = get(image["src"], {"User-Agent": user_agent, "Accept": WEBKIT_IMAGE_ACCEPT})
            content_type = verdict.media_type(body)
            if status != 200:
                problems.append(f"the replay answered {status}")
            elif len(body) != image["bytes"]:
                problems.append(f"the replay got {len(body)} bytes, the browser {image['bytes']}")
        except OSError as error:
            content_type = "unknown"
            problems.append(f"the replay failed: {error}")
        types.append(content_type)
        if rewritten and content_type != "image/webp":
            problems.append(f"the variant arrived as '{content_type}', not image/webp")
        figure = figures.get(original_path)
        if figure is None:
            problems.append(f"'{original_path}' is not in the demo's report")
        elif image["bytes"] != figure["wireBytes"]:
            problems.append(f"{image['bytes']} bytes to the browser, the demo's wire figure is {figure['wireBytes']}")
        browser_bytes += image["bytes"]
        demo_wire += figure["wireBytes"] if figure else 0
        variant_bytes += image["bytes"] if rewritten else 0
        if problems:
            failed += 1
            print(f"{mode}: FAIL {original_path}: " + "; ".join(problems))
        else:
            passed += 1
    if not images:
        failed += 1
        print(f"{mode}: FAIL the page has no <img>")
    if not_variants and not_variants == sum(variant != original for original, variant in zip(originals, expected)):
        print(f"{mode}: no image URL in the page was rewritten. Note that WebKit asks for pages with"
              f" 'Accept: {PAGE_ACCEPT}', which does not list image/webp: an HTML rewrite that decides on"
              " the page request's Accept never rewrites for WebKit (or Safari)")
    if browser_bytes != demo_wire:
        failed += 1
        print(f"{mode}: FAIL the browser received {browser_bytes:,} image bytes, the demo's wire figure"
              f" for WebP clients is {demo_wire:,}")

    delta = verdict.bridge_delta(*args.metrics)
    outcome = verdict.proxy_outcomes(*args.metrics)

    upstream = int(delta.get("upstream_bytes_total:image", 0))
    print(f"{mode}: the proxy answered this run: {outcome('webp')} as WebP, {outcome('transcoded')} transcoded,"
          f" {outcome('fallback')} fallbacks, {outcome('passthrough')} passed through; it received"
          f" {upstream:,} image bytes from the origin, the browser {variant_bytes:,} for the variants")
    print(f"{mode}: images loaded from {', '.join(sorted(served_by))} (proxy {authority(args.proxy)})")
    problems = []
    if outcome("transcoded"):
        problems.append(f"the proxy transcoded {outcome('transcoded')} images")
    if outcome("fallback"):
        problems.append(f"the proxy fell back to {outcome('fallback')} originals")
    if authority(args.proxy) in served_by and upstream != variant_bytes:
        problems.append(f"the proxy received {upstream:,} bytes for variants, the browser {variant_bytes:,}")
    for problem in problems:
        failed += 1
        print(f"{mode}: FAIL {problem}")

    print(verdict.summary(mode, len(images), types, browser_bytes, demo_wire,
                          "the demo's wire figure for these images; equal to what the browser received"
                          if browser_bytes == demo_wire else "NOT what the browser received"))
    return verdict.counts(passed, failed)


if __name__ == "__main__":
    sys.exit(main())
