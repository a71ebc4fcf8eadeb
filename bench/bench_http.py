#!/usr/bin/env python3
"""Driver for `make bench-http`: the image origin against nginx serving the
same bytes from disk, side by side in one run, on loopback only.

Every load is bounded: `wrk -t2 -c32 -d<DURATION>s` per case and round.
Origin and nginx take turns, BENCH_ROUNDS times (3 by default), and the
medians are reported: on a machine shared with other work a single pass
can swing by 2x either way. Besides requests/s and p99 latency, each
server's CPU time per request (user + system, from /proc, over wrk's
request count) is reported: it depends far less on how the scheduler
shares the cores than throughput does. With a third argument (the
HTTPServerBenchmark binary), the bare server's 12-byte answer is measured
too, immediate and asynchronous.
"""
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

DURATION = int(os.environ.get("BENCH_SECONDS", "10"))
CONNECTIONS = int(os.environ.get("BENCH_CONNECTIONS", "32"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))


def cpu_seconds(pids):
    """User + system CPU time of processes so far (Linux /proc; 0 elsewhere)."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            pass
    return total / os.sysconf("SC_CLK_TCK")


def children(pid):
    out = subprocess.run(["ps", "--ppid", str(pid), "-o", "pid="], capture_output=True, text=True).stdout
    return [int(x) for x in out.split()]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_ready(url, timeout=20):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                return response.read()
        except Exception:
            time.sleep(0.1)
    sys.exit(f"server at {url} did not answer within {timeout}s")


def wrk(url, pids=()):
    """Requests/s, p99 ms, non-2xx/3xx count, and CPU microseconds per request of `pids`."""
    before = cpu_seconds(pids)
    out = subprocess.run(
        ["wrk", "-t2", f"-c{CONNECTIONS}", f"-d{DURATION}s", "--latency", url],
        check=True, capture_output=True, text=True).stdout
    cpu = cpu_seconds(pids) - before
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)", out)
    scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}[p99.group(2)]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return rps, float(p99.group(1)) * scale, (int(errors.group(1)) if errors else 0), cpu * 1e6 / max(requests, 1)


def median_of(runs):
    return tuple(statistics.median(run[i] for run in runs) for i in range(4))


def start_bare(binary, mode):
    port = free_port()
    process = subprocess.Popen([binary, str(port), "2", mode], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/"
    wait_ready(url)
    return process, url


def start_origin(binary, root):
    process = subprocess.Popen(
        [binary, "origin", "--root", root, "--listen", "127.0.0.1:0"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    first = process.stdout.readline().strip()
    match = re.match(r"listening on (http://\S+)", first)
    if not match:
        process.kill()
        sys.exit(f"origin did not start: {first!r}")
    # Drain the per-request log so the pipe never blocks the server.
    drain = subprocess.Popen(["cat"], stdin=process.stdout, stdout=subprocess.DEVNULL)
    return process, drain, match.group(1)


def start_nginx(root, work):
    port = free_port()
    conf = os.path.join(work, "nginx.conf")
    with open(conf, "w") as f:
        f.write(f"""
worker_processes 2;
daemon off;
pid {work}/nginx.pid;
error_log {work}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 100000;
    types {{ image/jpeg jpg; image/webp webp; }}
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
    process = subprocess.Popen(["nginx", "-p", work, "-c", conf], stderr=subprocess.DEVNULL)
    return process, f"http://127.0.0.1:{port}"


def main():
    binary, corpus = sys.argv[1:3]
    bare_binary = sys.argv[3] if len(sys.argv) > 3 else None
    photo = os.path.join(corpus, "kodak", "kodim01.png")
    if not os.path.exists(photo):
        sys.exit(f"no Kodak photo at {photo}")
    work = tempfile.mkdtemp(prefix="bench-http-")
    os.chmod(work, 0o755)  # nginx workers run as an unprivileged user
    processes = []
    try:
        root = os.path.join(work, "root")
        os.makedirs(root)
        # The plain file: the Kodak photo as a JPEG q90, as a CMS publishes it.
        subprocess.run([binary, "convert", photo, os.path.join(root, "photo.jpg"), "--quality", "90"], check=True)
        origin, drain, origin_url = start_origin(binary, root)
        processes += [origin, drain]
        variant_path = "/photo.jpg?imageView2/2/w/750/format/webp"
        variant = wait_ready(origin_url + variant_path)  # also warms the variant cache
        # nginx serves the very same bytes from disk.
        with open(os.path.join(root, "variant.webp"), "wb") as f:
            f.write(variant)
        nginx, nginx_url = start_nginx(root, work)
        processes.append(nginx)
        wait_ready(nginx_url + "/variant.webp")
        nginx_pids = [nginx.pid] + children(nginx.pid)

        cases = [
            ("cached WebP variant", origin_url + variant_path, nginx_url + "/variant.webp", len(variant)),
            ("plain file", origin_url + "/photo.jpg", nginx_url + "/photo.jpg",
             os.path.getsize(os.path.join(root, "photo.jpg"))),
        ]
        print(f"wrk -t2 -c{CONNECTIONS} -d{DURATION}s on 127.0.0.1, {ROUNDS} alternating rounds, medians; "
              "origin and nginx serve the same bytes; cpu = server CPU time per request\n")
        print(f"{'case':<22}{'bytes':>8}{'origin req/s':>14}{'p99 ms':>8}{'cpu us':>8}"
              f"{'nginx req/s':>13}{'p99 ms':>8}{'cpu us':>8}{'req/s ratio':>13}{'cpu ratio':>11}")
        for name, origin_case, nginx_case, size in cases:
            origin_runs, nginx_runs = [], []
            for _ in range(ROUNDS):
                origin_runs.append(wrk(origin_case, [origin.pid]))
                nginx_runs.append(wrk(nginx_case, nginx_pids))
            o_rps, o_p99, o_err, o_cpu = median_of(origin_runs)
            n_rps, n_p99, n_err, n_cpu = median_of(nginx_runs)
            print(f"{name:<22}{size:>8}{o_rps:>14.0f}{o_p99:>8.2f}{o_cpu:>8.1f}{n_rps:>13.0f}{n_p99:>8.2f}"
                  f"{n_cpu:>8.1f}{o_rps / n_rps:>12.2f}x{n_cpu / o_cpu if o_cpu else 0:>10.2f}x")
            print(f"  {'':<20}origin req/s per round: {', '.join(f'{run[0]:.0f}' for run in origin_runs)}; "
                  f"nginx: {', '.join(f'{run[0]:.0f}' for run in nginx_runs)}")
            if o_err or n_err:
                print(f"  non-2xx responses (median of rounds): origin {o_err:.0f}, nginx {n_err:.0f}")
        if bare_binary:
            print("\nbare HTTPServer, 12-byte body (HTTPServerBenchmark, 2 threads):")
            for mode in ["immediate", "async"]:
                bare, url = start_bare(bare_binary, mode)
                processes.append(bare)
                rps, p99, _, cpu = median_of([wrk(url, [bare.pid]) for _ in range(ROUNDS)])
                print(f"  {mode:<10}{rps:>10.0f} req/s  p99 {p99:6.2f} ms  cpu {cpu:5.1f} us/req")
                bare.send_signal(signal.SIGTERM)
                bare.wait(timeout=15)
    finally:
        for process in processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in processes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
