"""Tests of scripts/bridgekit.py (`make test-scripts`, part of `make test`), on synthetic bytes and
short-lived local processes only; and that every script in bench/ and e2e/ imports and uses it."""
import ast
import os
import pathlib
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
import unittest
import zlib

from scripts import bridgekit
from scripts.bridgekit import ImageKind, sniff

ROOT = pathlib.Path(__file__).resolve().parent.parent


def png_chunk(kind, data=b""):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
IHDR = png_chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 6, 0, 0, 0))
ACTL = png_chunk(b"acTL", struct.pack(">II", 2, 0))
IDAT = png_chunk(b"IDAT", zlib.compress(b"\x00\x00\x00\x00\x00"))
IEND = png_chunk(b"IEND")


def riff_webp(first_chunk):
    body = b"WEBP" + first_chunk
    return b"RIFF" + struct.pack("<I", len(body)) + body


def vp8x(flags):
    return b"VP8X" + struct.pack("<I", 10) + bytes([flags, 0, 0, 0]) + b"\x00" * 6


def ftyp(major, *compatible):
    body = major + b"\x00\x00\x00\x00" + b"".join(compatible)
    return struct.pack(">I", 8 + len(body)) + b"ftyp" + body


class SniffTests(unittest.TestCase):
    def test_still_formats(self):
        cases = {
            b"\xff\xd8\xff\xe0\x00\x10JFIF\x00": ImageKind("jpeg"),
            PNG_SIGNATURE + IHDR + IDAT + IEND: ImageKind("png"),
            b"GIF87a\x01\x00\x01\x00": ImageKind("gif"),
            b"GIF89a\x01\x00\x01\x00": ImageKind("gif"),
            riff_webp(b"VP8 " + b"\x00" * 10): ImageKind("webp"),
            riff_webp(b"VP8L" + b"\x00" * 10): ImageKind("webp"),
            riff_webp(vp8x(0x10)): ImageKind("webp"),  # alpha only
            ftyp(b"avif", b"mif1", b"miaf"): ImageKind("avif"),
        }
        for body, expected in cases.items():
            with self.subTest(body=body[:16]):
                self.assertEqual(sniff(body), expected)

    def test_animations(self):
        self.assertEqual(sniff(PNG_SIGNATURE + IHDR + ACTL + IDAT + IEND), ImageKind("png", True))
        self.assertEqual(sniff(riff_webp(vp8x(0x02))), ImageKind("webp", True))
        self.assertEqual(sniff(riff_webp(vp8x(0x12))), ImageKind("webp", True))
        self.assertEqual(sniff(ftyp(b"avis", b"avif", b"msf1")), ImageKind("avif", True))

    def test_media_types(self):
        self.assertEqual(sniff(PNG_SIGNATURE + IHDR + ACTL + IDAT).media_type, "image/apng")
        self.assertEqual(sniff(PNG_SIGNATURE + IHDR + IDAT).media_type, "image/png")
        self.assertEqual(sniff(riff_webp(vp8x(0x02))).media_type, "image/webp")
        self.assertEqual(sniff(ftyp(b"avis", b"avif")).media_type, "image/avif")

    def test_avif_by_compatible_brand(self):
        """The major brand need not be avif (mif1 with avif among the compatible brands is common)."""
        self.assertEqual(sniff(ftyp(b"mif1", b"mif1", b"avif", b"miaf")), ImageKind("avif"))
        self.assertEqual(sniff(ftyp(b"mif1", b"miaf", b"avis")), ImageKind("avif", True))

    def test_brands_past_the_ftyp_box_do_not_count(self):
        box = ftyp(b"mif1", b"miaf")
        self.assertIsNone(sniff(box + struct.pack(">I", 16) + b"meta" + b"avif" + b"\x00" * 4))

    def test_actl_after_idat_is_not_an_apng(self):
        self.assertEqual(sniff(PNG_SIGNATURE + IHDR + IDAT + ACTL + IEND), ImageKind("png"))

    def test_truncated_and_foreign_bodies(self):
        for body in (b"", b"\xff\xd8", b"\x89PNG", b"GIF8", b"RIFF\x00\x00\x00\x00WAVE", b"RIFF",
                     ftyp(b"heic", b"mif1", b"heic"), b"\x00\x00\x00\x0cftyp", b"<html>", b"not an image"):
            with self.subTest(body=body):
                self.assertIsNone(sniff(body))
        # Cut anywhere inside its chunks, an APNG or a still PNG is still a PNG, never an error.
        apng = PNG_SIGNATURE + IHDR + ACTL + IDAT
        for cut in range(8, len(apng)):
            with self.subTest(cut=cut):
                self.assertEqual(sniff(apng[:cut]).format, "png")
        self.assertEqual(sniff(riff_webp(vp8x(0x02))[:20]), ImageKind("webp"))


