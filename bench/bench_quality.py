#!/usr/bin/env python3
"""Driver for `make bench-quality`: bytes, server CPU and perceptual scores per
variant, the origin (`webp-bridge origin`, fixed qualities and `--quality auto`)
against thumbor (PyPI, Pillow engine, two processes), over the same photos, on
loopback only. Runs in the venv `make bench-quality` makes (.build/quality-venv:
PyPI `ssimulacra2`, which brings numpy, SciPy and Pillow), from the project's root.

Variants, one per photo each, at the bench-origin geometry (750 px wide, or 12 px
under the set's narrowest photo: Kodak's portraits are 512 px wide, so 500 there):
  thumbor-q80   thumbor  /unsafe/Wx0/filters:format(webp):quality(80)/NAME
  webp-q80      origin   /NAME?imageView2/2/w/W/format/webp/q/80
  avif-q60      origin   /NAME?imageView2/2/w/W/format/avif/q/60
  webp-auto     origin --quality auto   /NAME?imageView2/2/w/W/format/webp
  avif-auto     origin --quality auto   /NAME?imageView2/2/w/W/format/avif
(the auto pair only when the binary takes `--quality auto`). BENCH_QUALITY_AUTO names the
flag's values, comma-separated ("auto" by default; "auto,auto:55" runs a second auto
origin, its variants "webp-auto:55" and "avif-auto:55").

CPU: BENCH_ROUNDS (3) rounds; in each, every variant kind is asked once per photo
at a width no round used before (top, top-1, ...: no answer can come from a cache),
two clients, through bench_origin's `load` (`origin-benchmark load`, a new connection
per request), the kinds' order rotating; the server's CPU (user + system of its
processes, /proc) around each kind's load, per variant, median of the rounds.

Quality sweep: after the rounds, thumbor and the fixed-quality origin once more at the
first round's width, at the qualities BENCH_QUALITY_SWEEP_THUMBOR ("50,60,70,90"),
BENCH_QUALITY_SWEEP_WEBP ("60,70": ours) and BENCH_QUALITY_SWEEP_AVIF ("40,50"); ours only
below the fixed qualities because `--quality auto` never goes above them, thumbor above q80
too because our AVIF can score above its q80. So each family's bytes can be read at another
variant's mean SSIMULACRA 2: interpolated between the two points (sweep or fixed) that
bracket it, linearly in log(bytes) against the score; never extrapolated ("outside").
Each auto variant gets two verdicts on issue 29's bar (≥ 10% fewer bytes than thumbor q80
at an equal or better mean and minimum SSIMULACRA 2): against thumbor q80 itself, and on
thumbor's curve moved to the variant's mean, where thumbor's bytes are interpolated and
its minimum is at most that of the first sweep point whose mean reaches ours.
Sweep variants get no butteraugli score (they only place bytes against SSIMULACRA 2).

Scores, of the first round's variants and the sweep's: each variant decoded by the
reference decoder of its format (dwebp, avifdec) to PNG; the reference is the source
decoded by Pillow and resized by Pillow's Lanczos (`Image.LANCZOS`) to the variant's
size, the same reference for every server. Against it: luma SSIM (scikit-image's
definition, as Sources/Linux/Codecs/Quality/SSIM.swift: Y = .299R + .587G + .114B,
Gaussian window sigma 1.5 truncated at 3.5 sigma, K1 .01, K2 .03, 5 px edges left out),
SSIMULACRA 2 (PyPI `ssimulacra2`; higher is better, 100 identical) and butteraugli
(`butteraugli_main`, Debian libjxl-devtools: its max distance; lower is better).
BENCH_QUALITY_JOBS (2) photos are scored at a time, after the CPU rounds. With
BENCH_QUALITY_JSON=FILE, every scored variant (set, kind, photo, format, bytes, SSIM,
SSIMULACRA 2, butteraugli) is written there too.

usage: python -m bench.bench_quality WEBP_BRIDGE ORIGIN_BENCHMARK THUMBOR NAME=DIR...
"""
import concurrent.futures
import importlib.metadata
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from bench.bench_origin import Thumbor, load, origin_root
from scripts.bridgekit import ServerError, exit_on_signals, fetch, sniff, start, stop, wait_listening

ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
AUTOS = [a.strip() for a in os.environ.get("BENCH_QUALITY_AUTO", "auto").split(",") if a.strip()]
JOBS = int(os.environ.get("BENCH_QUALITY_JOBS", "2"))
JSON_PATH = os.environ.get("BENCH_QUALITY_JSON")


