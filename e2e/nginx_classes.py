#!/usr/bin/env python3
"""Driver for `make nginx-classes`: the nginx recipe's format class against
the one Accept table (Tests/WebPBridgeTests/Fields/Resources/accept-classes.json),
the table AcceptHeader is tested with (AcceptClassTableTests).

deploy/nginx/webp-bridge.conf is rendered as make e2e-cluster renders it
(deploy/nginx/render.py), with both tiers' upstream a stub on 127.0.0.1
that answers every request 200, no-store, with the Accept it received as
its body. nginx runs unprivileged under this script on two free ports
(nginx cannot take port 0). Every row is sent, as raw bytes, to both tiers;
the class nginx chose is the one the recipe already exposes in
X-WebP-Bridge-Class (the image tier: `avif`, `webp` or `original`; the
bridge tier: the same and the agent class) and the Accept the stub received
must be that class's canonical Accept.

The client-hint table (Tests/WebPBridgeTests/Fields/Resources/hint-buckets.json, the one
ClientHints is tested with) is sent to the image tier too: for each row the stub must have received
exactly `Sec-CH-Width: BUCKET` (none when the row has no bucket) and `Save-Data: on` when the row
saves data, and no other hint field; nginx's key parts are in X-WebP-Bridge-Hints. The recipe's maps
are also checked to be what deploy/nginx/hint_maps.py writes.

A row nginx gets wrong is either cross-served (nginx chose a format the
client did not accept: never allowed) or under-served (nginx chose less than
the client accepts: allowed only for a row whose `nginx` field names that
lesser class, where the recipe errs towards original on purpose). Prints the
counts per tier and each wrong row; exits 1 when any row is wrong.

usage: python3 -m e2e.nginx_classes [TEMPLATE]   (default deploy/nginx/webp-bridge.conf)
Logs: NGINX_CLASSES_OUT (.build/nginx-classes).
"""
import http.server
import json
import os
import shutil
import socket
import subprocess
import sys
import threading

from scripts.bridgekit import Processes, exit_on_signals, fetch, free_port

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE = os.path.join(ROOT, "Tests", "WebPBridgeTests", "Fields", "Resources", "accept-classes.json")
HINT_TABLE = os.path.join(ROOT, "Tests", "WebPBridgeTests", "Fields", "Resources", "hint-buckets.json")
# The request fields the recipe reads hints from; upstream it may send only Sec-CH-Width and Save-Data.
HINT_FIELDS = ["Sec-CH-Width", "Width", "Sec-CH-Viewport-Width", "Viewport-Width", "Sec-CH-DPR", "DPR", "Save-Data"]
OUT = os.path.abspath(os.environ.get("NGINX_CLASSES_OUT", os.path.join(ROOT, ".build", "nginx-classes")))
AGENT = "nginx-classes"  # the bridge tier's agent class for it: other
# What each class sends upstream (the recipe's $webp_bridge_canonical_accept).
CANONICAL_ACCEPT = {"avif": "image/avif,image/webp,*/*", "webp": "image/webp,*/*", "original": "*/*"}
# A class offers the formats of those before it: original < webp < avif.
RANK = {"original": 0, "webp": 1, "avif": 2}


class Stub(http.server.BaseHTTPRequestHandler):
    """The upstream of both tiers: 200, the Accept it received as the body, never cached; one request
    per connection (no keep-alive race between nginx reusing a connection and the stub closing it)."""

    protocol_version = "HTTP/1.1"

    def do_GET(self):
        body = (self.headers.get("Accept") or "").encode("latin-1")
        self.send_response(200)
        # The hint fields it received, for the hint rows: `name=value` joined by `|`.
        seen = [f"{name}={value}" for name in HINT_FIELDS for value in self.headers.get_all(name) or []]
        self.send_header("X-Seen-Hints", "|".join(seen))
        self.send_header("Content-Type", "text/plain")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.close_connection = True
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def ask(host_port, path, accept):
    """(status, fields lower-cased, body) for one GET with ACCEPT sent as its UTF-8 bytes (None: no Accept)."""
    host, port = host_port.rsplit(":", 1)
    head = f"GET {path} HTTP/1.1\r\nHost: {host_port}\r\nUser-Agent: {AGENT}\r\nConnection: close\r\n".encode()
    if accept is not None:
        head += b"Accept: " + accept.encode("utf-8") + b"\r\n"
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        connection.sendall(head + b"\r\n")
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    top, _, body = answer.partition(b"\r\n\r\n")
    lines = top.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ")[1]) if lines and lines[0].startswith("HTTP/") else 0
    fields = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        fields[name.strip().lower()] = value.strip()
    return status, fields, body


