#!/usr/bin/env python3
"""Driver for `make bench-http`: the image origin and the bridge proxy
against nginx serving the same bytes from disk, and the bridge's transcode
path against the codec-only limit, side by side in one run, on loopback only.

Every load is bounded: `wrk -t2 -c32 -d<DURATION>s` per case and round.
BENCH_CASES (origin,bridge,legacy,transcode,bare by default) picks the parts run.
Origin and nginx take turns, BENCH_ROUNDS times (3 by default), and the
medians are reported: on a machine shared with other work a single pass
can swing by 2x either way. Besides requests/s and p99 latency, each
server's CPU time per request (user + system, from /proc, over wrk's
request count) is reported: it depends far less on how the scheduler
shares the cores than throughput does. With a third argument (the
HTTPServerBenchmark binary), the bare server's 12-byte answer is measured
too, immediate and asynchronous.

The bridge (`webp-bridge proxy` in front of the origin, qiniu preset, width
750) is measured twice:
- cache hit: a client that accepts WebP asks for one photo over and over; the
  pipeline's data cache answers, and nginx serves exactly the bytes the bridge
  returned. Same wrk settings as the origin rows.
- legacy repeat: a WebKit client without image/webp in Accept asking for the
  same photo again; the bridge keeps its transcode and memoises the answer, so
  it is a hit; nginx serves exactly the JPEG the bridge returned.
- transcode: the same client, against a second bridge started with
  --no-transcode-cache, which decodes the cached WebP and encodes JPEG q90 on
  every request. Its reference is the
  codec-only limit: the same `Transcoder` call on the same bytes on one
  thread per core, as the bridge runs its transcodes (`codecs-benchmark
  --transcoder`, fourth argument), no HTTP. wrk uses
  BENCH_TRANSCODE_CONNECTIONS (2 per core + 4, so 8 on 2 cores): the bridge
  runs one transcode per core and queues at most max(8, 4 per core) more,
  so many more connections measure its 503s, not its throughput.
The bridge's own metrics, read before and after, confirm that the hits never
went upstream and that every transcode response was a fresh transcode.

Like with like: the origin and the bridge run as deployed, writing one log
line per request (batched, on a thread of their own), so nginx writes its
access log too, buffered as a production nginx would
(`access_log FILE combined buffer=64k flush=1s`,
https://nginx.org/en/docs/http/ngx_http_log_module.html#access_log), to a
file in the work folder. Turning our log off instead would measure a server
nobody runs.
"""
import collections
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from scripts.bridgekit import (bridge_metrics, cpu_seconds, fetch, free_port, group_pids, metrics_delta, start, stop,
                               wait_listening)