def qualities(variable, default):
    return [int(q) for q in os.environ.get(variable, default).split(",") if q.strip()]


SWEEP_THUMBOR = qualities("BENCH_QUALITY_SWEEP_THUMBOR", "50,60,70,90")
SWEEP_WEBP = qualities("BENCH_QUALITY_SWEEP_WEBP", "60,70")
SWEEP_AVIF = qualities("BENCH_QUALITY_SWEEP_AVIF", "40,50")
TARGET_WIDTH = 750
WEBP_QUALITY = 80
AVIF_QUALITY = 60
DECODE_TIMEOUT = 60
# A variant whose aspect ratio is this far from its source's is not the same picture (a rotation,
# a crop): its scores would be meaningless, so the bench stops.
ASPECT_TOLERANCE = 0.02


class Origin:
    """`webp-bridge origin` on 127.0.0.1, port 0 (the port it prints)."""

    def __init__(self, binary, root, name, folder, flags=()):
        self.name = name
        # stdout (its listening line, then one line per request) is drained by wait_listening;
        # stderr goes to a log, which says why it did not start (a flag this build lacks).
        log = os.path.join(folder, f"{name}.log")
        self.process = start([binary, "origin", "--root", root, "--listen", "127.0.0.1:0", *flags], log, pipe=True)
        try:
            self.base = wait_listening(self.process, name=name)
        except ServerError as error:
            stop([self.process])
            with open(log, errors="replace") as f:
                raise ServerError(f"{error}\n{f.read().strip()[-300:]}") from None

    def pids(self):
        return [self.process.pid]


class Variant:
    """One kind of variant: a server and how to ask it for a photo at a width (what `load` needs)."""

    def __init__(self, name, server, path):
        self.name, self.server, self.path = name, server, path
        self.process = server.process

    def url(self, name, width):
        return self.server.base + self.path(name, width)

    def pids(self):
        return self.server.pids()


def origin_variant(name, server, format, quality=None):
    q = f"/q/{quality}" if quality is not None else ""
    return Variant(name, server, lambda photo, width: f"/{photo}?imageView2/2/w/{width}/format/{format}{q}")


def thumbor_variant(name, server, quality):
    return Variant(name, server,
                   lambda photo, width: f"/unsafe/{width}x0/filters:format(webp):quality({quality})/{photo}")


# Scores.

def luma_ssim(first, second):
    """Mean luma SSIM of two RGB uint8 arrays of one shape (scikit-image's Gaussian SSIM, as SSIM.swift)."""
    import numpy as np
    from scipy import ndimage
    weights = np.array([0.299, 0.587, 0.114])
    x = first.astype(np.float64) @ weights
    y = second.astype(np.float64) @ weights

    def blur(plane):
        return ndimage.gaussian_filter(plane, sigma=1.5, truncate=3.5)
    ux, uy = blur(x), blur(y)
    vx, vy, vxy = blur(x * x) - ux * ux, blur(y * y) - uy * uy, blur(x * y) - ux * uy
    c1, c2 = (0.01 * 255) ** 2, (0.03 * 255) ** 2
    s = ((2 * ux * uy + c1) * (2 * vxy + c2)) / ((ux * ux + uy * uy + c1) * (vx + vy + c2))
    return float(s[5:-5, 5:-5].mean())


