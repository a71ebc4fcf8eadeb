#!/usr/bin/env python3
"""Driver for `make bench-origin`: variants made on a miss, the origin
(`webp-bridge origin`) against thumbor (PyPI, Pillow engine, two processes),
over the same photos, on loopback only.

Both servers get the same list of requests in each round: every photo at
widths just below the set's target (750 px, or a little under the narrowest
photo), each (photo, width) asked once per server, so neither can answer from
a cache; WebP at quality 80 in each grammar:
  origin   /NAME?imageView2/2/w/W/format/webp/q/80
  thumbor  /unsafe/Wx0/filters:format(webp):quality(80)/NAME
Two clients at a time (`origin-benchmark load`), each request on a new
connection (`Connection: close`, a plain socket client) so thumbor's two
processes share the load
(on kept-alive connections both clients could stay on one process for a
whole round, halving its variants/s), BENCH_ROUNDS alternating
rounds (3 by default; the first server alternates), each bounded by
BENCH_ROUND_SECONDS. Reported per photo set, medians over the rounds:
variants/s, the server's CPU ms per variant (user + system of the server's
processes, from /proc, before and after the round), mean bytes per variant,
and the mean luma SSIM of the first round's variants against the source
resized (Lanczos 3) to the variant's size (`origin-benchmark quality`).

With BENCH_ORIGIN_BASELINE set to another webp-bridge binary, it runs as a third
server, "before", and the origin is compared with it too (rounds rotate the order).
BENCH_ORIGIN_METHODS (say "2" or "2,3") adds the origin once more per libwebp
method named, run with `--webp-method M` ("origin-mM"), compared with thumbor
the same way.

usage: python3 -m bench.bench_origin WEBP_BRIDGE ORIGIN_BENCHMARK THUMBOR NAME=DIR...
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

from scripts.bridgekit import cpu_seconds, fetch, free_port, group_pids, start, stop

ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
ROUND_SECONDS = float(os.environ.get("BENCH_ROUND_SECONDS", "60"))
# Requests per photo per round.
PER_PHOTO = int(os.environ.get("BENCH_PER_PHOTO", "8"))
# Another webp-bridge binary, run as a third server ("before") over the same requests.
BASELINE = os.environ.get("BENCH_ORIGIN_BASELINE")
# libwebp methods to run the origin at as well (`--webp-method`), comma-separated.
METHODS = [m.strip() for m in os.environ.get("BENCH_ORIGIN_METHODS", "").split(",") if m.strip()]
CLIENTS = 2
TARGET_WIDTH = 750
QUALITY = 80


def jpeg_or_png_size(path):
    """(width, height) from a JPEG's frame header or a PNG's IHDR."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    i = 2
    while i + 9 < len(data):
        marker, length = data[i + 1], int.from_bytes(data[i + 2:i + 4], "big")
        if marker in (0xC0, 0xC1, 0xC2):
            return int.from_bytes(data[i + 7:i + 9], "big"), int.from_bytes(data[i + 5:i + 7], "big")
        i += 2 + length
    sys.exit(f"{path}: no JPEG frame header")


class Origin:
    def __init__(self, binary, root, name="origin", flags=()):
        self.name = name
        port = free_port()
        # The per-request log goes to /dev/null: a reader would take CPU from the servers.
        self.process = start([binary, "origin", "--root", root, "--listen", f"127.0.0.1:{port}", *flags])
        self.base = f"http://127.0.0.1:{port}"

    def url(self, name, width):
        return f"{self.base}/{name}?imageView2/2/w/{width}/format/webp/q/{QUALITY}"

    def pids(self):
        return [self.process.pid]


class Thumbor:
    name = "thumbor"

    def __init__(self, binary, root, folder):
        conf = os.path.join(folder, "thumbor.conf")
        with open(conf, "w") as f:
            f.write(f"LOADER = 'thumbor.loaders.file_loader'\nFILE_LOADER_ROOT_PATH = {root!r}\n"
                    "STORAGE = 'thumbor.storages.no_storage'\nRESULT_STORAGE = None\n")
        port = free_port()
        # A process group of its own (bridgekit.start): its worker processes are stopped with it.
        self.process = start([binary, "--conf", conf, "--ip", "127.0.0.1", "--port", str(port), "--processes", "2",
                              "--log-level", "error"])
        self.base = f"http://127.0.0.1:{port}"

    def url(self, name, width):
        return f"{self.base}/unsafe/{width}x0/filters:format(webp):quality({QUALITY})/{name}"

    def pids(self):
        return group_pids(self.process)


def load(benchmark, server, requests, folder, tag):
    """One round on one server: (answers, variants/s, CPU ms per variant, bytes, outputs)."""
    listing = os.path.join(folder, f"{tag}.list")
    outputs = []
    with open(listing, "w") as f:
        for name, width in requests:
            output = os.path.join(folder, f"{tag}-{width}-{name}.webp")
            outputs.append((name, output))
            f.write(f"{server.url(name, width)}\t{output}\n")
    pids = server.pids()
    before = cpu_seconds(pids)
    result = subprocess.run([benchmark, "load", str(CLIENTS), str(ROUND_SECONDS), listing],
                            capture_output=True, text=True, timeout=ROUND_SECONDS + 120)
    cpu = cpu_seconds(pids) - before
    if result.returncode != 0 or not result.stdout.startswith("load "):
        sys.exit(f"{server.name}: load failed: {result.stderr.strip()}")
    answers, failures, seconds, total_bytes = result.stdout.split()[1:5]
    answers, failures, seconds, total_bytes = int(answers), int(failures), float(seconds), int(total_bytes)
    if failures:
        sys.exit(f"{server.name}: {failures} failed requests: {result.stderr.strip()}")
    if answers < len(requests):
        print(f"  {server.name}: only {answers} of {len(requests)} requests within {ROUND_SECONDS:.0f}s")
    return answers, answers / seconds, cpu * 1000 / max(answers, 1), total_bytes, outputs[:answers]


