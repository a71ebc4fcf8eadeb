#!/usr/bin/env python3
"""Driver for `make e2e-cluster`: origin replicas and a bridge behind nginx's
cache, rendered from deploy/nginx/webp-bridge.conf (the deployment's own file),
under mixed clients, with one replica killed and restarted.

  clients -> nginx image tier  -> 2 x `webp-bridge origin --auto-webp` (or --auto-format)
  clients -> nginx bridge tier -> `webp-bridge proxy` (legacy policy) -> nginx image tier

Everything listens on 127.0.0.1: the origins and the bridge on port 0 (the
killed replica comes back on the port it had), nginx on free ports, as an
unprivileged master under this script (`daemon off`, its own prefix, pid
file and logs in the state folder).

The photos are the demo's (`make demo-photos` fetches them; no private
corpus needed): each JPEG as it is, and a PNG copy of each, 768 px wide
(`webp-bridge convert`), the plain files of the origin tier. For
CLUSTER_SECONDS (60) CLUSTER_CLIENTS threads (8) ask for them as clients
of several kinds: AVIF browsers, WebP browsers, clients that name neither,
`image/webp;q=0`, old iOS WebViews, WebKitGTK (AppleWebKit that lists WebP),
iPads. Every answer must be 200 and its body a whole image (decoded: see
imagecheck.py) of a format the client accepts, the Content-Type saying the
same; on the bridge tier an AppleWebKit client must get JPEG or PNG whatever
its Accept (the legacy policy). Resized variants must be the best format the
origin offers the class (WebP, AVIF with --auto-format): the canonical Accept
reached the origin. With `--client-hints` and `--save-data` (when the build
has them) some clients also send size hints (Sec-CH-Width, Viewport-Width x
DPR, the legacy names) and Save-Data: every origin-tier answer, hinted or
not, must be exactly the width its own client should get (the URL's width,
lowered to the client's bucket, one bucket down with Save-Data) and carry
nginx's bucket in X-WebP-Bridge-Hints; a width of another client's bucket is
a cross-served size. A third of the way in, replica A is killed (SIGKILL);
ten seconds later it is started again on the same port.

Then the cold burst: CLUSTER_BURST (16) concurrent requests for one variant
nobody asked for yet must make exactly one variant over both replicas
(origin /metrics, webpbridge_origin_variant_cache_total{result="miss"}):
proxy_cache_lock at work.

Prints requests, cross-served answers (must be 0), failed requests (with
each reason), broken images, requests/s, p50/p99, the cache hit ratio per
tier (from nginx's access log, $upstream_cache_status), the variants each
replica made; exits 1 when a bar is missed. Logs: CLUSTER_OUT (.build/e2e-cluster).

usage: python3 -m e2e.cluster WEBP_BRIDGE PHOTO_DIR...
"""
import http.client
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.parse

from scripts.bridgekit import Processes, exit_on_signals, fetch, free_port, scrape, sniff, wait_listening

from .harness import (CLIENT_KINDS, REQUEST_TIMEOUT, Connections, agent_class, answer_problem, client_headers,
                      start_bridge)
from .imagecheck import ImageChecker, accepted_formats

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TEMPLATE = os.path.join(ROOT, "deploy", "nginx", "webp-bridge.conf")
SECONDS = float(os.environ.get("CLUSTER_SECONDS", "60"))
CLIENTS = int(os.environ.get("CLUSTER_CLIENTS", "8"))
BURST = int(os.environ.get("CLUSTER_BURST", "16"))
MAX_REQUESTS = int(os.environ.get("CLUSTER_MAX_REQUESTS", "200000"))
OUT = os.path.abspath(os.environ.get("CLUSTER_OUT", os.path.join(ROOT, ".build", "e2e-cluster")))
WIDTHS = (320, 480, 750)
# Clients that send size hints (origin --client-hints, --save-data), each with the width bucket the
# origin must make for it (after Save-Data) and nginx's key label: (name, Accept, User-Agent, hints,
# bucket or None, label). The buckets follow docs/origin.md (Client hints).
HINT_CLIENTS = [
    ("hint-width-300", "image/avif,image/webp,*/*", "hints", {"Sec-CH-Width": "300"}, 320, "320"),
    ("hint-3x-phone", "image/webp,*/*", "hints",
     {"Sec-CH-Viewport-Width": "107", "Sec-CH-DPR": "3"}, 480, "480"),
    ("hint-2x-legacy", "image/webp,*/*", "hints", {"Viewport-Width": "200", "DPR": "2"}, 480, "480"),
    ("hint-android-dpr", None, "hints", {"Sec-CH-Viewport-Width": "412", "Sec-CH-DPR": "2.625"}, 1280, "1280"),
    ("hint-save-data-600", "image/avif,image/webp,*/*", "hints",
     {"Sec-CH-Width": "600", "Save-Data": "on"}, 480, "640 on"),
    ("hint-save-data", "image/webp,*/*", "hints", {"Save-Data": "on"}, None, "on"),
    ("hint-refused", "image/webp,*/*", "hints", {"Sec-CH-Width": "640.5", "Sec-CH-DPR": "9"}, None, ""),
]
PNG_WIDTH = 768  # the PNG copies: as wide as a Kodak photo