def decode_to_png(body, stem):
    """The variant's pixels as a PNG at STEM.png, by its format's reference decoder."""
    kind = sniff(body)
    if kind is None or kind.animated or kind.format not in ("webp", "avif"):
        raise RuntimeError(f"{stem}: not a still WebP or AVIF ({body[:16]!r})")
    path, png = f"{stem}.{kind.format}", f"{stem}.png"
    with open(path, "wb") as f:
        f.write(body)
    command = ["dwebp", "-quiet", path, "-o", png] if kind.format == "webp" else ["avifdec", path, png]
    result = subprocess.run(command, capture_output=True, text=True, timeout=DECODE_TIMEOUT)
    if result.returncode != 0:
        raise RuntimeError(f"{command[0]} {path}: {(result.stderr or result.stdout).strip()[:300]}")
    os.unlink(path)
    return kind.format, png


def butteraugli(reference, distorted):
    result = subprocess.run(["butteraugli_main", reference, distorted], capture_output=True, text=True,
                            timeout=DECODE_TIMEOUT)
    if result.returncode != 0:
        raise RuntimeError(f"butteraugli_main: {result.stderr.strip()[:300]}")
    return float(result.stdout.split()[0])


def score_photo(source, items, folder):
    """[(kind, format, bytes, SSIM, SSIMULACRA 2, butteraugli or None)] for ITEMS [(kind, variant file,
    whether to run butteraugli)] of one photo.
    Runs in the venv's python: the scorers' packages are imported here, so the module imports without them
    (`make test-scripts` imports every script with the system's python)."""
    import numpy as np
    from PIL import Image
    from ssimulacra2.ssimulacra2 import compute_ssimulacra2_with_alpha
    with Image.open(source) as image:
        original = image.convert("RGB")
    references = {}
    rows = []
    stem = os.path.join(folder, os.path.basename(source))
    for kind, output, with_butteraugli in items:
        with open(output, "rb") as f:
            body = f.read()
        fmt, png = decode_to_png(body, f"{stem}-{kind}")
        with Image.open(png) as image:
            distorted = image.convert("RGB")
        size = distorted.size
        aspect = original.width / original.height
        if abs(size[0] / size[1] - aspect) > ASPECT_TOLERANCE * aspect:
            raise RuntimeError(f"{kind} {source}: {size[0]}x{size[1]} is not the source's "
                               f"{original.width}x{original.height} resized")
        if size not in references:
            reference = original.resize(size, Image.LANCZOS)
            path = f"{stem}-reference-{size[0]}x{size[1]}.png"
            reference.save(path)
            references[size] = (path, np.asarray(reference))
        reference_png, reference_pixels = references[size]
        rows.append((kind, fmt, len(body), luma_ssim(reference_pixels, np.asarray(distorted)),
                     compute_ssimulacra2_with_alpha(reference_png, png),
                     butteraugli(reference_png, png) if with_butteraugli else None))
        os.unlink(png)
    for path, _ in references.values():
        os.unlink(path)
    return rows


# The run.