def quality(benchmark, root, outputs, folder, tag):
    listing = os.path.join(folder, f"{tag}-quality.list")
    with open(listing, "w") as f:
        for name, output in outputs:
            f.write(f"{os.path.join(root, name)}\t{output}\n")
    result = subprocess.run([benchmark, "quality", listing], capture_output=True, text=True, timeout=900)
    if result.returncode != 0:
        sys.exit(f"quality failed: {result.stderr.strip()}")
    return float(result.stdout.split()[2])


def origin_root(folder, photos):
    """Copies `photos` into `folder`/root for an origin to serve; returns the root, the sorted file
    names and the widest variant width every photo can give (TARGET_WIDTH, or 12 px under the
    narrowest photo), so that no variant enlarges."""
    root = os.path.join(folder, "root")
    os.mkdir(root)
    for path in photos:
        # Copies, not symlinks: the origin refuses links that leave its root.
        shutil.copy(path, os.path.join(root, os.path.basename(path)))
    names = sorted(os.path.basename(p) for p in photos)
    top = min(TARGET_WIDTH, min(jpeg_or_png_size(p)[0] for p in photos) - 12)
    return root, names, top


def bench_set(label, photos, webp_bridge, benchmark, thumbor_binary):
    folder = tempfile.mkdtemp(prefix=f"bench-origin-{label}-")
    try:
        root, names, top = origin_root(folder, photos)
        # Distinct widths per photo across every round: no answer can come from a cache.
        widths = iter(range(top, 0, -1))
        rounds = []
        for _ in range(ROUNDS):
            rounds.append([(name, width) for width in [next(widths) for _ in range(PER_PHOTO)] for name in names])
        servers = [Origin(webp_bridge, root), Thumbor(thumbor_binary, root, folder)]
        if BASELINE:
            servers.append(Origin(BASELINE, root, "before"))
        servers += [Origin(webp_bridge, root, f"origin-m{m}", ["--webp-method", m]) for m in METHODS]
        try:
            warm = next(widths)
            for server in servers:
                for name in names:
                    fetch(server.url(name, warm), process=server.process)
            print(f"{label}: {len(names)} photos, widths {top - ROUNDS * PER_PHOTO + 1}-{top}, "
                  f"{len(rounds[0])} variants per round and server, {CLIENTS} clients, {ROUNDS} rounds")
            results = {server.name: [] for server in servers}
            first_outputs = {}
            for index, requests in enumerate(rounds):
                order = servers[index % len(servers):] + servers[:index % len(servers)]
                for server in order:
                    answers, rate, cpu, total_bytes, outputs = load(
                        benchmark, server, requests, folder, f"{server.name}-{index}")
                    results[server.name].append((rate, cpu, total_bytes / max(answers, 1)))
                    print(f"  round {index + 1} {server.name:9} {rate:6.1f} variants/s {cpu:6.1f} ms CPU "
                          f"{total_bytes / max(answers, 1):8.0f} B")
                    if index == 0:
                        first_outputs[server.name] = outputs
            summary = {}
            for server in servers:
                runs = results[server.name]
                summary[server.name] = (
                    statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs),
                    statistics.mean(r[2] for r in runs),
                    quality(benchmark, root, first_outputs[server.name], folder, server.name))
        finally:
            stop(server.process for server in servers)
        return summary
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    webp_bridge, benchmark, thumbor_binary = sys.argv[1:4]
    table = []
    for argument in sys.argv[4:]:
        label, folder = argument.split("=", 1)
        photos = sorted(os.path.join(folder, f) for f in os.listdir(folder)
                        if f.lower().endswith((".jpg", ".jpeg", ".png")))
        if not photos:
            print(f"{label}: no photos in {folder}; skipped")
            continue
        table.append((label, bench_set(label, photos, webp_bridge, benchmark, thumbor_binary)))
    print()
    print(f"{'photos':8} {'server':9} {'variants/s':>10} {'CPU ms':>8} {'bytes':>8} {'SSIM':>7}")
    for label, summary in table:
        for name, (rate, cpu, size, ssim) in summary.items():
            print(f"{label:8} {name:9} {rate:10.1f} {cpu:8.1f} {size:8.0f} {ssim:7.4f}")
        theirs = summary["thumbor"]
        for row, name in [("ratio", "origin")] + [(f"m{m}/thumb", f"origin-m{m}") for m in METHODS]:
            ours = summary[name]
            print(f"{label:8} {row:9} {ours[0] / theirs[0]:9.2f}x {theirs[1] / ours[1]:7.2f}x "
                  f"{(ours[2] / theirs[2] - 1) * 100:+7.1f}% {ours[3] - theirs[3]:+7.4f}")
        if "before" in summary:
            before = summary["before"]
            ours = summary["origin"]
            print(f"{label:8} {'o/before':9} {ours[0] / before[0]:9.2f}x {before[1] / ours[1]:7.2f}x "
                  f"{(ours[2] / before[2] - 1) * 100:+7.1f}% {ours[3] - before[3]:+7.4f}")
    print("ratio: origin/thumbor variants/s, thumbor/origin CPU per variant, origin's bytes against thumbor's, "
          "SSIM difference (mM/thumb: the same for the origin at --webp-method M; "
          "o/before: the origin against BENCH_ORIGIN_BASELINE)")


if __name__ == "__main__":
    main()