def format_class(accept):
    """What nginx's map makes of Accept: avif (AVIF and WebP named), webp, or original."""
    named = accepted_formats(accept)
    if {"avif", "webp"} <= named:
        return "avif"
    return "webp" if "webp" in named else "original"


def variants_made(host_port):
    """webpbridge_origin_variant_cache_total{result="miss"} of one origin, or None when it is down."""
    try:
        return int(scrape(f"http://{host_port}/metrics", timeout=5).get("origin_variant_cache_total:miss", 0))
    except (OSError, http.client.HTTPException):
        return None


def image_width(body):
    """The width of a JPEG, PNG, WebP or AVIF body from its header, or None."""
    if body[:8] == b"\x89PNG\r\n\x1a\n":
        return int.from_bytes(body[16:20], "big")
    if body[:4] == b"RIFF" and body[8:12] == b"WEBP":
        chunk = body[12:16]
        if chunk == b"VP8X":
            return int.from_bytes(body[24:27], "little") + 1
        if chunk == b"VP8L":
            return (int.from_bytes(body[21:25], "little") & 0x3FFF) + 1
        if chunk == b"VP8 ":
            return int.from_bytes(body[26:28], "little") & 0x3FFF
        return None
    if body[:2] == b"\xff\xd8":
        at = 2
        while at + 9 < len(body):
            if body[at] != 0xFF:
                return None
            marker = body[at + 1]
            if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
                return int.from_bytes(body[at + 7:at + 9], "big")
            at += 2 + int.from_bytes(body[at + 2:at + 4], "big")
        return None
    at = body.find(b"ispe")
    return int.from_bytes(body[at + 8:at + 12], "big") if at >= 0 else None


def expected_width(path, source_widths, bucket):
    """The width an origin-tier PATH must be for a client whose hints give BUCKET (None: no hint):
    the URL's own width (imageView2/2/w/W never enlarges), lowered to the bucket."""
    name, _, query = path.lstrip("/").partition("?")
    width = source_widths[name]
    match = re.match(r"imageView2/2/w/(\d+)$", query)
    if match:
        width = min(width, int(match.group(1)))
    return min(width, bucket) if bucket else width


class Origin:
    def __init__(self, processes, binary, root, flag, name):
        self.processes, self.binary, self.root, self.flag, self.name = processes, binary, root, flag, name
        self.log = os.path.join(OUT, f"{name}.log")
        self.address = None
        self.made_before = 0      # variants counted by earlier lives of this replica

    def start(self):
        listen = self.address or "127.0.0.1:0"
        command = [self.binary, "origin", "--root", self.root, "--listen", listen, *self.flag.split()]
        self.process = self.processes.start(command, self.log)
        if self.address is None:
            self.address = urllib.parse.urlsplit(wait_listening(self.process, name=self.name)).netloc
        fetch(f"http://{self.address}/healthz", process=self.process)


class Results:
    def __init__(self):
        self.lock = threading.Lock()
        self.latencies = []
        self.requests = 0
        self.cross_served = []
        self.failures = []
        self.broken = []
        self.under_served = []
        self.cross_served_sizes = []
        self.by_kind = {}

    def problem(self, bucket, text):
        with self.lock:
            getattr(self, bucket).append(text)

    def add(self, kind, latency, problem=None, bucket=None):
        with self.lock:
            self.requests += 1
            self.latencies.append(latency)
            self.by_kind[kind] = self.by_kind.get(kind, 0) + 1
            if problem:
                getattr(self, bucket).append(problem)


def expected_best(kind_accept, auto_format):
    cls = format_class(kind_accept)
    if cls == "avif" and auto_format:
        return "avif"
    if cls in ("avif", "webp"):
        return "webp"
    return None


