#!/usr/bin/env python3
"""Driver for `make soak`: the origin and the bridge under mixed load for
SOAK_MINUTES (30), with faults injected between the bridge and the origin.

  clients -> `webp-bridge origin --auto-webp`                     (direct)
  clients -> `webp-bridge proxy` (legacy policy) -> fault upstream -> the origin

The fault upstream (in this script, 127.0.0.1, port 0) forwards to the
origin, except, per request: SOAK_TIMEOUT_RATE (0.2%) stall past the bridge's
30 s upstream limit then close; SOAK_NOT_FOUND_RATE (3%) answer 404;
SOAK_TRUNCATE_RATE (3%) send the headers and half the body, then close;
SOAK_RESET_RATE (3%) reset the connection (SO_LINGER 0). SOAK_CLIENTS (4)
threads per route ask for the Kodak photos as the client kinds of the
cluster test (AVIF, WebP, neither, old WebViews, iPads); SOAK_ABORT_RATE (3%)
of requests hang up before reading the answer.

Every 200 answer is checked: a whole image (decoded, imagecheck.py) of a
format its client accepts (an AppleWebKit client of the bridge gets JPEG or
PNG). Other statuses are counted by route and code: faults must turn into
404/502/503/504, never a broken image.

Every minute the load pauses, in-flight requests drain (connections closed,
stalls released), and it prints each server's resident memory, open file
descriptors and threads (from /proc) and the error counts. The first
minute(s) after a pre-warm of every variant are the warm-up (SOAK_WARMUP,
default max(1, SOAK_MINUTES/6)). The rule compares medians, as one sample
moves with the connections in flight: the median of the last SOAK_WINDOW (5)
samples must not exceed the median of the first SOAK_WINDOW samples from the
end of warm-up on by more than 10% (SOAK_MAX_GROWTH) in RSS or fds (the
window shrinks to half the samples after warm-up on a short run). Exits 1 on
growth past that, on any broken or cross-served image, or when a server dies.

usage: python3 -m e2e.soak WEBP_BRIDGE KODAK_DIR
"""
import http.client
import http.server
import os
import random
import shutil
import socket
import statistics
import struct
import sys
import threading
import time
import urllib.parse

from scripts.bridgekit import Processes, exit_on_signals, fetch, process_status, wait_listening

from .harness import CLIENT_KINDS, REQUEST_TIMEOUT, Connections, answer_problem, client_headers, start_bridge
from .imagecheck import ImageChecker

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MINUTES = float(os.environ.get("SOAK_MINUTES", "30"))
WARMUP = float(os.environ.get("SOAK_WARMUP", str(max(1, int(MINUTES / 6)))))
CLIENTS = int(os.environ.get("SOAK_CLIENTS", "4"))
MAX_GROWTH = float(os.environ.get("SOAK_MAX_GROWTH", "10")) / 100
WINDOW = int(os.environ.get("SOAK_WINDOW", "5"))
RATES = {
    "timeout": float(os.environ.get("SOAK_TIMEOUT_RATE", "0.002")),
    "not-found": float(os.environ.get("SOAK_NOT_FOUND_RATE", "0.03")),
    "truncate": float(os.environ.get("SOAK_TRUNCATE_RATE", "0.03")),
    "reset": float(os.environ.get("SOAK_RESET_RATE", "0.03")),
}
ABORT_RATE = float(os.environ.get("SOAK_ABORT_RATE", "0.03"))
STALL_SECONDS = 35        # past the bridge's 30 s upstream limit
DRAIN_TIMEOUT = 60
OUT = os.path.abspath(os.environ.get("SOAK_OUT", os.path.join(ROOT, ".build", "soak")))


class FaultUpstream(http.server.ThreadingHTTPServer):
    """Forwards GET and HEAD to the origin, with faults at RATES; counts what it did."""
    daemon_threads = True

    def __init__(self, origin):
        super().__init__(("127.0.0.1", 0), FaultHandler)
        self.origin = origin
        self.lock = threading.Lock()
        self.counts = {name: 0 for name in ("forwarded", *RATES)}
        self.stalled = 0
        self.release = threading.Event()
        self.rng = random.Random(7)

    def handle_error(self, request, client_address):
        """A client (the bridge) that hangs up mid-request is part of the soak, not news."""
        with self.lock:
            self.counts["client-gone"] = self.counts.get("client-gone", 0) + 1

    def pick(self):
        with self.lock:
            draw = self.rng.random()
        for name, rate in RATES.items():
            if draw < rate:
                return name
            draw -= rate
        return "forwarded"

    def count(self, name):
        with self.lock:
            self.counts[name] += 1

    def stall(self):
        """Holds the request past the bridge's upstream limit, or until a drain releases it."""
        with self.lock:
            self.counts["timeout"] += 1
            self.stalled += 1
        self.release.wait(STALL_SECONDS)
        with self.lock:
            self.stalled -= 1


