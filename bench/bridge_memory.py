#!/usr/bin/env python3
"""Driver for `make bench-bridge-memory`: the bridge's resident memory over a
bounded wrk run on the transcode path, on loopback only.

The origin serves BRIDGE_MEMORY_PHOTOS Kodak photos (JPEG q90, 8 by
default); the bridge stands in front of it (qiniu preset, width 750). Every
request comes from an iOS 13 WebView (no image/webp in Accept), cycling
through the photos, so each answer is a cache hit in the pipeline's data
cache followed by a fresh WebP -> JPEG transcode.

1. One request per photo fills the cache (and checks each answer is a JPEG).
2. Warm-up: wrk for BRIDGE_MEMORY_WARMUP seconds (15), so allocator arenas,
   connection buffers and the transcode queue reach their working size.
   The bridge finishes the transcodes wrk left in flight (it does not
   cancel them when their client goes away) before the run starts.
3. The run: wrk -d BRIDGE_MEMORY_SECONDS (60) with BRIDGE_MEMORY_CONNECTIONS
   (8: the bridge runs one transcode per core and queues max(8, 4 per core)
   more, so 8 connections never see a 503 on 2 cores), sampling the bridge's
   VmRSS from /proc every BRIDGE_MEMORY_INTERVAL seconds (5).

Fails (exit 1) unless wrk reports no errors (non-2xx/3xx responses, socket
errors), the bridge's metrics count every answer as transcoded (none
overloaded, failed or fallen back), and every sample stays within
BRIDGE_MEMORY_MAX_GROWTH percent (10) of the first sample after warm-up.
"""
import os
import subprocess
import sys
import tempfile
import threading
import time

from scripts.bridgekit import bridge_metrics, fetch, metrics_delta, process_status

from .bench_http import NON_WEBP_CLIENT, parse_wrk, start_bridge, start_origin, stop_all, wait_transcodes_idle

SECONDS = int(os.environ.get("BRIDGE_MEMORY_SECONDS", "60"))
WARMUP = int(os.environ.get("BRIDGE_MEMORY_WARMUP", "15"))
INTERVAL = float(os.environ.get("BRIDGE_MEMORY_INTERVAL", "5"))
PHOTOS = int(os.environ.get("BRIDGE_MEMORY_PHOTOS", "8"))
CONNECTIONS = int(os.environ.get("BRIDGE_MEMORY_CONNECTIONS", "8"))
MAX_GROWTH = float(os.environ.get("BRIDGE_MEMORY_MAX_GROWTH", "10"))


def resident_kib(pid, field="VmRSS"):
    return process_status(pid)[field]


