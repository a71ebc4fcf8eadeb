#!/usr/bin/env python3
"""Instructions per request of the cache-hit paths, under callgrind: the
figure that stays put on a busy machine, where `make bench-http`'s CPU
microseconds swing with the load.

    python3 -m bench.callgrind_http <webp-bridge> <corpus> [REQUESTS] [OUT_DIR]

Runs `webp-bridge origin` under `valgrind --tool=callgrind`, warms its
caches, and then for each case asks callgrind for a dump (`callgrind_control
-d`: every dump holds only what ran since the previous one), sends REQUESTS
(2000 by default) keep-alive GETs from one connection, and dumps again; the
second dump's instruction count over the requests sent is the case's cost
per request, every thread of the server included (the request-log writer
too). Then the same for `webp-bridge proxy` under callgrind in front of a
plain origin: the bridge's cache hit. A dump is taken when callgrind next
runs the server's code, so each dump is nudged with `/healthz` requests until
it is written; those few (counted and printed) add well under 1% at 2000.
Prints the three figures and leaves the dumps in OUT_DIR for
`callgrind_annotate`. CALLGRIND_ORIGIN_FLAGS adds flags to the measured
origin's command line (e.g. `--max-head-memory 32`, to tell one change from
another).
"""
import glob
import http.client
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse

from scripts.bridgekit import start, stop, wait_listening

REQUESTS = int(sys.argv[3]) if len(sys.argv) > 3 else 2000
WEBP_CLIENT = {"Accept": "image/webp"}
# More flags for the measured origin, e.g. CALLGRIND_ORIGIN_FLAGS="--max-head-memory 32".
ORIGIN_FLAGS = os.environ.get("CALLGRIND_ORIGIN_FLAGS", "").split()


# libdispatch's signal thread calls sigsuspend() on a mask in read-only memory, and valgrind
# 3.19's rt_sigsuspend wrapper writes to the mask it is given: valgrind itself dies of SIGSEGV
# ("VALGRIND INTERNAL ERROR") as soon as the server is up. Preloaded under valgrind only, this
# sigsuspend passes the kernel a copy on the stack instead; the server's own code is unchanged.
SIGSUSPEND_SHIM = r"""
#define _GNU_SOURCE
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>
int sigsuspend(const sigset_t *mask) {
    sigset_t copy = *mask;
    return (int)syscall(SYS_rt_sigsuspend, &copy, _NSIG / 8);
}
"""


def build_shim(out_dir):
    source = os.path.join(out_dir, "sigsuspend_copy.c")
    library = os.path.join(out_dir, "sigsuspend_copy.so")
    with open(source, "w") as f:
        f.write(SIGSUSPEND_SHIM)
    subprocess.run(["cc", "-shared", "-fPIC", "-O2", "-o", library, source], check=True)
    return library


def start_server(command, out_dir, name, under_valgrind):
    """COMMAND (under callgrind when UNDER_VALGRIND): (process, host, port) once it listens."""
    prefix = []
    environment = dict(os.environ)
    if under_valgrind:
        # Names in full in every dump: a later dump's compressed names refer to an earlier one's
        # definitions, which callgrind_annotate cannot follow.
        prefix = ["valgrind", "--tool=callgrind", "--compress-strings=no",
                  f"--callgrind-out-file={out_dir}/{name}.%p"]
        environment["LD_PRELOAD"] = build_shim(out_dir)
    process = start(prefix + command, pipe=True, env=environment)
    # Valgrind takes its time loading every library's debug info.
    url = urllib.parse.urlsplit(wait_listening(process, timeout=600, name=name))
    return process, url.hostname, url.port


def get(connection, path, headers=None):
    connection.request("GET", path, headers=headers or {})
    response = connection.getresponse()
    body = response.read()
    if response.status != 200:
        sys.exit(f"GET {path}: {response.status}")
    return body


