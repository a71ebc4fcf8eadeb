#!/usr/bin/env python3
"""System calls per request of the cache-hit paths, ours and nginx's, under
the same load as `make bench-http`: a figure that, like callgrind's
instruction counts, does not move with the machine's load, and that says
what the kernel is asked to do — two thirds of a hit's CPU is the kernel's.

    python3 -m bench.syscalls_http <webp-bridge> <corpus> [SECONDS]

Sets up what bench_http.py sets up (the origin with a Kodak photo as JPEG
q90 and its cached WebP variant, the bridge in front of it, nginx serving
the very same bytes from disk), then for each case runs `wrk` for SECONDS
(3 by default) against our server and then against nginx while `perf trace
-s` counts the system calls of the server's processes, and prints the
calls per request, in all and by name. Needs `perf` with tracepoint access
(root, or kernel.perf_event_paranoid <= -1). perf trace slows every call a
little, so the requests/s seen here are not the benchmark's; the counts are.
"""
import collections
import os
import re
import subprocess
import sys

from .bench_http import (CONNECTIONS, WEBP_CLIENT, hit_photo, parse_wrk, start_hit_servers, stop_all,
                         work_folder, wrk_command)

SECONDS = int(sys.argv[3]) if len(sys.argv) > 3 else 3


def traced(pids, url, work, label, headers=None):
    """(requests wrk counted, Counter of system calls by name) over one wrk run.
    perf runs wrk itself, so it counts from before the first request to the
    last: no wait for it to attach."""
    summary = os.path.join(work, f"{label}.trace")
    command = ["perf", "trace", "-s", "-o", summary, "-p", ",".join(map(str, pids)), "--"]
    run = subprocess.run(command + wrk_command(url, headers, duration=SECONDS), capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"perf trace or wrk failed: {run.stderr.strip()}")
    result = parse_wrk(run.stdout)
    calls = collections.Counter()
    with open(summary) as f:
        for line in f:
            # Per thread: "   recvfrom   51754   0   123.456 ..." (name, calls, errors, total ms, ...).
            match = re.match(r"\s+([a-z_0-9]+)\s+(\d+)\s+\d+\s+[\d.]+\s", line)
            if match and match.group(1) != "syscall":
                calls[match.group(1)] += int(match.group(2))
    if result.errors:
        sys.exit(f"{label}: {result.errors} failed requests")
    return result.requests, calls


def report(label, requests, calls):
    total = sum(calls.values()) / max(requests, 1)
    named = ", ".join(f"{name} {count / requests:.2f}" for name, count in calls.most_common(8)
                      if count / requests >= 0.01)
    print(f"  {label:<8}{requests:>9}{total:>10.2f}   {named}")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    binary, corpus = sys.argv[1:3]
    photo = hit_photo(corpus)
    if subprocess.run(["perf", "--version"], capture_output=True).returncode != 0:
        sys.exit("syscalls_http.py needs perf (Debian: linux-perf)")
    work = work_folder("syscalls-http-")
    processes = []
    try:
        setup = start_hit_servers(binary, photo, work, processes)
        origin_url, bridge_url, nginx_url = setup.origin_url, setup.bridge_url, setup.nginx_url
        cases = [
            ("origin cached WebP variant", [setup.origin.pid], origin_url + setup.variant_path, None,
             "/variant.webp"),
            ("origin plain file", [setup.origin.pid], origin_url + "/photo.jpg", None, "/photo.jpg"),
            ("bridge cache hit", [setup.bridge.pid], bridge_url + "/photo.jpg", WEBP_CLIENT, "/bridge-hit.webp"),
        ]
        print(f"perf trace -s, wrk -t2 -c{CONNECTIONS} -d{SECONDS}s per server and case; system calls per request")
        for index, (name, pids, url, headers, nginx_path) in enumerate(cases):
            print(f"{name}\n  {'server':<8}{'requests':>9}{'calls/req':>10}   by name")
            report("ours", *traced(pids, url, work, f"ours-{index}", headers))
            report("nginx", *traced(setup.nginx_pids, nginx_url + nginx_path, work, f"nginx-{index}"))
    finally:
        stop_all(processes, work)


if __name__ == "__main__":
    main()