def bench_set(label, photos, webp_bridge, benchmark, thumbor_binary):
    folder = tempfile.mkdtemp(prefix=f"bench-quality-{label}-")
    servers = []
    try:
        root, names, top = origin_root(folder, photos)
        sources = {os.path.basename(p): os.path.join(root, os.path.basename(p)) for p in photos}

        origin = Origin(webp_bridge, root, "origin", folder)
        servers.append(origin)
        thumbor = Thumbor(thumbor_binary, root, folder)
        servers.append(thumbor)
        variants = [thumbor_variant("thumbor-q80", thumbor, WEBP_QUALITY),
                    origin_variant("webp-q80", origin, "webp", WEBP_QUALITY),
                    origin_variant("avif-q60", origin, "avif", AVIF_QUALITY)]
        for index, value in enumerate(AUTOS):
            try:
                auto = Origin(webp_bridge, root, f"origin-auto{index}", folder, ["--quality", value])
            except ServerError as error:
                print(f"{label}: `webp-bridge origin --quality {value}` did not start, so no {value} variants "
                      f"({' '.join(str(error).splitlines()[-2:])[:240]})")
                continue
            servers.append(auto)
            variants += [origin_variant(f"webp-{value}", auto, "webp"), origin_variant(f"avif-{value}", auto, "avif")]
        sweep = ([thumbor_variant(f"thumbor-q{q}", thumbor, q) for q in SWEEP_THUMBOR if q != WEBP_QUALITY]
                 + [origin_variant(f"webp-q{q}", origin, "webp", q) for q in SWEEP_WEBP if q != WEBP_QUALITY]
                 + [origin_variant(f"avif-q{q}", origin, "avif", q) for q in SWEEP_AVIF if q != AVIF_QUALITY])

        # Every server decodes each photo once before the rounds (a width no round asks).
        warm = top - ROUNDS
        for variant in variants:
            for name in names:
                fetch(variant.url(name, warm), process=variant.process)
        print(f"{label}: {len(names)} photos, {len(variants)} variant kinds in {ROUNDS} rounds at widths "
              f"{top}..{top - ROUNDS + 1} (scores from {top} px), then {len(sweep)} sweep kinds at {top} px")
        cpu = {variant.name: [] for variant in variants + sweep}
        outputs = {}
        for index in range(ROUNDS):
            width = top - index
            order = variants[index % len(variants):] + variants[:index % len(variants)]
            for variant in order:
                requests = [(name, width) for name in names]
                answers, _, ms, total, answered = load(
                    benchmark, variant, requests, folder, f"{variant.name}-{index}")
                if index == 0 and answers < len(requests):
                    sys.exit(f"{variant.name}: {answers} of {len(requests)} answers in the scored round")
                cpu[variant.name].append(ms)
                print(f"  round {index + 1} {variant.name:16} {ms:7.1f} ms CPU/variant "
                      f"{total / max(answers, 1):8.0f} B")
                if index == 0:
                    outputs[variant.name] = answered
        for variant in sweep:
            requests = [(name, top) for name in names]
            answers, _, ms, total, answered = load(benchmark, variant, requests, folder, f"{variant.name}-sweep")
            if answers < len(requests):
                sys.exit(f"{variant.name}: {answers} of {len(requests)} answers")
            cpu[variant.name].append(ms)
            outputs[variant.name] = answered
            print(f"  sweep   {variant.name:16} {ms:7.1f} ms CPU/variant {total / max(answers, 1):8.0f} B")
        stop(server.process for server in servers)
        servers = []

        started = time.monotonic()
        per_photo = {name: [] for name in names}
        # The sweep only places bytes against SSIMULACRA 2: no butteraugli (a third of the scoring time).
        swept = {variant.name for variant in sweep}
        for kind, answered in outputs.items():
            for name, output in answered:
                per_photo[name].append((kind, output, kind not in swept))
        scores = {kind: [] for kind in outputs}
        scratch = os.path.join(folder, "scores")
        os.mkdir(scratch)
        with concurrent.futures.ProcessPoolExecutor(max_workers=JOBS) as pool:
            futures = {pool.submit(score_photo, sources[name], items, scratch): name
                       for name, items in per_photo.items()}
            for future in concurrent.futures.as_completed(futures):
                for kind, fmt, size, ssim, s2, ba in future.result():
                    scores[kind].append((futures[future], fmt, size, ssim, s2, ba))
        print(f"  scored {sum(len(v) for v in scores.values())} variants in {time.monotonic() - started:.0f} s "
              f"({JOBS} at a time)")
        return {kind: summarise(rows, cpu[kind]) for kind, rows in scores.items()}, scores
    finally:
        stop(server.process for server in servers)
        shutil.rmtree(folder, ignore_errors=True)


def summarise(rows, cpu):
    s2 = [r[4] for r in rows]
    ba = [r[5] for r in rows if r[5] is not None]
    worst_s2 = min(rows, key=lambda r: r[4])
    worst_ba = max((r for r in rows if r[5] is not None), key=lambda r: r[5], default=(None,) * 6)
    return {
        "count": len(rows), "bytes": sum(r[2] for r in rows), "cpu": statistics.median(cpu),
        "ssim": statistics.mean(r[3] for r in rows), "ssim_min": min(r[3] for r in rows),
        "s2": statistics.mean(s2), "s2_min": worst_s2[4], "s2_min_photo": worst_s2[0],
        "ba": statistics.mean(ba) if ba else None, "ba_max": worst_ba[5], "ba_max_photo": worst_ba[0],
        "formats": sorted({r[1] for r in rows}),
    }