def ask_with(host_port, path, fields):
    """(status, fields lower-cased) for one GET with FIELDS (name, value) sent as their UTF-8 bytes."""
    host, port = host_port.rsplit(":", 1)
    head = f"GET {path} HTTP/1.1\r\nHost: {host_port}\r\nUser-Agent: {AGENT}\r\nConnection: close\r\n".encode()
    for name, value in fields:
        head += name.encode() + b": " + value.encode("utf-8") + b"\r\n"
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        connection.sendall(head + b"\r\n")
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    top = answer.partition(b"\r\n\r\n")[0].decode("latin-1").split("\r\n")
    status = int(top[0].split(" ")[1]) if top and top[0].startswith("HTTP/") else 0
    found = {}
    for line in top[1:]:
        name, _, value = line.partition(":")
        found[name.strip().lower()] = value.strip()
    return status, found


def check_hints(host_port, rows):
    """Sends every hint row to the image tier; returns the wrong rows as (index, text)."""
    wrong = []
    for index, row in enumerate(rows):
        status, fields = ask_with(host_port, f"/hints/row-{index + 1}", list(row["headers"].items()))
        expected = []
        if row["bucket"] is not None:
            expected.append(f"Sec-CH-Width={row['bucket']}")
        if row["saveData"]:
            expected.append("Save-Data=on")
        seen = fields.get("x-seen-hints", "")
        label = f"{row['bucket'] or ''} {'on' if row['saveData'] else ''}"
        if status != 200:
            wrong.append((index, f"status {status}"))
        elif seen != "|".join(expected) or fields.get("x-webp-bridge-hints", "") != label.strip():
            wrong.append((index, f"upstream got {seen!r}, key {fields.get('x-webp-bridge-hints')!r}; "
                                 f"table: bucket {row['bucket']}, saveData {row['saveData']}"))
    return wrong


def problem(row, chosen, seen):
    """None when nginx is right (or wrong as the row allows), else (kind, text)."""
    expected = row["class"]
    if chosen == expected:
        return None if seen == CANONICAL_ACCEPT[expected] else (
            "wrong upstream Accept", f"upstream got {seen!r}")
    if chosen not in RANK:
        return "no class", f"nginx class {chosen!r}"
    if RANK[chosen] > RANK[expected]:
        return "cross-served", f"nginx {chosen}, table {expected}"
    if row.get("nginx") == chosen:
        return None  # a documented inexact row, erring towards original
    return "under-served", f"nginx {chosen}, table {expected}"


def check(tier, host_port, rows, suffix):
    """Sends every row to one tier; returns the wrong rows as (index, kind, text) and how many rows
    got the lesser class their `nginx` field allows."""
    wrong, lesser = [], 0
    for index, row in enumerate(rows):
        status, fields, body = ask(host_port, f"/{tier}/row-{index + 1}", row["accept"])
        label = fields.get("x-webp-bridge-class", "")
        chosen = label[:-len(suffix)] if suffix and label.endswith(suffix) else (label if not suffix else "")
        if status != 200:
            wrong.append((index, "status", f"status {status}, class {label!r}"))
            continue
        found = problem(row, chosen, body.decode("latin-1"))
        if found:
            wrong.append((index, *found))
        elif chosen != row["class"]:
            lesser += 1
    return wrong, lesser