DURATION = int(os.environ.get("BENCH_SECONDS", "10"))
CONNECTIONS = int(os.environ.get("BENCH_CONNECTIONS", "32"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
# Which parts run: origin (cached variant, plain file), bridge (cache hit), legacy (a legacy
# client's repeat), transcode, bare.
PARTS = ("origin", "bridge", "legacy", "transcode", "bare")
CASES = [part.strip() for part in os.environ.get("BENCH_CASES", ",".join(PARTS)).split(",") if part.strip()]
# The bridge transcodes on one thread per core (ProcessInfo.activeProcessorCount, which on
# Linux follows the CPU affinity), so the codec-only limit uses as many threads.
CORES = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
# Enough to keep every core busy, and within the bridge's queue (cores running plus
# max(8, 4 per core) waiting), beyond which it answers 503.
TRANSCODE_CONNECTIONS = int(os.environ.get("BENCH_TRANSCODE_CONNECTIONS", str(2 * CORES + 4)))
# BENCH_NGINX_OPEN_FILE_CACHE=1: nginx keeps its files open between requests (open_file_cache),
# as a tuned production nginx would; by default it opens, stats and closes the file per request.
NGINX_OPEN_FILE_CACHE = os.environ.get("BENCH_NGINX_OPEN_FILE_CACHE", "0") == "1"

# A client that shows WebP: the bridge answers from its cache, as received.
WEBP_CLIENT = {"Accept": "image/webp"}
# An iOS 13 WebView: no image/webp in Accept, so the bridge transcodes.
NON_WEBP_CLIENT = {
    "User-Agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 13_7 like Mac OS X) AppleWebKit/605.1.15 "
                  "(KHTML, like Gecko) Mobile/15E148",
    "Accept": "image/png,image/*",
}

WrkResult = collections.namedtuple("WrkResult", "rps p99 errors cpu p50 requests")


def parse_ms(text):
    value, unit = re.match(r"([\d.]+)(us|ms|s)", text).groups()
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def wrk_command(url, headers=None, connections=None, duration=None, script=None):
    """The command line of one bounded wrk run (`parse_wrk` reads its output)."""
    command = ["wrk", "-t2", f"-c{connections or CONNECTIONS}", f"-d{duration or DURATION}s", "--latency"]
    for name, value in (headers or {}).items():
        command += ["-H", f"{name}: {value}"]
    if script:
        command += ["-s", script]
    return command + [url]


def wrk(url, pids=(), headers=None, connections=None, duration=None, script=None):
    """One bounded wrk run: requests/s, p50 and p99 ms, errors (non-2xx/3xx
    responses plus socket errors), and CPU microseconds per request of `pids`."""
    before = cpu_seconds(pids)
    out = subprocess.run(wrk_command(url, headers, connections, duration, script),
                         check=True, capture_output=True, text=True).stdout
    return parse_wrk(out, cpu_seconds(pids) - before)


def parse_wrk(out, cpu=0.0):
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    # The latency distribution's own lines: "+/- Stdev" columns end in % too.
    p50 = parse_ms(re.search(r"^\s+50%\s+(\S+)$", out, re.M).group(1))
    p99 = parse_ms(re.search(r"^\s+99%\s+(\S+)$", out, re.M).group(1))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errors = int(errors.group(1)) if errors else 0
    sockets = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    if sockets:
        errors += sum(int(n) for n in sockets.groups())
    return WrkResult(rps, p99, errors, cpu * 1e6 / max(requests, 1), p50, requests)


def paired_cpu_ratios(ours, reference):
    """Reference CPU per request / ours, round by round: each pair ran back to
    back, so a change in the machine's load between rounds cancels out."""
    return [r.cpu / o.cpu if o.cpu else 0 for o, r in zip(ours, reference)]


def median_of(runs):
    return WrkResult(*(statistics.median(run[i] for run in runs) for i in range(len(WrkResult._fields))))


def start_bare(binary, mode):
    port = free_port()
    process = start([binary, str(port), "2", mode])
    url = f"http://127.0.0.1:{port}/"
    fetch(url, process=process)
    return process, url


def start_origin(binary, root):
    """`webp-bridge origin` on a free port: (process, URL). Its per-request log goes to a pipe
    that bridgekit drains once the `listening on` line is read."""
    process = start([binary, "origin", "--root", root, "--listen", "127.0.0.1:0"], pipe=True)
    return process, wait_listening(process, name="origin")


def start_bridge(binary, upstream, extra=()):
    """`webp-bridge proxy` in reverse mode in front of `upstream`, rewriting
    its JPEGs to `?imageView2/2/w/750/format/webp` as the qiniu preset does.
    Its per-request log goes to /dev/null: a pipe and a reader would take a
    core's share from the bridge; the port is chosen here so no line needs
    reading."""
    port = free_port()
    host = re.match(r"http://([^:/]+)", upstream).group(1)
    process = start([binary, "proxy", "--upstream", upstream, "--preset", "qiniu", "--host", host, "--width", "750",
                     "--listen", f"127.0.0.1:{port}", *extra])
    url = f"http://127.0.0.1:{port}"
    fetch(url + "/__bridge/healthz", process=process)
    return process, url


def wait_transcodes_idle(url, timeout=30):
    """Waits until the bridge has no transcode running or waiting. When wrk
    stops, the requests it leaves in flight are still transcoded (the bridge
    does not cancel a queued transcode whose client went away), and the next
    run's first requests would find the queue full and get 503s."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        metrics = bridge_metrics(url)
        if not metrics.get("transcodes_running") and not metrics.get("transcodes_waiting"):
            return
        time.sleep(0.05)
    sys.exit(f"the bridge at {url} still had transcodes queued after {timeout}s")


def codec_only(binary, path, seconds):
    """The codec-only limit: images/s and CPU microseconds per image of
    `codecs-benchmark --transcoder CORES SECONDS path` (the same Transcoder
    call as the bridge, one thread per core, no HTTP)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([binary, "--transcoder", str(CORES), str(seconds), path],
                         check=True, capture_output=True, text=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    _, threads, images, elapsed, fmt, size = out.split()
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    images = int(images)
    return images / float(elapsed), cpu * 1e6 / max(images, 1), fmt, int(size)


def start_nginx(root, work):
    port = free_port()
    # https://nginx.org/en/docs/http/ngx_http_core_module.html#open_file_cache
    open_file_cache = ("    open_file_cache max=1000 inactive=60s;\n    open_file_cache_valid 60s;\n"
                       if NGINX_OPEN_FILE_CACHE else "")
    conf = os.path.join(work, "nginx.conf")
    with open(conf, "w") as f:
        f.write(f"""
worker_processes 2;
daemon off;
pid {work}/nginx.pid;
error_log {work}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log {work}/access.log combined buffer=64k flush=1s;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 100000;
{open_file_cache}    types {{ image/jpeg jpg; image/webp webp; }}
    client_body_temp_path {work}/body;
    proxy_temp_path {work}/proxy;
    fastcgi_temp_path {work}/fastcgi;
    uwsgi_temp_path {work}/uwsgi;
    scgi_temp_path {work}/scgi;
    server {{
        listen 127.0.0.1:{port};
        root {root};
    }}
}}
""")
    process = start(["nginx", "-p", work, "-c", conf])
    return process, f"http://127.0.0.1:{port}"


HitServers = collections.namedtuple(
    "HitServers", "root origin origin_url variant_path variant bridge bridge_url hit hit_file nginx_url nginx_pids")


def hit_photo(corpus):
    """The photo every cache-hit case serves (as a JPEG q90 and its variant)."""
    photo = os.path.join(corpus, "kodak", "kodim01.png")
    if not os.path.exists(photo):
        sys.exit(f"no Kodak photo at {photo}")
    return photo


def work_folder(prefix):
    """A temporary folder nginx's unprivileged workers can read."""
    work = tempfile.mkdtemp(prefix=prefix)
    os.chmod(work, 0o755)
    return work


def start_hit_servers(binary, photo, work, processes):
    """The cache-hit setup shared with syscalls_http.py: in `work`/root, `photo`
    as a JPEG q90 (the plain file, as a CMS publishes it) and the origin's
    cached WebP variant of it; the bridge in front of the origin, its data
    cache warmed by one request; nginx serving the very same bytes from disk
    (variant.webp, photo.jpg, bridge-hit.webp). Every process started is
    appended to `processes`, for `stop_all`."""
    root = os.path.join(work, "root")
    os.makedirs(root)
    subprocess.run([binary, "convert", photo, os.path.join(root, "photo.jpg"), "--quality", "90"], check=True)
    origin, origin_url = start_origin(binary, root)
    processes.append(origin)
    variant_path = "/photo.jpg?imageView2/2/w/750/format/webp"
    variant, _ = fetch(origin_url + variant_path)  # also warms the variant cache
    with open(os.path.join(root, "variant.webp"), "wb") as f:
        f.write(variant)
    bridge, bridge_url = start_bridge(binary, origin_url)
    processes.append(bridge)
    hit, hit_type = fetch(bridge_url + "/photo.jpg", WEBP_CLIENT)
    if hit_type != "image/webp":
        sys.exit(f"the bridge answered a WebP client with {hit_type!r}, not image/webp")
    hit_file = os.path.join(root, "bridge-hit.webp")
    with open(hit_file, "wb") as f:
        f.write(hit)
    nginx, nginx_url = start_nginx(root, work)
    processes.append(nginx)
    fetch(nginx_url + "/variant.webp", process=nginx)
    nginx_pids = group_pids(nginx)
    return HitServers(root, origin, origin_url, variant_path, variant, bridge, bridge_url, hit, hit_file,
                      nginx_url, nginx_pids)


def stop_all(processes, work):
    """Stop every process (bridgekit.stop: SIGTERM to its group, SIGKILL after 15 s) and remove the
    work folder."""
    stop(processes)
    shutil.rmtree(work, ignore_errors=True)


def bridge_against_nginx(bridge, bridge_url, nginx_file_url, nginx_pids, headers):
    """ROUNDS alternating wrk rounds: the bridge's /photo.jpg, then nginx sending the same bytes from
    `nginx_file_url`, both for a client sending `headers`. Prints the table; returns the bridge's
    metrics over the rounds, both medians, the paired CPU ratios and the bridge's runs."""
    before = bridge_metrics(bridge_url)
    bridge_runs, nginx_runs = [], []
    for _ in range(ROUNDS):
        bridge_runs.append(wrk(bridge_url + "/photo.jpg", [bridge.pid], headers=headers))
        nginx_runs.append(wrk(nginx_file_url, nginx_pids, headers=headers))
    served = metrics_delta(before, bridge_metrics(bridge_url))
    b = median_of(bridge_runs)
    n = median_of(nginx_runs)
    print(f"  {'':<8}{'req/s':>10}{'p50 ms':>9}{'p99 ms':>9}{'cpu us':>9}{'errors':>8}   req/s per round")
    for name, r, runs in [("bridge", b, bridge_runs), ("nginx", n, nginx_runs)]:
        print(f"  {name:<8}{r.rps:>10.0f}{r.p50:>9.2f}{r.p99:>9.2f}{r.cpu:>9.1f}{r.errors:>8.0f}   "
              f"{', '.join(f'{run.rps:.0f}' for run in runs)}")
    return served, b, n, paired_cpu_ratios(bridge_runs, nginx_runs), bridge_runs


def bridge_hit(bridge, bridge_url, hit, nginx_url, nginx_pids, summary):
    """The bridge answering a WebP client from its cache against nginx sending the same bytes."""
    print(f"\nbridge cache hit (Accept: image/webp), {len(hit)} bytes of WebP; nginx serves the same bytes; "
          f"wrk -t2 -c{CONNECTIONS} -d{DURATION}s, {ROUNDS} alternating rounds, medians")
    served, b, n, pairs, bridge_runs = bridge_against_nginx(
        bridge, bridge_url, nginx_url + "/bridge-hit.webp", nginx_pids, WEBP_CLIENT)
    print(f"  bridge metrics over the rounds: {served.get('requests_total:webp', 0):.0f} WebP answers, "
          f"{served.get('image_source_total:disk', 0):.0f} from the data cache, "
          f"{served.get('image_source_total:network', 0) + served.get('image_source_total:revalidated', 0):.0f} "
          f"upstream (fetched or revalidated); wrk counted {sum(run.requests for run in bridge_runs)}")
    print(f"  cpu ratio per round: {', '.join(f'{ratio:.2f}x' for ratio in pairs)}; median {statistics.median(pairs):.2f}x")
    summary.append(("bridge cache hit vs nginx", b.rps, n.rps, "req/s", n.cpu / b.cpu if b.cpu else 0, 0.8, 1.0))


def legacy_repeat(bridge, bridge_url, root, nginx_url, nginx_pids, summary):
    """A legacy client (iOS 13 WebKit, no image/webp) asking for the same
    photo again: the bridge keeps the transcode and memoises the answer, so
    a repeat is a hit; nginx serves the very JPEG the bridge returned."""
    for _ in range(2):  # the transcode, then the kept transcode (memoised)
        body, body_type = fetch(bridge_url + "/photo.jpg", NON_WEBP_CLIENT)
    if body_type != "image/jpeg":
        sys.exit(f"the bridge answered a non-WebP client with {body_type!r}, not image/jpeg")
    with open(os.path.join(root, "legacy-hit.jpg"), "wb") as f:
        f.write(body)
    print(f"\nbridge legacy repeat (iOS 13 WebKit, Accept: {NON_WEBP_CLIENT['Accept']}), {len(body)} bytes of "
          f"JPEG kept from one transcode; nginx serves the same bytes; wrk -t2 -c{CONNECTIONS} -d{DURATION}s, "
          f"{ROUNDS} alternating rounds, medians")
    served, b, n, pairs, bridge_runs = bridge_against_nginx(
        bridge, bridge_url, nginx_url + "/legacy-hit.jpg", nginx_pids, NON_WEBP_CLIENT)
    print(f"  bridge metrics over the rounds: {served.get('requests_total:transcoded', 0):.0f} transcoded answers, "
          f"{served.get('transcode_seconds_count', 0):.0f} transcodes run; "
          f"wrk counted {sum(run.requests for run in bridge_runs)}")
    print(f"  cpu ratio per round: {', '.join(f'{ratio:.2f}x' for ratio in pairs)}; median {statistics.median(pairs):.2f}x")
    summary.append(("bridge legacy repeat vs nginx", b.rps, n.rps, "req/s", n.cpu / b.cpu if b.cpu else 0, 0.8, 1.0))


def main():
    binary, corpus = sys.argv[1:3]
    bare_binary = sys.argv[3] if len(sys.argv) > 3 else None
    codecs_binary = sys.argv[4] if len(sys.argv) > 4 else None
    photo = hit_photo(corpus)
    work = work_folder("bench-http-")
    processes = []
    summary = []  # (comparison, ours, reference, unit, cpu ratio, target)
    try:
        setup = start_hit_servers(binary, photo, work, processes)
        origin, origin_url, nginx_url, nginx_pids = setup.origin, setup.origin_url, setup.nginx_url, setup.nginx_pids
        bridge, bridge_url, hit = setup.bridge, setup.bridge_url, setup.hit

        cases = [
            ("cached WebP variant", origin_url + setup.variant_path, nginx_url + "/variant.webp",
             len(setup.variant)),
            ("plain file", origin_url + "/photo.jpg", nginx_url + "/photo.jpg",
             os.path.getsize(os.path.join(setup.root, "photo.jpg"))),
        ]
        print(f"wrk -t2 -c{CONNECTIONS} -d{DURATION}s on 127.0.0.1, {ROUNDS} alternating rounds, medians; "
              "origin and nginx serve the same bytes; cpu = server CPU time per request\n")
        print(f"{'case':<22}{'bytes':>8}{'origin req/s':>14}{'p99 ms':>8}{'cpu us':>8}"
              f"{'nginx req/s':>13}{'p99 ms':>8}{'cpu us':>8}{'req/s ratio':>13}{'cpu ratio':>11}")
        for name, origin_case, nginx_case, size in cases if "origin" in CASES else []:
            origin_runs, nginx_runs = [], []
            for _ in range(ROUNDS):
                origin_runs.append(wrk(origin_case, [origin.pid]))
                nginx_runs.append(wrk(nginx_case, nginx_pids))
            o = median_of(origin_runs)
            n = median_of(nginx_runs)
            print(f"{name:<22}{size:>8}{o.rps:>14.0f}{o.p99:>8.2f}{o.cpu:>8.1f}{n.rps:>13.0f}{n.p99:>8.2f}"
                  f"{n.cpu:>8.1f}{o.rps / n.rps:>12.2f}x{n.cpu / o.cpu if o.cpu else 0:>10.2f}x")
            print(f"  {'':<20}origin req/s per round: {', '.join(f'{run.rps:.0f}' for run in origin_runs)}; "
                  f"nginx: {', '.join(f'{run.rps:.0f}' for run in nginx_runs)}")
            pairs = paired_cpu_ratios(origin_runs, nginx_runs)
            print(f"  {'':<20}cpu ratio per round: {', '.join(f'{ratio:.2f}x' for ratio in pairs)}; "
                  f"median {statistics.median(pairs):.2f}x")
            if o.errors or n.errors:
                print(f"  errors (non-2xx/3xx or socket, median of rounds): origin {o.errors:.0f}, nginx {n.errors:.0f}")
            summary.append((f"origin {name} vs nginx", o.rps, n.rps, "req/s",
                            n.cpu / o.cpu if o.cpu else 0, None, 1.0))

        if "bridge" in CASES:
            bridge_hit(bridge, bridge_url, hit, nginx_url, nginx_pids, summary)

        if "legacy" in CASES:
            legacy_repeat(bridge, bridge_url, setup.root, nginx_url, nginx_pids, summary)

        if codecs_binary and "transcode" in CASES:
            # A bridge that keeps no transcode, so that every request is transcoded afresh.
            bridge, bridge_url = start_bridge(binary, origin_url, ["--no-transcode-cache"])
            processes.append(bridge)
            transcoded, transcoded_type = fetch(bridge_url + "/photo.jpg", NON_WEBP_CLIENT)
            print(f"\nbridge transcode path (iOS 13 WebKit, Accept: {NON_WEBP_CLIENT['Accept']}): "
                  f"{len(hit)} bytes of WebP -> {transcoded_type}, {len(transcoded)} bytes; "
                  f"wrk -t2 -c{TRANSCODE_CONNECTIONS} -d{DURATION}s; codec-only = the same Transcoder call "
                  f"on the same bytes, {CORES} threads, no HTTP; {ROUNDS} alternating rounds, medians")
            if transcoded_type != "image/jpeg":
                sys.exit(f"the bridge answered a non-WebP client with {transcoded_type!r}, not image/jpeg")
            before = bridge_metrics(bridge_url)
            bridge_runs, codec_runs = [], []
            for _ in range(ROUNDS):
                bridge_runs.append(wrk(bridge_url + "/photo.jpg", [bridge.pid], headers=NON_WEBP_CLIENT,
                                       connections=TRANSCODE_CONNECTIONS))
                wait_transcodes_idle(bridge_url)
                codec_runs.append(codec_only(codecs_binary, setup.hit_file, DURATION))
            served = metrics_delta(before, bridge_metrics(bridge_url))
            b = median_of(bridge_runs)
            c_rps = statistics.median(run[0] for run in codec_runs)
            c_cpu = statistics.median(run[1] for run in codec_runs)
            _, _, c_format, c_size = codec_runs[0]
            print(f"  {'':<12}{'images/s':>10}{'p50 ms':>9}{'p99 ms':>9}{'cpu us':>9}{'errors':>8}   images/s per round")
            print(f"  {'bridge':<12}{b.rps:>10.1f}{b.p50:>9.2f}{b.p99:>9.2f}{b.cpu:>9.0f}{b.errors:>8.0f}   "
                  f"{', '.join(f'{run.rps:.1f}' for run in bridge_runs)}")
            print(f"  {'codec-only':<12}{c_rps:>10.1f}{'':>9}{'':>9}{c_cpu:>9.0f}{'':>8}   "
                  f"{', '.join(f'{run[0]:.1f}' for run in codec_runs)}  ({c_format}, {c_size} bytes)")
            transcodes = served.get("transcode_seconds_count", 0)
            print(f"  bridge metrics over the rounds: {served.get('requests_total:transcoded', 0):.0f} transcoded "
                  f"answers, {transcodes:.0f} transcodes run (one per request: this bridge keeps no transcode), "
                  f"{served.get('requests_total:overloaded', 0):.0f} refused as overloaded; "
                  f"wrk counted {sum(run.requests for run in bridge_runs)}")
            summary.append(("bridge transcode vs codec-only", b.rps, c_rps, "images/s",
                            c_cpu / b.cpu if b.cpu else 0, 0.8, None))

        if bare_binary and "bare" in CASES:
            print("\nbare HTTPServer, 12-byte body (HTTPServerBenchmark, 2 threads):")
            for mode in ["immediate", "async"]:
                bare, url = start_bare(bare_binary, mode)
                processes.append(bare)
                r = median_of([wrk(url, [bare.pid]) for _ in range(ROUNDS)])
                print(f"  {mode:<10}{r.rps:>10.0f} req/s  p99 {r.p99:6.2f} ms  cpu {r.cpu:5.1f} us/req")
                stop([bare])

        # Targets: issue 6's throughput ratio for the bridge rows, issue 13's CPU ratio for the cache hits.
        print("\nsummary (medians; ratio = ours / reference, higher is better; "
              "cpu ratio = reference CPU per request / ours)")
        print(f"{'comparison':<36}{'ours':>10}{'reference':>11}{'':<10}{'ratio':>7}{'cpu ratio':>11}  targets")
        for name, ours, reference, unit, cpu_ratio, target, cpu_target in summary:
            ratio = ours / reference if reference else 0
            verdicts = []
            if target is not None:
                verdicts.append(f"ratio >= {target:.2f}x {'met' if ratio >= target else 'NOT met'}")
            if cpu_target is not None:
                verdicts.append(f"cpu >= {cpu_target:.2f}x {'met' if cpu_ratio >= cpu_target else 'NOT met'}")
            print(f"{name:<36}{ours:>10.1f}{reference:>11.1f} {unit:<9}{ratio:>6.2f}x{cpu_ratio:>10.2f}x  "
                  f"{'; '.join(verdicts)}")
    finally:
        stop_all(processes, work)


if __name__ == "__main__":
    main()