class MetricsTests(unittest.TestCase):
    TEXT = """# HELP webpbridge_proxy_requests_total Requests.
# TYPE webpbridge_proxy_requests_total counter
webpbridge_proxy_requests_total{outcome="webp"} 12
webpbridge_proxy_requests_total{outcome="transcoded"} 3
webpbridge_proxy_transcodes_running 0
webpbridge_proxy_transcode_seconds_bucket{le="0.5",kind="jpeg"} 2.5e1
webpbridge_origin_variant_cache_total{result="miss"} 7
process_resident_memory_bytes 123
"""

    def test_short_names_under_a_prefix(self):
        values = bridgekit.parse_metrics(self.TEXT, "webpbridge_proxy_")
        self.assertEqual(values, {"requests_total:webp": 12.0, "requests_total:transcoded": 3.0,
                                  "transcodes_running": 0.0, "transcode_seconds_bucket:0.5,jpeg": 25.0})
        self.assertEqual(bridgekit.parse_metrics(self.TEXT)["origin_variant_cache_total:miss"], 7.0)

    def test_delta(self):
        before = {"a": 1.0, "b": 5.0}
        after = {"a": 4.0, "b": 5.0, "c": 2.0}
        self.assertEqual(bridgekit.metrics_delta(before, after), {"a": 3.0, "b": 0.0, "c": 2.0})


SERVER = """
import http.server, sys, time
time.sleep(float(sys.argv[1]))
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = b"ok"
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *args):
        print("request", flush=True)
server = http.server.HTTPServer(("127.0.0.1", 0), H)
print(f"listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
server.serve_forever()
"""


