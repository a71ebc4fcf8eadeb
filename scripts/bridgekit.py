"""What the scripts in bench/ and e2e/ share, in one place.

- Image bytes: `sniff` names the format a body starts with (JPEG, PNG and APNG,
  GIF, WebP and animated WebP, AVIF by its ftyp brands, image sequences too).
- Servers: `start` runs a command in a process group of its own, its output
  appended to a log file (or a pipe); `wait_listening` waits, bounded, for the
  `listening on http://HOST:PORT` line every webp-bridge server prints first;
  `fetch` asks a URL until it answers 200; `stop` ends processes with their whole
  group, SIGKILL after a grace period; `exit_on_signals` turns SIGTERM and SIGINT
  into an exit that runs the callers' `finally` (so their servers are stopped).
- Metrics: `parse_metrics`, `scrape` and `read_metrics` read Prometheus text as
  short names (`requests_total:webp` for `webpbridge_proxy_requests_total{outcome="webp"}`
  under the prefix `webpbridge_proxy_`); `metrics_delta` is what each gained.
- Processes' figures, from /proc (Linux): `cpu_seconds`, `process_status` (VmRSS, Threads...),
  `group_pids`.

Scripts run as modules from the project's root (`python3 -m e2e.cluster ...`),
so `from scripts.bridgekit import ...` needs no path set-up. Run by hand:
`python3 -m scripts.bridgekit listening LOG PID [SECONDS]` (and `wait`, `free-port`)
are the same waits for shell scripts (e2e/run.sh). Its tests: scripts/test_bridgekit.py.
"""
import http.client
import os
import re
import select
import signal
import socket
import subprocess
import sys
import threading
import time
import typing
import urllib.error
import urllib.request

START_TIMEOUT = 30
STOP_TIMEOUT = 15
MIME = {"webp": "image/webp", "avif": "image/avif", "jpeg": "image/jpeg", "png": "image/png", "gif": "image/gif"}
LISTENING = r"^listening on (http://\S+)"


class ServerError(SystemExit):
    """A server that did not start or answer in time: exits the script with the reason (its
    `finally` blocks still run), unless caught."""


# Image bytes.

class ImageKind(typing.NamedTuple):
    """What a body's first bytes say: a format (a key of MIME) and whether it is animated
    (APNG, animated WebP, an AVIF image sequence; a GIF is never called animated)."""
    format: str
    animated: bool = False

    @property
    def media_type(self):
        return "image/apng" if self.format == "png" and self.animated else MIME[self.format]


def sniff(body):
    """The ImageKind that BODY starts with, or None (not an image this project serves)."""
    if body[:3] == b"\xff\xd8\xff":
        return ImageKind("jpeg")
    if body[:8] == b"\x89PNG\r\n\x1a\n":
        return ImageKind("png", _png_has_actl(body))
    if body[:6] in (b"GIF87a", b"GIF89a"):
        return ImageKind("gif")
    if body[:4] == b"RIFF" and body[8:12] == b"WEBP":
        # An animation is a VP8X header with its ANIM flag (0x02) set (RFC 9649, section 2.7).
        return ImageKind("webp", body[12:16] == b"VP8X" and len(body) > 20 and bool(body[20] & 0x02))
    brands = _ftyp_brands(body)
    if b"avif" in brands or b"avis" in brands:
        return ImageKind("avif", b"avis" in brands)
    return None


def _png_has_actl(body):
    """Whether an acTL chunk comes before the first IDAT: an APNG (an acTL after it does not count)."""
    offset = 8
    while offset + 8 <= len(body):
        length, kind = int.from_bytes(body[offset:offset + 4], "big"), body[offset + 4:offset + 8]
        if kind == b"acTL":
            return True
        if kind == b"IDAT":
            return False
        offset += 12 + length
    return False


def _ftyp_brands(body):
    """The major and compatible brands of an ISO BMFF file's leading ftyp box (empty when none)."""
    if body[4:8] != b"ftyp" or len(body) < 12:
        return []
    size = int.from_bytes(body[:4], "big")
    end = len(body) if size == 0 else min(size, len(body))  # 0: the box runs to the end of the file
    return [body[8:12]] + [body[offset:offset + 4] for offset in range(16, end - 3, 4)]


# Processes.

