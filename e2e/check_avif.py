#!/usr/bin/env python3
"""Checks the AVIF path: Chromium, which names image/avif, through a bridge whose rule offers AVIF.

Usage: python3 -m e2e.check_avif RESULT MODE --demo-report JSON --metrics BEFORE AFTER

RESULT is the DOM chromium --dump-dom printed (the page's own verdict, see
check_page.py). The bridge ran `proxy --preset qiniu --formats avif,webp`
with the default `accept` policy in front of the demo's origin, the same
rule as the bridges the demo measured its AVIF client through. Checks:

  - every <img> rendered (naturalWidth > 0);
  - every photo (.jpg) arrived as image/avif (Resource Timing's
    contentType); the logos and the GIF as whatever the bridge chose, but
    never a type Chromium cannot show;
  - per image, the bytes Chromium received (encodedBodySize) equal the
    wire bytes of the demo's AVIF client for the same image, and so do the
    sums: Chromium got exactly the variants the demo measured;
  - the bridge answered AVIF for every photo during the run and transcoded
    nothing (its /__bridge/metrics before and after).

Prints one line per problem, a summary and 'N passed, N failed'; exits
non-zero on any failure.
"""
import argparse
import sys

from . import verdict

SHOWABLE = {"image/avif", "image/webp", "image/jpeg", "image/png", "image/apng", "image/gif"}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("result")
    parser.add_argument("mode")
    parser.add_argument("--demo-report", required=True)
    parser.add_argument("--metrics", nargs=2, required=True)
    args = parser.parse_args()
    mode = args.mode

    images, _ = verdict.read_verdict(args.result)
    if images is None:
        return verdict.fail_early(mode, f"no e2e result in {args.result}")
    figures = verdict.read_demo_figures(args.demo_report, "avif")
    passed, failed = 0, 0
    types, browser_bytes, demo_wire, photos = [], 0, 0, 0
    for image in images:
        path = verdict.site_path(image["src"])
        problems = []
        if image["naturalWidth"] <= 0:
            problems.append("did not render (naturalWidth 0)")
        content_type = image["contentType"].split(";")[0].strip().lower()
        types.append(content_type or "unknown")
        if path.endswith(".jpg"):
            photos += 1
            if content_type != "image/avif":
                problems.append(f"a photo arrived as '{content_type or 'no contentType'}', not image/avif")
        elif content_type not in SHOWABLE:
            problems.append(f"arrived as '{content_type}', not a type Chromium shows")
        figure = figures.get(path)
        if figure is None:
            problems.append("not in the demo's report")
        elif image["bytes"] != figure["wireBytes"]:
            problems.append(f"{image['bytes']} bytes to the browser, the demo's AVIF wire figure is"
                            f" {figure['wireBytes']}")
        browser_bytes += image["bytes"]
        demo_wire += figure["wireBytes"] if figure else 0
        if problems:
            failed += 1
            print(f"{mode}: FAIL {path}: " + "; ".join(problems))
        else:
            passed += 1
    if not images:
        failed += 1
        print(f"{mode}: FAIL the page has no <img>")
    if browser_bytes != demo_wire:
        failed += 1
        print(f"{mode}: FAIL the browser received {browser_bytes:,} image bytes, the demo's AVIF client's"
              f" wire figure is {demo_wire:,}")

    outcome = verdict.proxy_outcomes(*args.metrics)

    print(f"{mode}: the bridge answered this run: {outcome('avif')} as AVIF, {outcome('webp')} as WebP,"
          f" {outcome('transcoded')} transcoded, {outcome('fallback')} fallbacks,"
          f" {outcome('passthrough')} passed through")
    if outcome("avif") < photos:
        failed += 1
        print(f"{mode}: FAIL the bridge answered {outcome('avif')} requests as AVIF, the page has {photos} photos")
    if outcome("transcoded"):
        failed += 1
        print(f"{mode}: FAIL the bridge transcoded {outcome('transcoded')} images for a browser that shows AVIF")
    print(verdict.summary(mode, len(images), types, browser_bytes, demo_wire,
                          "the demo's AVIF client's wire figure; equal to what the browser received"
                          if browser_bytes == demo_wire else "NOT what the browser received"))
    return verdict.counts(passed, failed)


if __name__ == "__main__":
    sys.exit(main())