class FaultHandler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        server = self.server
        fault = server.pick()
        if fault == "timeout":
            server.stall()
            self.close_connection = True
            return
        if fault == "reset":
            server.count("reset")
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.close_connection = True
            return
        if fault == "not-found":
            server.count("not-found")
            body = b"injected 404\n"
            self.send_response(404)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        headers = {k: v for k, v in self.headers.items() if k.lower() in ("accept", "user-agent", "if-none-match")}
        try:
            connection = http.client.HTTPConnection(server.origin, timeout=REQUEST_TIMEOUT)
            connection.request(self.command, self.path, headers=headers)
            response = connection.getresponse()
            body = response.read()
            connection.close()
        except (OSError, http.client.HTTPException):
            self.send_error(502)
            return
        self.send_response(response.status)
        for name, value in response.getheaders():
            if name.lower() not in ("connection", "keep-alive", "transfer-encoding", "content-length"):
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        if fault == "truncate" and len(body) > 1 and self.command == "GET":
            server.count("truncate")
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(body[:len(body) // 2])
            self.close_connection = True
            return
        server.count("forwarded")
        self.end_headers()
        if self.command == "GET":
            self.wfile.write(body)


def proc_stats(pid):
    """(RSS bytes, open fds, threads) of a live process, from /proc."""
    status = process_status(pid)
    return status["VmRSS"] * 1024, len(os.listdir(f"/proc/{pid}/fd")), status["Threads"]


class Load:
    """Client threads over both routes; pausable, so samples are taken with nothing in flight."""

    def __init__(self, routes, work, checker):
        self.routes, self.work, self.checker = routes, work, checker
        self.lock = threading.Lock()
        self.running = threading.Event()
        self.stop = threading.Event()
        self.in_flight = 0
        self.requests = 0
        self.statuses = {}
        self.problems = []

    def record(self, route, outcome, problem=None):
        with self.lock:
            self.requests += 1
            key = f"{route} {outcome}"
            self.statuses[key] = self.statuses.get(key, 0) + 1
            if problem and len(self.problems) < 1000:
                self.problems.append(problem)

    def thread(self, seed, route):
        rng = random.Random(seed)
        connections = Connections(self.routes)
        while not self.stop.is_set():
            if not self.running.is_set():
                connections.drop(route)
                self.running.wait(1)
                continue
            path = rng.choice(self.work[route])
            name, accept, agent = rng.choice(CLIENT_KINDS)
            with self.lock:
                self.in_flight += 1
            try:
                connection = connections.get(route)
                connection.request("GET", path, headers=client_headers(accept, agent))
                if rng.random() < ABORT_RATE:
                    connections.drop(route)  # the client hangs up before the answer
                    self.record(route, "aborted")
                    continue
                response = connection.getresponse()
                body = response.read()
                self.check(route, path, name, accept, agent, response, body)
            except (OSError, http.client.HTTPException) as error:
                connections.drop(route)
                self.record(route, type(error).__name__, f"{route} {path} {name}: {error}")
            finally:
                with self.lock:
                    self.in_flight -= 1
        connections.drop_all()

    def check(self, route, path, name, accept, agent, response, body):
        if response.status != 200:
            self.record(route, str(response.status))
            return
        label = f"{route} {path} {name}"
        problem = answer_problem(route, accept, agent, response, body)
        if problem:
            outcome, text = problem
            self.record(route, outcome, f"{label}: {text}")
        else:
            verdict = self.checker.check(body)
            self.record(route, "broken" if verdict else "200", f"{label}: {verdict}" if verdict else None)

    def drain(self, faults):
        """Pauses the clients and waits until nothing is in flight, stalls released."""
        self.running.clear()
        faults.release.set()
        deadline = time.time() + DRAIN_TIMEOUT
        while time.time() < deadline:
            with self.lock, faults.lock:
                if self.in_flight == 0 and faults.stalled == 0:
                    break
            time.sleep(0.2)
        time.sleep(1)  # the servers close the connections the clients closed
        faults.release.clear()


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__.strip())
    binary, kodak = os.path.abspath(argv[0]), argv[1]
    shutil.rmtree(OUT, ignore_errors=True)
    root = os.path.join(OUT, "root")
    os.makedirs(root)
    names = sorted(n for n in os.listdir(kodak) if n.lower().endswith((".png", ".jpg")))
    for name in names:
        shutil.copy(os.path.join(kodak, name), os.path.join(root, name))
    processes = Processes()
    exit_on_signals("soak")
    try:
        return run(binary, root, names, processes)
    finally:
        processes.stop_all()


def run(binary, root, names, processes):
    origin = processes.start([binary, "origin", "--root", root, "--listen", "127.0.0.1:0", "--auto-webp"],
                             os.path.join(OUT, "origin.log"))
    origin_address = urllib.parse.urlsplit(wait_listening(origin, name="origin")).netloc
    fetch(f"http://{origin_address}/healthz", process=origin)
    faults = FaultUpstream(origin_address)
    threading.Thread(target=faults.serve_forever, daemon=True).start()
    fault_address = f"127.0.0.1:{faults.server_address[1]}"
    bridge, bridge_address = start_bridge(processes, binary, fault_address, OUT, "soak")
    fetch(f"http://{bridge_address}/__bridge/healthz", process=bridge)
    work = {
        "origin": [f"/{n}" for n in names] + [f"/{n}?imageView2/2/w/{w}" for n in names for w in (320, 480)],
        "bridge": [f"/{n}" for n in names],
    }
    checker = ImageChecker(binary)
    load = Load({"origin": origin_address, "bridge": bridge_address}, work, checker)
    print(f"soak: origin {origin_address}, bridge {bridge_address} -> faults {fault_address} -> origin; "
          f"{len(names)} photos, {CLIENTS} clients per route, {MINUTES:g} min (warm-up {WARMUP:g} min); "
          f"fault rates {RATES}, client abort rate {ABORT_RATE}")

    # Pre-warm: every path once per client kind on each route, so the caches hold the working set.
    for route, paths in work.items():
        for path in paths:
            for name, accept, agent in CLIENT_KINDS:
                try:
                    connection = http.client.HTTPConnection(load.routes[route], timeout=REQUEST_TIMEOUT)
                    connection.request("GET", path, headers=client_headers(accept, agent))
                    connection.getresponse().read()
                    connection.close()
                except (OSError, http.client.HTTPException):
                    pass
    threads = [threading.Thread(target=load.thread, args=(i * 2 + j, route), daemon=True)
               for i in range(CLIENTS) for j, route in enumerate(("origin", "bridge"))]
    for thread in threads:
        thread.start()
    servers = {"origin": origin, "bridge": bridge}
    samples = []
    started = time.time()
    print(f"{'min':>4} {'requests':>9}  " + "  ".join(f"{n + ' RSS MiB':>15} {'fds':>4} {'thr':>4}" for n in servers)
          + "  errors")
    ok = True
    minute = 0
    try:
        while minute < MINUTES:
            load.running.set()
            minute += 1
            end = started + minute * 60
            while time.time() < end:
                time.sleep(min(1, max(0, end - time.time())))
                for name, process in servers.items():
                    if process.poll() is not None:
                        print(f"soak: {name} exited with {process.returncode}")
                        return 1
            load.drain(faults)
            stats = {name: proc_stats(process.pid) for name, process in servers.items()}
            samples.append((minute, stats))
            with load.lock:
                errors = {k: v for k, v in sorted(load.statuses.items()) if not k.endswith(" 200")}
                requests = load.requests
            print(f"{minute:4d} {requests:9d}  " + "  ".join(
                f"{stats[n][0] / 2**20:15.1f} {stats[n][1]:4d} {stats[n][2]:4d}" for n in servers)
                + f"  {errors}", flush=True)
    finally:
        load.stop.set()
        load.running.set()
        faults.release.set()
    with faults.lock:
        print(f"faults injected: {faults.counts}")
    with load.lock:
        print(f"answers: {dict(sorted(load.statuses.items()))}; distinct bodies decoded: {checker.decoded}")
        broken = sum(v for k, v in load.statuses.items() if k.endswith(" broken") or k.endswith(" cross-served"))
    for problem in load.problems[:20]:
        print(f"  {problem}")
    if broken:
        print(f"soak: FAIL {broken} broken or cross-served answers")
        ok = False
    after_warmup = [sample for sample in samples if sample[0] >= WARMUP]
    if len(after_warmup) < 2:
        print(f"soak: too short to compare with the warm-up ({len(samples)} samples, warm-up {WARMUP:g} min)")
        return 1 if not ok else 0
    # One sample moves with the connections in flight (the bridge's fds go 17..20 from minute to
    # minute), so the rule compares medians of WINDOW samples: the first after warm-up, the last.
    window = max(1, min(WINDOW, len(after_warmup) // 2))
    first, last = after_warmup[:window], after_warmup[-window:]
    span = (f"minutes {first[0][0]}-{first[-1][0]}", f"minutes {last[0][0]}-{last[-1][0]}")
    for name in servers:
        for index, what in ((0, "RSS"), (1, "fds"), (2, "threads")):
            before = statistics.median(stats[name][index] for _, stats in first)
            after = statistics.median(stats[name][index] for _, stats in last)
            scale = 2**20 if index == 0 else 1
            line = f"{name} {what} (median): {before / scale:.1f} over {span[0]}, {after / scale:.1f} over {span[1]}"
            if index == 2:
                print(line)  # shown, not judged (as before)
                continue
            growth = (after - before) / before if before else 0
            print(f"{line} ({growth * 100:+.1f}%) {'ok' if growth <= MAX_GROWTH else 'FAIL'}")
            ok = ok and growth <= MAX_GROWTH
    print("soak: " + ("PASS" if ok else "FAIL") + f"; logs in {OUT}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