def free_port():
    """A TCP port on 127.0.0.1 that was free a moment ago (for servers that cannot take port 0)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(command, log=os.devnull, pipe=False, env=None):
    """COMMAND in a process group of its own (so `stop` ends whatever it starts too), stdin
    closed, stdout and stderr appended to LOG; with PIPE, stdout is a pipe for `wait_listening`
    instead (stderr still to LOG). The Popen remembers LOG as `.log`."""
    with open(log, "ab") as output:
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL,
                                   stdout=subprocess.PIPE if pipe else output, stderr=output,
                                   env=env, start_new_session=True)
    process.log = log
    return process


def _alive(process):
    """Whether PROCESS (a Popen, or a pid started by a shell) still runs; a zombie does not."""
    if isinstance(process, subprocess.Popen):
        return process.poll() is None
    try:
        with open(f"/proc/{process}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        try:
            os.kill(process, 0)
            return True
        except ProcessLookupError:
            return False
        except PermissionError:
            return True


def wait_for_line(process, log, pattern, timeout=START_TIMEOUT, name=None):
    """The first match of PATTERN (a regex, multi-line) in what PROCESS writes: its stdout pipe
    when it was started with `pipe=True` (then read to its end on a thread, so the pipe never
    fills and blocks the server), else the LOG file, read again every 0.1 s. PROCESS is a Popen
    or a pid. Raises ServerError, with the output so far, when the process exits first or
    TIMEOUT seconds pass."""
    name = name or os.path.basename(str(getattr(process, "args", [process])[0]))
    deadline = time.monotonic() + timeout
    stream = getattr(process, "stdout", None)
    seen, ended = b"", False
    while True:
        if stream is not None:
            ready, _, _ = select.select([stream], [], [], max(0.0, min(0.1, deadline - time.monotonic())))
            chunk = os.read(stream.fileno(), 1 << 16) if ready else b""
            seen, ended = seen + chunk, bool(ready) and not chunk
        else:
            try:
                with open(log, "rb") as f:
                    seen = f.read()
            except OSError:
                seen = b""
        text = seen.decode(errors="replace")
        match = re.search(pattern, text, re.M)
        if match:
            if stream is not None:
                threading.Thread(target=_drain, args=(stream.fileno(),), daemon=True).start()
            return match
        if ended or not _alive(process):
            raise ServerError(f"{name} exited before printing {pattern!r}; its output:\n{_last_lines(text)}")
        if time.monotonic() >= deadline:
            raise ServerError(f"{name} did not print {pattern!r} within {timeout}s; its output:\n"
                              f"{_last_lines(text)}")
        if stream is None:
            time.sleep(0.1)


def _drain(fd):
    try:
        while os.read(fd, 1 << 17):
            pass
    except OSError:  # closed by `stop`
        pass


def _last_lines(text, count=20):
    return "\n".join(text.rstrip().splitlines()[-count:])


def wait_listening(process, log=None, timeout=START_TIMEOUT, name=None):
    """The `http://HOST:PORT` a webp-bridge server prints first (`listening on ...`); see wait_for_line."""
    return wait_for_line(process, log if log is not None else getattr(process, "log", None), LISTENING,
                         timeout, name).group(1)


def group_pids(process):
    """PROCESS's pid and every other process of its group (nginx's or thumbor's workers)."""
    pids = [process.pid]
    try:
        entries = os.listdir("/proc")
    except OSError:
        return pids
    for entry in entries:
        if entry.isdigit() and int(entry) != process.pid:
            try:
                with open(f"/proc/{entry}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[2]) == process.pid:
                        pids.append(int(entry))
            except (OSError, IndexError, ValueError):
                pass
    return pids


def stop(processes, sig=signal.SIGTERM, timeout=STOP_TIMEOUT):
    """Sends SIG to the group of every process given (each one's own, from `start`), waits up to
    TIMEOUT seconds in all for them to exit, then SIGKILLs what is left of each group (workers
    that outlived their parent too). A process already reaped is left alone: its pid, and so its
    group's id, may belong to someone else by now. Safe to call twice."""
    processes = list(processes)
    live = [process for process in processes if process.returncode is None]
    for process in live:
        _signal_group(process, sig)
    deadline = time.monotonic() + timeout
    for process in live:
        try:
            process.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            pass
        _signal_group(process, signal.SIGKILL)
        process.wait()
    for process in processes:
        if process.stdout:
            process.stdout.close()


def _signal_group(process, sig):
    try:
        os.killpg(process.pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


class Processes(list):
    """The processes a script started, to stop together (`stop_all`) on any exit."""

    def start(self, command, log=os.devnull, pipe=False, env=None):
        process = start(command, log, pipe, env)
        self.append(process)
        return process

    def stop_all(self, sig=signal.SIGTERM, timeout=STOP_TIMEOUT):
        stop(reversed(self), sig, timeout)


def exit_on_signals(program):
    """SIGTERM and SIGINT end the script through SystemExit, so its `finally` blocks stop what it
    started (its servers, each in a group of its own, get no signal from the terminal or `timeout`)."""
    def handler(number, _frame):
        raise SystemExit(f"{program}: stopped by signal {number}")
    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)


def process_status(pid):
    """/proc/PID/status as {field: its first number} (kB for the Vm* fields: VmRSS, VmHWM; Threads)."""
    values = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            name, _, rest = line.partition(":")
            if rest.split() and rest.split()[0].isdigit():
                values[name] = int(rest.split()[0])
    return values


def cpu_seconds(pids):
    """User + system CPU time of processes so far (Linux /proc; 0 for what cannot be read)."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            pass
    return total / os.sysconf("SC_CLK_TCK")


# HTTP.

class Answer(typing.NamedTuple):
    status: int
    content_type: str
    body: bytes


def get(url, headers=None, timeout=START_TIMEOUT):
    """One GET of URL: an Answer, whatever its status; OSError when there is none."""
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return Answer(response.status, response.headers.get("Content-Type", ""), response.read())
    except urllib.error.HTTPError as error:
        try:
            body = error.read()
        except OSError:
            body = b""
        finally:
            error.close()
        return Answer(error.code, (error.headers or {}).get("Content-Type", ""), body)


def fetch(url, headers=None, timeout=START_TIMEOUT, process=None):
    """(body, Content-Type) of URL once it answers 200, asked again every 0.1 s; ServerError
    after TIMEOUT seconds, or as soon as PROCESS (the server) has exited."""
    deadline = time.monotonic() + timeout
    last = "no answer"
    while time.monotonic() < deadline:
        if process is not None and not _alive(process):
            raise ServerError(f"the server for {url} exited ({getattr(process, 'returncode', None)})")
        try:
            answer = get(url, headers, timeout=max(1.0, min(10.0, deadline - time.monotonic())))
            if answer.status == 200:
                return answer.body, answer.content_type
            last = f"HTTP {answer.status}"
        except (OSError, ValueError, http.client.HTTPException) as error:
            last = f"{type(error).__name__}: {error}"
        time.sleep(0.1)
    raise ServerError(f"{url} did not answer 200 within {timeout}s ({last})")


# Metrics.

def parse_metrics(text, prefix="webpbridge_"):
    """Prometheus text as {short name: value} for the series whose name starts with PREFIX:
    the name without it, then `:` and the label values (comma-separated) when it has labels:
    `requests_total:webp` for `webpbridge_proxy_requests_total{outcome="webp"}` under
    `webpbridge_proxy_`."""
    values = {}
    for line in text.splitlines():
        match = re.match(r"([A-Za-z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)", line)
        if not match or not match.group(1).startswith(prefix):
            continue
        name, labels, value = match.groups()
        key = name[len(prefix):]
        if labels:
            key += ":" + ",".join(re.findall(r'="((?:[^"\\]|\\.)*)"', labels))
        try:
            values[key] = float(value)
        except ValueError:
            pass
    return values


def scrape(url, prefix="webpbridge_", timeout=10):
    """A server's metrics (URL: its /metrics or /__bridge/metrics) through `parse_metrics`."""
    answer = get(url, timeout=timeout)
    if answer.status != 200:
        raise OSError(f"{url}: HTTP {answer.status}")
    return parse_metrics(answer.body.decode("utf-8", errors="replace"), prefix)


def read_metrics(path, prefix="webpbridge_"):
    """A scrape saved to a file, through `parse_metrics`."""
    with open(path, encoding="utf-8", errors="replace") as f:
        return parse_metrics(f.read(), prefix)


def bridge_metrics(base_url):
    """The bridge's own counters (BASE_URL/__bridge/metrics) under `webpbridge_proxy_`."""
    return scrape(base_url + "/__bridge/metrics", "webpbridge_proxy_")


def metrics_delta(before, after):
    """What each series gained between two readings."""
    return {key: value - before.get(key, 0.0) for key, value in after.items()}


# The same waits for shell scripts.

def main(argv):
    usage = ("usage: python3 -m scripts.bridgekit listening LOG PID [SECONDS]   (prints the URL)\n"
             "       python3 -m scripts.bridgekit wait LOG PID SECONDS REGEX   (prints the first match)\n"
             "       python3 -m scripts.bridgekit free-port")
    try:
        if argv[:1] == ["free-port"]:
            print(free_port())
        elif argv[:1] == ["listening"] and len(argv) in (3, 4):
            seconds = float(argv[3]) if len(argv) == 4 else START_TIMEOUT
            print(wait_for_line(int(argv[2]), argv[1], LISTENING, seconds, f"pid {argv[2]}").group(1))
        elif argv[:1] == ["wait"] and len(argv) == 5:
            print(wait_for_line(int(argv[2]), argv[1], argv[4], float(argv[3]), f"pid {argv[2]}").group(0))
        else:
            sys.exit(usage)
    except ValueError:
        sys.exit(usage)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
