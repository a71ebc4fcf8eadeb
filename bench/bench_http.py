#!/usr/bin/env python3
"""Driver for `make bench-http`: the image origin against nginx serving the
same bytes from disk, side by side in one run, on loopback only.

Every load is bounded: `wrk -t2 -c32 -d<DURATION>s` per case. Reports
requests/s and p99 latency of each, and origin/nginx ratios.
"""
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

DURATION = int(os.environ.get("BENCH_SECONDS", "10"))
CONNECTIONS = int(os.environ.get("BENCH_CONNECTIONS", "32"))


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


def wrk(url):
    out = subprocess.run(
        ["wrk", "-t2", f"-c{CONNECTIONS}", f"-d{DURATION}s", "--latency", url],
        check=True, capture_output=True, text=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)", out)
    scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}[p99.group(2)]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    socket_errors = re.search(r"Socket errors: (.*)", out)
    return rps, float(p99.group(1)) * scale, (int(errors.group(1)) if errors else 0), socket_errors


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

        cases = [
            ("cached WebP variant", origin_url + variant_path, nginx_url + "/variant.webp", len(variant)),
            ("plain file", origin_url + "/photo.jpg", nginx_url + "/photo.jpg",
             os.path.getsize(os.path.join(root, "photo.jpg"))),
        ]
        print(f"wrk -t2 -c{CONNECTIONS} -d{DURATION}s on 127.0.0.1, one run; origin and nginx serve the same bytes\n")
        print(f"{'case':<22}{'bytes':>9}{'origin req/s':>15}{'p99 ms':>9}{'nginx req/s':>14}{'p99 ms':>9}{'origin/nginx':>14}")
        for name, origin_case, nginx_case, size in cases:
            o_rps, o_p99, o_err, _ = wrk(origin_case)
            n_rps, n_p99, n_err, _ = wrk(nginx_case)
            print(f"{name:<22}{size:>9}{o_rps:>15.0f}{o_p99:>9.2f}{n_rps:>14.0f}{n_p99:>9.2f}{o_rps / n_rps:>13.2f}x")
            if o_err or n_err:
                print(f"  non-2xx responses: origin {o_err}, nginx {n_err}")
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