def one_request(connections, tier, path, kind, checker, results, auto_format, sizes=None):
    """One GET of PATH on TIER by a client of KIND: (name, Accept, User-Agent), or a HINT_CLIENTS row.
    SIZES (source widths by file name) turns on the width check of origin-tier answers."""
    name, accept, agent = kind[:3]
    hints, bucket, hint_label = (kind[3], kind[4], kind[5]) if len(kind) > 3 else ({}, None, "")
    started = time.monotonic()
    try:
        connection = connections.get(tier)
        connection.request("GET", path, headers={**client_headers(accept, agent), **hints})
        response = connection.getresponse()
        body = response.read()
    except (OSError, http.client.HTTPException) as error:
        connections.drop(tier)
        results.add(name, time.monotonic() - started, f"{tier} {path} {name}: {type(error).__name__}: {error}",
                    "failures")
        return
    latency = time.monotonic() - started
    label = f"{tier} {path} {name}"
    if response.status != 200:
        results.add(name, latency, f"{label}: HTTP {response.status} {body[:120]!r}", "failures")
        return
    problem = answer_problem(tier, accept, agent, response, body)
    if problem:
        bucket, text = problem
        results.add(name, latency, f"{label}: {text}", bucket.replace("-", "_"))
        return
    expected_class = format_class(accept) + (f" {agent_class(agent)}" if tier == "bridge" else "")
    if response.getheader("X-WebP-Bridge-Class") != expected_class:
        results.add(name, latency, f"{label}: nginx class {response.getheader('X-WebP-Bridge-Class')!r}, "
                    f"expected {expected_class!r}", "cross_served")
        return
    if sizes is not None and tier == "origin":
        width, expected = image_width(body), expected_width(path, sizes, bucket)
        seen_label = response.getheader("X-WebP-Bridge-Hints", "").strip()
        if width != expected or seen_label != hint_label:
            results.add(name, latency, f"{label}: {width} px wide with nginx hints {seen_label!r}; its client "
                        f"needs {expected} px ({hint_label!r})", "cross_served_sizes")
            return
    checker.submit(body, lambda verdict: results.problem("broken", f"{label}: {verdict}"))
    best = expected_best(accept, auto_format)
    kind_of_body = sniff(body).format
    if tier == "origin" and "imageView2" in path and best and kind_of_body != best:
        results.add(name, latency, f"{label}: got {kind_of_body}, the class's best is {best}", "under_served")
        return
    results.add(name, latency)


def client_thread(index, deadline, work, tiers, checker, results, auto_format, stop, sizes=None):
    rng = random.Random(index)
    connections = Connections(tiers)
    try:
        while time.time() < deadline and not stop.is_set():
            with results.lock:
                if results.requests >= MAX_REQUESTS:
                    return
            tier, path = rng.choice(work)
            kind = rng.choice(CLIENT_KINDS + (HINT_CLIENTS if sizes is not None and tier == "origin" else []))
            one_request(connections, tier, path, kind, checker, results, auto_format, sizes)
    finally:
        connections.drop_all()


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else 0.0


def cache_statuses(access_log, port, last_fraction=1.0):
    """$upstream_cache_status counts of one tier's lines (the last `last_fraction` of them)."""
    statuses = []
    with open(access_log) as f:
        for line in f:
            fields = line.split()
            if len(fields) > 1 and fields[1] == str(port):
                match = re.search(r" cache=(\S+)", line)
                statuses.append(match.group(1) if match else "-")
    counts = {}
    for status in statuses[int(len(statuses) * (1 - last_fraction)):]:
        counts[status] = counts.get(status, 0) + 1
    return counts


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__.strip())
    binary, photo_dirs = os.path.abspath(argv[0]), argv[1:]
    shutil.rmtree(OUT, ignore_errors=True)
    state = os.path.join(OUT, "nginx")
    for folder in ("temp", "cache"):
        os.makedirs(os.path.join(state, folder))
    root = os.path.join(OUT, "root")
    os.makedirs(root)
    names = []
    for folder in photo_dirs:
        for entry in sorted(os.listdir(folder)):
            if entry.lower().endswith((".jpg", ".jpeg", ".png")):
                # Copies, not symlinks: the origin refuses links that leave its root.
                shutil.copy(os.path.join(folder, entry), os.path.join(root, entry))
                names.append(entry)
    # A PNG copy of each JPEG, PNG_WIDTH wide: the origin tier's plain files (the JPEGs are several MB).
    sources = {os.path.splitext(name)[0] + ".png": name for name in names if not name.lower().endswith(".png")}
    copies = sorted(set(sources) - set(names))
    if copies:
        subprocess.run([binary, "convert", "--to", "png", "--width", str(PNG_WIDTH), "--out-dir", root,
                        *(os.path.join(root, sources[copy]) for copy in copies)], check=True, stdout=subprocess.DEVNULL)
    names += copies
    if not names:
        sys.exit("e2e-cluster: no photos in " + " ".join(photo_dirs))

    help_text = subprocess.run([binary, "origin", "--help"], capture_output=True, text=True).stdout
    auto_format = "--auto-format" in help_text
    flag = "--auto-format" if auto_format else "--auto-webp"
    hints = "--client-hints" in help_text and "--save-data" in help_text
    if hints:
        flag += " --client-hints --save-data"
    processes = Processes()
    checker = ImageChecker(binary)
    exit_on_signals("e2e-cluster")
    try:
        sizes = None
        if hints:
            sizes = {}
            for name in names:
                with open(os.path.join(root, name), "rb") as f:
                    sizes[name] = image_width(f.read(1 << 20))
        return run(binary, names, root, state, flag, auto_format, processes, checker, sizes)
    finally:
        processes.stop_all()