class ProcessTests(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="bridgekit-test-")
        self.log = os.path.join(self.folder, "server.log")
        self.processes = bridgekit.Processes()

    def tearDown(self):
        self.processes.stop_all(timeout=5)
        shutil.rmtree(self.folder, ignore_errors=True)

    def server(self, delay=0.0, pipe=False):
        return self.processes.start([sys.executable, "-c", SERVER, str(delay)], self.log, pipe=pipe)

    def test_listening_line_from_the_log_then_200(self):
        process = self.server(0.2)
        url = bridgekit.wait_listening(process, timeout=20)
        self.assertRegex(url, r"^http://127\.0\.0\.1:\d+$")
        self.assertEqual(bridgekit.fetch(url + "/", process=process), (b"ok", "text/plain"))

    def test_listening_line_from_a_pipe_which_is_then_drained(self):
        process = self.server(pipe=True)
        url = bridgekit.wait_listening(process, timeout=20)
        for _ in range(200):  # each request logs a line to the pipe; a full pipe would block the server
            self.assertEqual(bridgekit.get(url + "/").status, 200)

    def test_a_server_that_exits_first_is_an_error_with_its_output(self):
        process = self.processes.start([sys.executable, "-c", "print('no port free'); raise SystemExit(3)"],
                                       self.log)
        with self.assertRaises(bridgekit.ServerError) as raised:
            bridgekit.wait_listening(process, timeout=20)
        self.assertIn("no port free", str(raised.exception.code))

    def test_a_silent_server_times_out(self):
        process = self.processes.start([sys.executable, "-c", "import time; time.sleep(60)"], self.log)
        with self.assertRaises(bridgekit.ServerError):
            bridgekit.wait_listening(process, timeout=0.3)

    def test_stop_ends_the_whole_group_and_kills_what_ignores_sigterm(self):
        # A parent that ignores SIGTERM, and a child (same group) that ignores it too.
        code = ("import signal, subprocess, sys, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
                "child = subprocess.Popen([sys.executable, '-c', 'import signal, time; "
                "signal.signal(signal.SIGTERM, signal.SIG_IGN); print(\"child\", flush=True); time.sleep(60)']); "
                "time.sleep(60)")
        process = self.processes.start([sys.executable, "-c", code], self.log)
        bridgekit.wait_for_line(process, self.log, r"^child$", timeout=20)
        members = bridgekit.group_pids(process)
        self.assertEqual(len(members), 2)
        bridgekit.stop([process], timeout=0.5)
        self.assertEqual(process.returncode, -signal.SIGKILL)
        for pid in members[1:]:  # SIGKILL is delivered asynchronously: until the child is gone (or a zombie)
            deadline = time.monotonic() + 10
            while bridgekit._alive(pid) and time.monotonic() < deadline:
                time.sleep(0.05)
            self.assertFalse(bridgekit._alive(pid), f"pid {pid} of the group survived")

    def test_cli_waits_on_a_shell_started_pid(self):
        process = self.server(0.2)
        out = subprocess.run([sys.executable, "-m", "scripts.bridgekit", "listening", self.log, str(process.pid),
                              "20"], capture_output=True, text=True, cwd=ROOT, timeout=60)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertRegex(out.stdout.strip(), r"^http://127\.0\.0\.1:\d+$")

    def test_cpu_seconds_of_a_busy_process(self):
        process = self.processes.start([sys.executable, "-c", "import time\nend = time.process_time() + 0.3\n"
                                        "while time.process_time() < end: pass\nprint('done', flush=True)\n"
                                        "time.sleep(60)"], self.log)
        bridgekit.wait_for_line(process, self.log, r"^done$", timeout=20)
        self.assertGreaterEqual(bridgekit.cpu_seconds([process.pid]), 0.2)
        status = bridgekit.process_status(process.pid)
        self.assertGreater(status["VmRSS"], 0)
        self.assertGreaterEqual(status["Threads"], 1)


class ScriptsUseTheModuleTests(unittest.TestCase):
    """Every Python script of bench/ and e2e/ imports (it parses and its imports resolve) and
    takes the shared helpers from bridgekit instead of defining its own."""

    SHARED = {"sniff", "free_port", "wait_ready", "wait_for_listening", "wait_http", "fetch", "read_metrics",
              "metrics_delta", "bridge_metrics", "cpu_seconds", "children", "stop", "process_tree"}

    def scripts(self):
        return sorted(p for folder in ("bench", "e2e") for p in (ROOT / folder).glob("*.py")
                      if p.name != "__init__.py")

    def test_no_script_defines_a_shared_helper(self):
        for path in self.scripts():
            tree = ast.parse(path.read_text(), str(path))
            defined = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
            with self.subTest(script=path.name):
                self.assertEqual(defined & self.SHARED, set())

    def test_every_script_imports(self):
        for path in self.scripts():
            module = f"{path.parent.name}.{path.stem}"
            with self.subTest(script=module):
                result = subprocess.run([sys.executable, "-c", f"import {module}"], cwd=ROOT, capture_output=True,
                                        text=True, timeout=60, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
                self.assertEqual(result.returncode, 0, result.stderr)


if __name__ == "__main__":
    unittest.main()