def sweep_points(summary, family):
    """FAMILY's sweep (its kinds "FAMILY-qN") as (mean S2, bytes, min S2), by mean."""
    return sorted((s["s2"], s["bytes"], s["s2_min"]) for kind, s in summary.items()
                  if kind.startswith(f"{family}-q") and kind[len(family) + 2:].isdigit())


def bytes_at(summary, family, score):
    """Total bytes of FAMILY's sweep at mean SSIMULACRA 2 SCORE, interpolated linearly in log(bytes)
    between the two points that bracket it; (None, range) outside the sweep."""
    points = sweep_points(summary, family)
    for (s_low, b_low, _), (s_high, b_high, _) in zip(points, points[1:]):
        if s_low <= score <= s_high and s_high > s_low:
            t = (score - s_low) / (s_high - s_low)
            return math.exp(math.log(b_low) + t * (math.log(b_high) - math.log(b_low))), None
    return None, (points[0][0], points[-1][0]) if points else None


def min_above(summary, family, score):
    """The lowest photo's S2 at the first point of FAMILY's sweep whose mean reaches SCORE: the most
    FAMILY's minimum can be where its mean is SCORE (it rises with quality); None past the sweep."""
    return next((low for mean, _, low in sweep_points(summary, family) if mean >= score), None)


def number(value, width, places):
    return f"{value:{width}.{places}f}" if value is not None else f"{'-':>{width}}"


def report(table):
    print()
    print(f"{'photos':7} {'variant':16} {'n':>3} {'bytes':>10} {'CPU ms':>7} {'SSIM':>7} {'S2 mean':>8} "
          f"{'S2 min':>7} {'BA mean':>8} {'BA max':>7}")
    for label, summary in table:
        for kind, s in summary.items():
            print(f"{label:7} {kind:16} {s['count']:3} {s['bytes']:10,} {s['cpu']:7.1f} {s['ssim']:7.4f} "
                  f"{s['s2']:8.2f} {s['s2_min']:7.2f} {number(s['ba'], 8, 3)} {number(s['ba_max'], 7, 3)}")
    print("CPU ms: the server's per variant, median of the rounds (sweep kinds: one round); S2: SSIMULACRA 2 "
          "(higher is better); BA: butteraugli max distance (lower is better)")
    for label, summary in table:
        print()
        print(f"{label}: worst photos: " + "; ".join(
            f"{kind} S2 {s['s2_min']:.2f} ({s['s2_min_photo']}), BA {s['ba_max']:.3f} ({s['ba_max_photo']})"
            for kind, s in summary.items() if s["ba"] is not None))
        autos = [kind[5:] for kind in summary if kind.startswith("webp-auto")]
        pairs = [("webp-q80", "thumbor-q80", "thumbor"), ("avif-q60", "thumbor-q80", "thumbor")]
        for value in autos:
            pairs += [(f"webp-{value}", "thumbor-q80", "thumbor"), (f"avif-{value}", "thumbor-q80", "thumbor"),
                      (f"webp-{value}", "webp-q80", "webp"), (f"avif-{value}", "avif-q60", "avif")]
        for ours, theirs, family in pairs:
            if ours not in summary or theirs not in summary:
                continue
            a, b = summary[ours], summary[theirs]
            line = (f"  {ours} vs {theirs}: bytes {(a['bytes'] / b['bytes'] - 1) * 100:+.1f}%, "
                    f"S2 mean {a['s2'] - b['s2']:+.2f} min {a['s2_min'] - b['s2_min']:+.2f}, "
                    f"BA mean {a['ba'] - b['ba']:+.3f} max {a['ba_max'] - b['ba_max']:+.3f}, "
                    f"CPU {a['cpu'] / b['cpu']:.2f}x")
            at, outside = bytes_at(summary, family, a["s2"])
            if at is not None:
                line += f"; {family} at S2 {a['s2']:.2f}: {at:,.0f} B, {ours} {(a['bytes'] / at - 1) * 100:+.1f}%"
            elif outside:
                line += f"; S2 {a['s2']:.2f} outside {family}'s sweep ({outside[0]:.2f}-{outside[1]:.2f})"
            if theirs == "thumbor-q80" and "-auto" in ours:
                met = a["bytes"] <= 0.9 * b["bytes"] and a["s2"] >= b["s2"] and a["s2_min"] >= b["s2_min"]
                line += f" [target ≥10% fewer bytes at ≥ mean and min S2: {'met' if met else 'not met'}]"
                # The same bar on thumbor's curve, moved to our mean: its bytes there, and its minimum at
                # the first sweep point reaching our mean (an upper bound of its minimum there).
                floor = min_above(summary, family, a["s2"])
                if at is not None and floor is not None:
                    met = a["bytes"] <= 0.9 * at and a["s2_min"] >= floor
                    line += (f" [on thumbor's curve at our mean: bytes {(a['bytes'] / at - 1) * 100:+.1f}%, "
                             f"min {a['s2_min']:.2f} vs ≤ {floor:.2f}: {'met' if met else 'not met'}]")
            if family != "thumbor" and "-auto" in ours:
                line += f" [target CPU ≤ 2.5x: {'met' if a['cpu'] <= 2.5 * b['cpu'] else 'not met'}]"
            print(line)


