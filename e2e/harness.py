"""What the cluster test (cluster.py) and the soak (soak.py) share: the client
kinds, the bridge under the legacy policy, one keep-alive connection per
route for each client thread, and the check of one 200 answer (whole, of a
format its client accepts, the Content-Type saying the same). Starting,
waiting on and stopping servers is scripts/bridgekit.py's.
"""
import http.client
import os
import time
import urllib.parse

from scripts.bridgekit import MIME, sniff, wait_listening

from .imagecheck import accepted_formats

REQUEST_TIMEOUT = 60
BRIDGE_WIDTH = 750

IOS13 = ("Mozilla/5.0 (iPhone; CPU iPhone OS 13_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
         "Version/13.1.2 Mobile/15E148 Safari/604.1")
IPAD = ("Mozilla/5.0 (iPad; CPU OS 12_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
        "Mobile/15E148")
GTK = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.0 Safari/605.1.15"
CHROME = ("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 "
          "Safari/537.36")
FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:115.0) Gecko/20100101 Firefox/115.0"
CURL = "curl/7.88.1"

# (name, Accept or None, User-Agent)
CLIENT_KINDS = [
    ("chrome-avif", "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8", CHROME),
    ("firefox-webp", "image/webp,*/*", FIREFOX),
    ("avif-only", "image/avif,*/*", CURL),
    ("webp-q0", "image/webp;q=0,image/*;q=0.8", CURL),
    ("image-star", "image/*", CURL),
    ("no-accept", None, CURL),
    ("ios13-webview", "image/png,image/svg+xml,image/*;q=0.8,video/*;q=0.8,*/*;q=0.5", IOS13),
    ("webkitgtk", "image/webp,image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5", GTK),
    ("ipad-webp", "image/webp,*/*", IPAD),
    # What the nginx map must read right: spaces, a zero q in two spellings, upper case, a longer name.
    ("webp-q0-spaced", "image/webp ; q=0.0, image/png", CURL),
    ("avif-q0", "image/avif;q=0,image/webp,*/*", CURL),
    ("upper-webp", "IMAGE/WEBP,*/*", CURL),
    ("webpx", "image/webpx,*/*", CURL),
]


def client_headers(accept, agent):
    """The request headers of one client kind: its User-Agent, and its Accept when it sends one."""
    return {"User-Agent": agent, **({"Accept": accept} if accept is not None else {})}


def agent_class(user_agent):
    if "iPad" in user_agent:
        return "tablet"
    return "webkit" if "AppleWebKit" in user_agent else "other"


def start_bridge(processes, binary, upstream, out, rule_name):
    """`webp-bridge proxy` in front of UPSTREAM (HOST:PORT) under the legacy policy (AppleWebKit
    transcoded, iPads passed through) with a Qiniu rule for 127.0.0.1; returns (process, HOST:PORT)."""
    rules = os.path.join(out, "bridge-rules.json")
    with open(rules, "w") as f:
        f.write(f'{{"rules": [{{"name": "{rule_name}", "hosts": ["127.0.0.1"], "dialect": "qiniu", '
                f'"width": {BRIDGE_WIDTH}}}], "client": {{"webpSupport": "apple-webkit", '
                '"excludedDeviceClasses": ["tablet"]}}\n')
    bridge = processes.start([binary, "proxy", "--upstream", f"http://{upstream}", "--config", rules,
                              "--listen", "127.0.0.1:0"], os.path.join(out, "bridge.log"))
    return bridge, urllib.parse.urlsplit(wait_listening(bridge, name="bridge")).netloc


class Connections:
    """One client thread's keep-alive connection per route (HOST:PORT by route name).

    A connection last used more than REUSE_SECONDS ago is replaced rather than reused, as a
    browser does: nginx closes a client connection idle for keepalive_timeout (30 s in
    deploy/nginx/webp-bridge.conf), and a request sent as that close crosses it fails with
    RemoteDisconnected, a failure of the test's client, not of the servers."""

    REUSE_SECONDS = 10

    def __init__(self, routes):
        self.routes, self.open, self.last_used = routes, {}, {}

    def get(self, route):
        now = time.monotonic()
        if now - self.last_used.get(route, now) > self.REUSE_SECONDS:
            self.drop(route)
        if route not in self.open:
            self.open[route] = http.client.HTTPConnection(self.routes[route], timeout=REQUEST_TIMEOUT)
        self.last_used[route] = now
        return self.open[route]

    def drop(self, route):
        """Closes ROUTE's connection (after an error or a hang-up); the next `get` opens a new one."""
        connection = self.open.pop(route, None)
        if connection:
            connection.close()

    def drop_all(self):
        for route in list(self.open):
            self.drop(route)


def answer_problem(route, accept, agent, response, body):
    """What is wrong with a 200 answer on ROUTE ("origin" or "bridge") to a client with ACCEPT and
    AGENT: ("broken", text) for a body shorter or longer than its Content-Length, ("cross-served",
    text) for a format the client does not accept or a Content-Type that names another; None when
    it is right so far (the body is then decoded by imagecheck.py)."""
    length = response.getheader("Content-Length")
    if length is not None and int(length) != len(body):
        return "broken", f"{len(body)} of {length} bytes"
    sniffed = sniff(body)
    kind = sniffed.format if sniffed else None
    content_type = response.getheader("Content-Type", "")
    allowed = accepted_formats(accept)
    if route == "bridge" and agent_class(agent) == "webkit":
        allowed = {"jpeg", "png", "gif"}  # the legacy policy: an AppleWebKit WebView never gets WebP
    if kind not in allowed:
        return "cross-served", f"got {kind} ({content_type}); accepts {sorted(allowed)}"
    if content_type.split(";")[0].strip() not in (MIME[kind], sniffed.media_type):
        return "cross-served", f"body is {kind}, Content-Type says {content_type}"
    return None