def main(argv):
    template = os.path.abspath(argv[0]) if argv else os.path.join(ROOT, "deploy", "nginx", "webp-bridge.conf")
    with open(TABLE) as f:
        rows = json.load(f)
    for index, row in enumerate(rows):
        allowed = row.get("nginx")
        if allowed is not None and not RANK.get(allowed, 9) < RANK[row["class"]]:
            sys.exit(f"nginx-classes: row {index + 1}: `nginx` may only name a class below `class`")
    shutil.rmtree(OUT, ignore_errors=True)
    state = os.path.join(OUT, "nginx")
    for folder in ("temp", "cache"):
        os.makedirs(os.path.join(state, folder))
    os.chmod(OUT, 0o755)

    stub = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Stub)
    threading.Thread(target=stub.serve_forever, daemon=True).start()
    upstream = f"server 127.0.0.1:{stub.server_address[1]};"
    image_tier, bridge_tier = f"127.0.0.1:{free_port()}", f"127.0.0.1:{free_port()}"
    conf = os.path.join(state, "nginx.conf")
    subprocess.run([sys.executable, os.path.join(ROOT, "deploy", "nginx", "render.py"), template, conf,
                    f"STATE_DIR={state}", f"ORIGIN_TIER_LISTEN={image_tier}", f"BRIDGE_TIER_LISTEN={bridge_tier}",
                    f"ORIGIN_SERVERS={upstream}", f"BRIDGE_SERVERS={upstream}", "CACHE_MAX_SIZE=16m"], check=True)

    processes = Processes()
    exit_on_signals("nginx-classes")
    try:
        nginx = processes.start(["nginx", "-p", state, "-e", os.path.join(state, "error.log"), "-c", conf,
                                 "-g", "daemon off;"], os.path.join(OUT, "nginx.log"))
        fetch(f"http://{image_tier}/ready", process=nginx)
        fetch(f"http://{bridge_tier}/ready", process=nginx)
        results = {"image": check("image", image_tier, rows, ""),
                   "bridge": check("bridge", bridge_tier, rows, " other")}
        with open(HINT_TABLE) as f:
            hint_rows = json.load(f)["rows"]
        hint_wrong = check_hints(image_tier, hint_rows)
    finally:
        processes.stop_all()
        stub.shutdown()

    print(f"nginx-classes: {os.path.relpath(template, ROOT)} against {os.path.relpath(TABLE, ROOT)}, "
          f"{len(rows)} rows, each to both tiers")
    allowed = sum(1 for row in rows if "nginx" in row)
    failed = False
    for tier, (wrong, lesser) in results.items():
        kinds = {}
        for _, kind, _ in wrong:
            kinds[kind] = kinds.get(kind, 0) + 1
        print(f"  {tier} tier: {len(wrong)} of {len(rows)} rows wrong{f' {kinds}' if kinds else ''}; "
              f"{lesser} of the {allowed} rows where the recipe errs towards original did")
        for index, kind, text in wrong:
            accept = rows[index]["accept"]
            shown = "no header" if accept is None else repr(accept if len(accept) <= 90 else accept[:90] + "...")
            print(f"    row {index + 1} ({rows[index]['note']}): {kind}: {text}; {shown}")
        failed = failed or bool(wrong)
    generated = subprocess.run([sys.executable, os.path.join(ROOT, "deploy", "nginx", "hint_maps.py"), "--check",
                                template]).returncode == 0
    print(f"  hints (image tier): {len(hint_wrong)} of {len(hint_rows)} rows of "
          f"{os.path.relpath(HINT_TABLE, ROOT)} wrong; maps as hint_maps.py writes them: {generated}")
    for index, text in hint_wrong:
        print(f"    hint row {index + 1} ({hint_rows[index]['note']}): {text}; {hint_rows[index]['headers']}")
    failed = failed or bool(hint_wrong) or not generated
    errors = os.path.join(state, "error.log")
    if os.path.exists(errors) and os.path.getsize(errors):
        print(f"  nginx error log not empty: {errors}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