def version(package):
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "?"


def debian_version(package):
    result = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package], capture_output=True, text=True)
    return result.stdout.strip() if result.returncode == 0 else "?"


def thumbor_version(binary):
    """The version of the thumbor in BINARY's venv (its python's package metadata)."""
    python = os.path.join(os.path.dirname(binary), "python")
    result = subprocess.run([python, "-c", "import importlib.metadata as m; print(m.version('thumbor'))"],
                            capture_output=True, text=True)
    return result.stdout.strip() if result.returncode == 0 else "?"


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    exit_on_signals("bench-quality")
    try:
        import numpy, PIL, scipy, ssimulacra2  # noqa: F401 (the scorers, before minutes of rounds)
    except ImportError as error:
        sys.exit(f"{error}: run with the python of the venv `make bench-quality` makes (.build/quality-venv)")
    missing = [tool for tool in ("butteraugli_main", "dwebp", "avifdec") if shutil.which(tool) is None]
    if missing:
        sys.exit(f"missing {', '.join(missing)}: `make bench-quality` installs them")
    webp_bridge, benchmark, thumbor_binary = sys.argv[1:4]
    started = time.monotonic()
    print(f"scorers: ssimulacra2 {version('ssimulacra2')}, Pillow {version('pillow')} (Lanczos reference), "
          f"butteraugli_main from libjxl-devtools {debian_version('libjxl-devtools')}; "
          f"thumbor {thumbor_version(thumbor_binary)}")
    table, rows = [], []
    for argument in sys.argv[4:]:
        label, folder = argument.split("=", 1)
        photos = sorted(os.path.join(folder, f) for f in os.listdir(folder)
                        if f.lower().endswith((".jpg", ".jpeg", ".png"))) if os.path.isdir(folder) else []
        if not photos:
            print(f"{label}: no photos in {folder}; skipped")
            continue
        summary, scores = bench_set(label, photos, webp_bridge, benchmark, thumbor_binary)
        table.append((label, summary))
        rows += [dict(zip(("set", "kind", "photo", "format", "bytes", "ssim", "ssimulacra2", "butteraugli"),
                          (label, kind) + row)) for kind, kind_rows in scores.items() for row in kind_rows]
    report(table)
    if JSON_PATH:
        with open(JSON_PATH, "w") as f:
            json.dump(rows, f, indent=1)
        print(f"{len(rows)} variants' scores in {JSON_PATH}")
    print(f"\nsets: {', '.join(label for label, _ in table) or 'none'}; {time.monotonic() - started:.0f} s in all")


if __name__ == "__main__":
    main()