def wrk_script(path, photos):
    """A wrk script that cycles through the photos with the non-WebP client's headers."""
    lines = ["local paths = {" + ", ".join(f'"/{name}"' for name in photos) + "}", "local next = 0"]
    for name, value in NON_WEBP_CLIENT.items():
        lines.append(f'wrk.headers["{name}"] = "{value}"')
    lines += [
        "request = function()",
        "  next = next % #paths + 1",
        '  return wrk.format("GET", paths[next])',
        "end",
    ]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def run_wrk(url, script, seconds):
    return subprocess.Popen(
        ["wrk", "-t2", f"-c{CONNECTIONS}", f"-d{seconds}s", "--latency", "--timeout", "10s", "-s", script, url],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finish(process):
    out, err = process.communicate()
    if process.returncode != 0:
        sys.exit(f"wrk failed: {err.strip()}")
    return out, parse_wrk(out)


def main():
    binary, corpus = sys.argv[1:3]
    kodak = os.path.join(corpus, "kodak")
    sources = sorted(name for name in os.listdir(kodak) if name.endswith(".png"))[:PHOTOS] if os.path.isdir(kodak) else []
    if len(sources) < min(PHOTOS, 2):
        sys.exit(f"bench-bridge-memory needs at least 2 Kodak photos in {kodak}")
    work = tempfile.mkdtemp(prefix="bench-bridge-memory-")
    processes = []
    try:
        root = os.path.join(work, "root")
        os.makedirs(root)
        photos = []
        for name in sources:
            photo = name[:-4] + ".jpg"
            subprocess.run([binary, "convert", os.path.join(kodak, name), os.path.join(root, photo),
                            "--quality", "90"], check=True, stdout=subprocess.DEVNULL)
            photos.append(photo)
        origin, origin_url = start_origin(binary, root)
        processes.append(origin)
        # Every request transcoded afresh: the transcode path is what is watched for growth.
        bridge, bridge_url = start_bridge(binary, origin_url, ["--no-transcode-cache"])
        processes.append(bridge)
        sizes = []
        for photo in photos:
            body, content_type = fetch(f"{bridge_url}/{photo}", NON_WEBP_CLIENT)
            if content_type != "image/jpeg":
                sys.exit(f"/{photo}: the bridge answered {content_type!r}, not a transcoded image/jpeg")
            sizes.append(len(body))
        script = os.path.join(work, "photos.lua")
        wrk_script(script, photos)
        print(f"bridge pid {bridge.pid} in front of the origin; {len(photos)} photos as JPEG q90, "
              f"transcoded answers of {min(sizes)}-{max(sizes)} bytes; non-WebP client "
              f"(Accept: {NON_WEBP_CLIENT['Accept']}); wrk -t2 -c{CONNECTIONS}")
        print(f"after filling the cache: VmRSS {resident_kib(bridge.pid) / 1024:.1f} MiB")

        _, warm = finish(run_wrk(bridge_url, script, WARMUP))
        print(f"warm-up {WARMUP}s: {warm.requests} requests, {warm.rps:.1f}/s, errors {warm.errors}; "
              f"VmRSS {resident_kib(bridge.pid) / 1024:.1f} MiB")

        wait_transcodes_idle(bridge_url)  # what the warm-up's wrk left in flight
        before = bridge_metrics(bridge_url)
        samples = []  # (seconds since start, KiB)
        start = time.monotonic()
        process = run_wrk(bridge_url, script, SECONDS)
        samples.append((0.0, resident_kib(bridge.pid)))
        done = threading.Event()
        threading.Thread(target=lambda: (process.wait(), done.set()), daemon=True).start()
        while not done.wait(timeout=max(0.0, start + len(samples) * INTERVAL - time.monotonic())):
            samples.append((time.monotonic() - start, resident_kib(bridge.pid)))
        out, result = finish(process)
        samples.append((time.monotonic() - start, resident_kib(bridge.pid)))
        wait_transcodes_idle(bridge_url)  # so the requests wrk left in flight are counted
        served = metrics_delta(before, bridge_metrics(bridge_url))
        peak = resident_kib(bridge.pid, "VmHWM")

        baseline = samples[0][1]
        print(f"\n{'t s':>6}{'VmRSS MiB':>11}{'vs first':>10}")
        for seconds, kib in samples:
            print(f"{seconds:>6.1f}{kib / 1024:>11.1f}{(kib - baseline) * 100 / baseline:>+9.1f}%")
        low, high = min(kib for _, kib in samples), max(kib for _, kib in samples)
        spread = max(high - baseline, baseline - low) * 100 / baseline
        print(f"\nwrk {SECONDS}s: {result.requests} requests, {result.rps:.1f} images/s, p50 {result.p50:.1f} ms, "
              f"p99 {result.p99:.1f} ms, errors {result.errors} (non-2xx/3xx + socket)")
        # When wrk stops (warm-up and run) it closes connections with requests in
        # flight; the bridge cancels their work and counts them 'cancelled'. At
        # most one per connection per stop is expected, not a failure.
        abandoned = served.get("requests_total:cancelled", 0)
        others = {key: value for key, value in served.items()
                  if key.startswith("requests_total:") and value
                  and key not in ("requests_total:transcoded", "requests_total:local", "requests_total:cancelled")}
        if abandoned > 2 * CONNECTIONS:
            others["requests_total:cancelled"] = abandoned
        print(f"bridge metrics: {served.get('requests_total:transcoded', 0):.0f} transcoded, "
              f"{served.get('transcode_seconds_count', 0):.0f} transcodes run, "
              f"{served.get('image_source_total:disk', 0):.0f} data-cache hits, "
              f"{served.get('image_source_total:network', 0):.0f} upstream fetches, "
              f"{abandoned:.0f} cancelled (left in flight when wrk stopped), other outcomes {others or 'none'}")
        print(f"VmRSS {low / 1024:.1f}-{high / 1024:.1f} MiB over the run, at most {spread:.1f}% from the first "
              f"sample after warm-up (limit {MAX_GROWTH:g}%); peak VmHWM {peak / 1024:.1f} MiB since start")

        failures = []
        if warm.errors:
            failures.append(f"wrk saw {warm.errors} errors during the warm-up")
        if result.errors:
            failures.append(f"wrk saw {result.errors} errors")
            print(out)
        if others:
            failures.append(f"answers other than transcoded: {others}")
        if spread > MAX_GROWTH:
            failures.append(f"resident memory moved {spread:.1f}% (limit {MAX_GROWTH:g}%)")
        if failures:
            print("FAIL: " + "; ".join(failures))
            sys.exit(1)
        print("PASS: no errors, resident memory flat")
    finally:
        stop_all(processes, work)


if __name__ == "__main__":
    main()