def dump(process, out_dir, name, connection, nudge_path):
    """Asks callgrind for a dump and nudges the server until it is written;
    returns the dump's file and the number of nudges."""
    before = set(glob.glob(f"{out_dir}/{name}.{process.pid}.*"))
    control = subprocess.Popen(["callgrind_control", "-d", str(process.pid)], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    nudges = 0
    while control.poll() is None:
        get(connection, nudge_path)
        nudges += 1
        time.sleep(0.05)
    for _ in range(100):
        new = set(glob.glob(f"{out_dir}/{name}.{process.pid}.*")) - before
        if new:
            return new.pop(), nudges
        time.sleep(0.1)
    sys.exit("callgrind wrote no dump")


def instructions(path):
    with open(path) as f:
        for line in f:
            if line.startswith("summary:") or line.startswith("totals:"):
                return int(line.split()[1])
    sys.exit(f"no totals in {path}")


def measure(process, out_dir, name, connection, path, headers=None, nudge_path="/healthz"):
    dump(process, out_dir, name, connection, nudge_path)
    for _ in range(REQUESTS):
        get(connection, path, headers)
    out, nudges = dump(process, out_dir, name, connection, nudge_path)
    total = instructions(out)
    return total / REQUESTS, nudges, out


def main():
    binary, corpus = sys.argv[1:3]
    out_dir = sys.argv[4] if len(sys.argv) > 4 else tempfile.mkdtemp(prefix="callgrind-http-")
    os.makedirs(out_dir, exist_ok=True)
    root = tempfile.mkdtemp(prefix="callgrind-root-")
    subprocess.run([binary, "convert", os.path.join(corpus, "kodak", "kodim01.png"),
                    os.path.join(root, "photo.jpg"), "--quality", "90"], check=True)
    processes = []
    results = []
    try:
        origin, host, port = start_server([binary, "origin", "--root", root, "--listen", "127.0.0.1:0"] + ORIGIN_FLAGS,
                                   out_dir, "origin", True)
        processes.append(origin)
        connection = http.client.HTTPConnection(host, port, timeout=120)
        variant = "/photo.jpg?imageView2/2/w/750/format/webp"
        for path in [variant, "/photo.jpg", "/healthz"]:
            for _ in range(20):
                get(connection, path)
        for label, path in [("origin cached variant", variant), ("origin plain file", "/photo.jpg")]:
            per_request, nudges, out = measure(origin, out_dir, "origin", connection, path)
            results.append((label, per_request, nudges, out))
        connection.close()
        origin.send_signal(signal.SIGINT)
        origin.wait(timeout=120)

        plain, host, port = start_server([binary, "origin", "--root", root, "--listen", "127.0.0.1:0"],
                                  out_dir, "plain", False)
        processes.append(plain)
        bridge, host, port = start_server(
            [binary, "proxy", "--upstream", f"http://{host}:{port}", "--preset", "qiniu", "--host", host,
             "--width", "750", "--listen", "127.0.0.1:0"], out_dir, "bridge", True)
        processes.append(bridge)
        connection = http.client.HTTPConnection(host, port, timeout=120)
        for _ in range(20):
            get(connection, "/photo.jpg", WEBP_CLIENT)
        connection.request("GET", "/__bridge/healthz")
        connection.getresponse().read()
        per_request, nudges, out = measure(bridge, out_dir, "bridge", connection, "/photo.jpg", WEBP_CLIENT,
                                           nudge_path="/__bridge/healthz")
        results.append(("bridge cache hit", per_request, nudges, out))
        connection.close()
    finally:
        # SIGINT, and time for valgrind to write its last dump.
        stop(processes, signal.SIGINT, timeout=120)
    print(f"callgrind, {REQUESTS} keep-alive GETs on one connection per case; instructions per request "
          "(all threads), nudges = /healthz requests sent while a dump was pending")
    for label, per_request, nudges, out in results:
        print(f"  {label:<24}{per_request:>10.0f} Ir/request   nudges {nudges:<3} {out}")


if __name__ == "__main__":
    main()