def run(binary, names, root, state, flag, auto_format, processes, checker, sizes=None):
    origins = [Origin(processes, binary, root, flag, name) for name in ("origin-a", "origin-b")]
    for origin in origins:
        origin.start()
    image_port, bridge_port = free_port(), free_port()
    image_tier = f"127.0.0.1:{image_port}"

    # The bridge (legacy policy) in front of the image tier.
    _, bridge_address = start_bridge(processes, binary, image_tier, OUT, "cluster")

    conf = os.path.join(state, "nginx.conf")
    subprocess.run([sys.executable, os.path.join(ROOT, "deploy", "nginx", "render.py"), TEMPLATE, conf,
                    f"STATE_DIR={state}", f"ORIGIN_TIER_LISTEN={image_tier}",
                    f"BRIDGE_TIER_LISTEN=127.0.0.1:{bridge_port}",
                    "ORIGIN_SERVERS=" + "\n        ".join(
                        f"server {o.address} max_fails=1 fail_timeout=2s;" for o in origins),
                    f"BRIDGE_SERVERS=server {bridge_address} max_fails=1 fail_timeout=2s;",
                    "CACHE_MAX_SIZE=1g"], check=True)
    os.chmod(OUT, 0o755)
    nginx = processes.start(["nginx", "-p", state, "-e", os.path.join(state, "error.log"), "-c", conf,
                             "-g", "daemon off;"], os.path.join(OUT, "nginx.log"))
    fetch(f"http://{image_tier}/{names[0]}", process=nginx)
    fetch(f"http://127.0.0.1:{bridge_port}/__bridge/healthz", process=nginx)
    print(f"e2e-cluster: nginx {image_tier} (image tier) and 127.0.0.1:{bridge_port} (bridge tier), "
          f"origins {', '.join(o.address for o in origins)} with {flag}, bridge {bridge_address}; "
          f"{len(names)} photos, {CLIENTS} clients for {SECONDS:.0f}s")

    work = []
    for name in names:
        if name.lower().endswith(".png"):  # plain files: the PNGs (the JPEGs are several MB)
            work.append(("origin", f"/{name}"))
        for width in WIDTHS:
            work.append(("origin", f"/{name}?imageView2/2/w/{width}"))
        work.append(("bridge", f"/{name}"))
    tiers = {"origin": image_tier, "bridge": f"127.0.0.1:{bridge_port}"}

    results = Results()
    stop = threading.Event()
    started = time.time()
    deadline = started + SECONDS
    threads = [threading.Thread(target=client_thread,
                                args=(i, deadline, work, tiers, checker, results, auto_format, stop, sizes),
                                daemon=True)
               for i in range(CLIENTS)]
    for thread in threads:
        thread.start()

    # The replica kill: A is SIGKILLed a third of the way in, restarted ten seconds later.
    victim = origins[0]
    last_seen = 0
    kill_at, restart_at = started + SECONDS / 3, started + SECONDS / 3 + 10
    killed = restarted = False
    while any(t.is_alive() for t in threads):
        now = time.time()
        if not killed:
            seen = variants_made(victim.address)
            last_seen = seen if seen is not None else last_seen
        if not killed and now >= kill_at:
            victim.made_before = last_seen
            victim.process.kill()
            victim.process.wait()
            killed = True
            print(f"  {now - started:5.1f}s killed {victim.name} (pid {victim.process.pid}, SIGKILL) "
                  f"after {last_seen} variants; {results.requests} requests so far")
        if killed and not restarted and now >= restart_at:
            victim.start()
            restarted = True
            print(f"  {time.time() - started:5.1f}s restarted {victim.name} on {victim.address}")
        for thread in threads:
            thread.join(timeout=0.5)
    elapsed = time.time() - started
    if not checker.finish(timeout=60):
        results.problem("broken", "bodies left undecoded after 60 s")
    if not restarted:
        victim.start()

    # The cold burst: one variant nobody asked for, BURST clients at once.
    burst_path = f"/{names[-1]}?imageView2/2/w/611"
    before = sum(variants_made(o.address) or 0 for o in origins)
    gate = threading.Barrier(BURST)
    bodies, burst_errors = [], []

    def burst_client():
        try:
            connection = http.client.HTTPConnection(image_tier, timeout=REQUEST_TIMEOUT)
            gate.wait(timeout=30)
            connection.request("GET", burst_path, headers={"Accept": "image/webp,*/*"})
            response = connection.getresponse()
            body = response.read()
            if response.status != 200:
                burst_errors.append(f"HTTP {response.status}")
            bodies.append(body)
        except Exception as error:  # every failure is reported, none ends the run
            burst_errors.append(f"{type(error).__name__}: {error}")

    burst = [threading.Thread(target=burst_client) for _ in range(BURST)]
    for thread in burst:
        thread.start()
    for thread in burst:
        thread.join(timeout=REQUEST_TIMEOUT + 30)
    burst_made = sum(variants_made(o.address) or 0 for o in origins) - before

    made = {o.name: o.made_before + (variants_made(o.address) or 0) for o in origins}
    time.sleep(1.5)  # the access log is flushed every second (flush=1s)
    nginx.send_signal(signal.SIGUSR1)  # reopen: flushes the buffered lines too
    time.sleep(0.5)
    access_log = os.path.join(state, "access.log")
    image_statuses = cache_statuses(access_log, image_port)
    bridge_statuses = cache_statuses(access_log, bridge_port)

    def ratio(counts):
        total = sum(v for k, v in counts.items() if k != "-")
        return counts.get("HIT", 0) / total if total else 0.0

    ok = True
    print(f"requests {results.requests} in {elapsed:.1f}s: {results.requests / elapsed:.1f} req/s, "
          f"p50 {percentile(results.latencies, 0.5) * 1000:.1f} ms, "
          f"p99 {percentile(results.latencies, 0.99) * 1000:.1f} ms")
    print("  by client: " + ", ".join(f"{k} {v}" for k, v in sorted(results.by_kind.items())))
    print(f"cross-served answers: {len(results.cross_served)} (bar: 0)")
    if sizes is not None:
        print(f"cross-served sizes (origin tier, every answer's width against its client's, hinted or not): "
              f"{len(results.cross_served_sizes)} (bar: 0)")
    print(f"failed requests: {len(results.failures)} (target: 0; replica killed and restarted during the run)")
    print(f"broken images: {len(results.broken)}; distinct bodies decoded: {checker.decoded}")
    print(f"under-served (a resized variant not in the class's best format, {flag}): {len(results.under_served)}")
    for label, problems in (("cross-served", results.cross_served),
                            ("cross-served size", results.cross_served_sizes), ("failed", results.failures),
                            ("broken", results.broken), ("under-served", results.under_served)):
        for problem in problems[:10]:
            print(f"  {label}: {problem}")
        ok = ok and not problems
    print(f"cache (nginx $upstream_cache_status): image tier hit ratio {ratio(image_statuses):.3f} {image_statuses}; "
          f"bridge tier {ratio(bridge_statuses):.3f} {bridge_statuses}")
    with open(access_log) as f:
        moved = sum(1 for line in f if re.search(r" upstream=\S+, ", line))
    print(f"requests nginx moved to another upstream (proxy_next_upstream): {moved}")
    late_image, late_bridge = (cache_statuses(access_log, port, 1 / 3) for port in (image_port, bridge_port))
    print(f"  over the last third of the requests: image tier {ratio(late_image):.3f}, "
          f"bridge tier {ratio(late_bridge):.3f}")
    print("variants made per replica (origin /metrics misses): "
          + ", ".join(f"{k} {v}" for k, v in made.items()) + f" (origin-a: {origins[0].made_before} before the kill)")
    print(f"cold burst: {BURST} concurrent requests for {burst_path}: {burst_made} variant(s) made, "
          f"{len(set(bodies))} distinct bodies, errors {burst_errors or 'none'} (bar: 1 variant)")
    ok = ok and burst_made == 1 and not burst_errors and len(set(bodies)) == 1
    print("e2e-cluster: " + ("PASS" if ok else "FAIL") + f"; logs in {OUT}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
