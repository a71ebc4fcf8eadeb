"""What an HTTP answer's body really is, for the cluster test and the soak.

`ImageChecker.check` names a body's format from its first bytes
(scripts/bridgekit.py's `sniff`), decodes it completely with the format's
reference decoder (dwebp, avifdec, djpeg; PNG, GIF and animated WebP through
`webp-bridge convert`) and with `webp-bridge info`, and says whether it is a
whole, valid image of the format its bytes claim.
Identical bodies (a cache hit returns the same bytes) are decoded once: the
verdicts are remembered by SHA-256, at most MAX_REMEMBERED of them.
`submit` decodes on DECODERS background threads instead, through a queue of at
most QUEUE_BOUND bodies (a full queue makes the caller wait), so a load
generator keeps its pace; `finish` waits for the queue to empty.
"""
import hashlib
import json
import os
import queue
import subprocess
import tempfile
import threading
import time

from scripts.bridgekit import sniff

MAX_REMEMBERED = 20000
DECODE_TIMEOUT = 60
DECODERS = 2
QUEUE_BOUND = 64


def accepted_formats(accept):
    """Formats a client with this Accept can show: the ones it names with q > 0, and the
    sources (JPEG, PNG, GIF), which every client shows. `image/*` and `*/*` name none."""
    named = set()
    for item in (accept or "").split(","):
        parts = [p.strip() for p in item.split(";")]
        kind, q = parts[0].lower(), 1.0
        for parameter in parts[1:]:
            if parameter.lower().startswith("q="):
                try:
                    q = float(parameter[2:])
                except ValueError:
                    q = 0.0
        if q > 0 and kind in ("image/webp", "image/avif"):
            named.add(kind.split("/")[1])
    return named | {"jpeg", "png", "gif"}


class ImageChecker:
    """Decodes bodies with the reference decoders; thread-safe."""

    def __init__(self, webp_bridge):
        self.webp_bridge = webp_bridge
        self.lock = threading.Lock()
        self.verdicts = {}
        self.decoded = 0
        self.folder = tempfile.mkdtemp(prefix="webp-bridge-imagecheck-")
        self.queue = queue.Queue(maxsize=QUEUE_BOUND)
        self.workers = []

    def submit(self, body, on_problem):
        """Decodes `body` in the background unless it was seen; calls on_problem(reason) if it is broken."""
        digest = hashlib.sha256(body).hexdigest()
        with self.lock:
            known = self.verdicts.get(digest, "unknown")
            if known is None:
                return
            if known != "unknown":
                on_problem(known)
                return
            if not self.workers:
                self.workers = [threading.Thread(target=self._work, daemon=True) for _ in range(DECODERS)]
                for worker in self.workers:
                    worker.start()
        self.queue.put((body, on_problem))

    def _work(self):
        while True:
            body, on_problem = self.queue.get()
            try:
                verdict = self.check(body)
                if verdict:
                    on_problem(verdict)
            finally:
                self.queue.task_done()

    def finish(self, timeout):
        """Waits up to `timeout` seconds for every submitted body; False when some are left."""
        deadline = time.time() + timeout
        while self.queue.unfinished_tasks and time.time() < deadline:
            time.sleep(0.1)
        return not self.queue.unfinished_tasks

    def check(self, body):
        """None when `body` is a whole image of its sniffed format, else why not."""
        digest = hashlib.sha256(body).hexdigest()
        with self.lock:
            if digest in self.verdicts:
                return self.verdicts[digest]
        verdict = self._decode(body, digest)
        with self.lock:
            if len(self.verdicts) < MAX_REMEMBERED:
                self.verdicts[digest] = verdict
            self.decoded += 1
        return verdict

    def _decode(self, body, digest):
        sniffed = sniff(body)
        if sniffed is None:
            return f"not an image ({body[:16]!r})"
        kind = sniffed.format
        # Two threads may decode the same body at once: each its own files.
        stem = f"{digest}-{threading.get_ident()}"
        path = os.path.join(self.folder, f"{stem}.{kind}")
        with open(path, "wb") as f:
            f.write(body)
        try:
            info = subprocess.run([self.webp_bridge, "info", "--json", path], capture_output=True, text=True,
                                  timeout=DECODE_TIMEOUT)
            # A build without AVIF in `info` still has avifdec as the judge of an AVIF.
            if info.returncode != 0 and kind != "avif":
                return f"webp-bridge info refused the {kind}: {info.stderr.strip()[:200]}"
            if info.returncode == 0:
                facts = json.loads(info.stdout.splitlines()[0])
                if facts.get("format", "").lower() not in (kind, "jpg" if kind == "jpeg" else kind):
                    return f"webp-bridge info says {facts.get('format')}, the bytes say {kind}"
            out = os.path.join(self.folder, f"{stem}.out")
            if kind == "webp" and not sniffed.animated:  # dwebp decodes no animation
                command = ["dwebp", "-quiet", path, "-ppm", "-o", out]
            elif kind == "avif":
                command = ["avifdec", path, out + ".png"]
            elif kind == "jpeg":
                command = ["djpeg", "-outfile", out, path]
            else:
                command = [self.webp_bridge, "convert", path, out + ".pam"]
            decoded = subprocess.run(command, capture_output=True, text=True, timeout=DECODE_TIMEOUT)
            if decoded.returncode != 0:
                return f"{command[0]} could not decode the {kind}: {(decoded.stderr or decoded.stdout).strip()[:200]}"
            # djpeg decodes what it can of a truncated JPEG and only warns.
            if kind == "jpeg" and "Premature end" in decoded.stderr:
                return f"truncated JPEG: {decoded.stderr.strip()[:200]}"
            return None
        except subprocess.TimeoutExpired:
            return f"decoding the {kind} took over {DECODE_TIMEOUT}s"
        finally:
            for leftover in os.listdir(self.folder):
                if leftover.startswith(stem):
                    os.unlink(os.path.join(self.folder, leftover))
