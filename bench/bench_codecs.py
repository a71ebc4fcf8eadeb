#!/usr/bin/env python3
"""Driver for `make bench-codecs`: Swift codecs vs the C reference (and
Pillow, when installed) over the Kodak photos encoded as WebP q75, in one run.

Each implementation runs in its own process over the same files; each
operation's best of RUNS passes is reported as ms per image and MP/s, with
the Swift/C time ratio (lower is better; 1.00 = as fast as C).
"""
import os
import resource
import subprocess
import sys
import tempfile
import time

RUNS = int(os.environ.get("BENCH_RUNS", "5"))
# AVIF encodes cost ~0.25 s of CPU each: the AVIF rows use the first few photos.
AVIF_PHOTOS = int(os.environ.get("BENCH_AVIF_PHOTOS", "6"))
# AVIFEncoder's defaults: quality 60 is quantizer 25 (libavif 1.x's mapping), speed 6, one thread.
AVIF_SETTINGS = ["--min", "25", "--max", "25", "--minalpha", "0", "--maxalpha", "0", "--speed", "6", "--jobs", "1"]


def children_cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def whole_process(commands):
    """CPU seconds of running each command once (avifenc/avifdec as a reference, process start included)."""
    start = children_cpu_seconds()
    for command in commands:
        subprocess.run(command, check=True, capture_output=True)
    return children_cpu_seconds() - start


def run(command):
    output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    results = {}
    for line in output.splitlines():
        name, images, seconds, megapixels = line.split()
        results[name] = (int(images), float(seconds), float(megapixels))
    return results


def pillow(webp_files, png_files):
    try:
        from PIL import Image
    except ImportError:
        return None
    import io

    def best(files, operation):
        times = []
        megapixels = 0.0
        for _ in range(RUNS):
            start = time.perf_counter()
            megapixels = sum(operation(f) for f in files) / 1e6
            times.append(time.perf_counter() - start)
        return (len(files), min(times), megapixels)

    def decode(path):
        with Image.open(path) as image:
            image = image.convert("RGBA")
            return image.width * image.height

    def transcode(path):
        with Image.open(path) as image:
            image = image.convert("RGB")
            image.save(io.BytesIO(), "JPEG", quality=90)
            return image.width * image.height

    def encode(path):
        with Image.open(path) as image:
            image = image.convert("RGB")
            image.save(io.BytesIO(), "WEBP", quality=75, method=4)
            return image.width * image.height

    return {
        "decode": best(webp_files, decode),
        "transcode": best(webp_files, transcode),
        "encode": best(png_files, encode),
    }


def main():
    corpus, c_binary, swift_binary = sys.argv[1:4]
    kodak = os.path.join(corpus, "kodak")
    pngs = sorted(os.path.join(kodak, name) for name in os.listdir(kodak) if name.endswith(".png"))
    if not pngs:
        sys.exit(f"no Kodak photos in {kodak}")
    with tempfile.TemporaryDirectory() as folder:
        webps = []
        for png in pngs:
            out = os.path.join(folder, os.path.basename(png)[:-4] + ".webp")
            subprocess.run(["cwebp", "-quiet", "-q", "75", png, "-o", out], check=True)
            webps.append(out)
        # Alternate the two programs, one pass each per round, and keep each
        # operation's best time: on a shared, noisy machine a load spike then
        # hits both sides instead of whichever happened to run during it.
        avif_sources = pngs[:AVIF_PHOTOS]
        avifs = []
        for png in avif_sources:
            out = os.path.join(folder, os.path.basename(png)[:-4] + ".avif")
            subprocess.run(["avifenc"] + AVIF_SETTINGS + [png, out], check=True, capture_output=True)
            avifs.append(out)
        arguments = ["1"] + webps + ["--"] + pngs + ["--"] + avifs
        columns = {"C (libwebp/TurboJPEG/spng)": {}, "Swift (ImageCodecs)": {}}
        binaries = {"C (libwebp/TurboJPEG/spng)": c_binary, "Swift (ImageCodecs)": swift_binary}
        for _ in range(RUNS):
            for name, binary in binaries.items():
                for operation, result in run([binary] + arguments).items():
                    best = columns[name].get(operation)
                    if best is None or result[1] < best[1]:
                        columns[name][operation] = result
        tools = {"avif-decode": None, "avif-encode": None}
        for _ in range(RUNS):
            decode = whole_process(
                [["avifdec", "--jobs", "1", a, os.path.join(folder, "out.png")] for a in avifs])
            encode = whole_process(
                [["avifenc"] + AVIF_SETTINGS + [p, os.path.join(folder, "out.avif")] for p in avif_sources])
            for operation, seconds in (("avif-decode", decode), ("avif-encode", encode)):
                if tools[operation] is None or seconds < tools[operation]:
                    tools[operation] = seconds
        pil = pillow(webps, pngs)
        if pil:
            columns["Pillow"] = pil

    print(f"{len(pngs)} Kodak photos (768x512), WebP q75 inputs; best of {RUNS} alternating rounds, one process each\n")
    header = f"{'operation':<28}" + "".join(f"{name:>30}" for name in columns) + f"{'Swift/C':>10}"
    print(header)
    print("-" * len(header))
    labels = {
        "decode": "WebP decode",
        "transcode": "WebP -> JPEG q90 transcode",
        "encode": "PNG -> WebP q75 encode",
    }
    for operation, label in labels.items():
        cells = []
        for results in columns.values():
            images, seconds, megapixels = results[operation]
            cells.append(f"{seconds / images * 1000:8.2f} ms/img {megapixels / seconds:7.1f} MP/s")
        c_time = columns["C (libwebp/TurboJPEG/spng)"][operation][1]
        swift_time = columns["Swift (ImageCodecs)"][operation][1]
        print(f"{label:<28}" + "".join(f"{cell:>30}" for cell in cells) + f"{swift_time / c_time:>9.3f}x")

    print(f"\nAVIF (libavif {AVIF_PHOTOS} photos, quality 60 = quantizer 25, speed 6, one thread); "
          "avifdec/avifenc: whole processes' CPU time (PNG read/write and start-up included)\n")
    header = f"{'operation':<28}{'C (libavif)':>30}{'Swift (ImageCodecs)':>30}{'avifdec/avifenc':>20}{'Swift/C':>10}"
    print(header)
    print("-" * len(header))
    avif_labels = {"avif-decode": "AVIF decode (8-bit RGBA)", "avif-encode": "PNG -> AVIF q60 s6 encode"}
    for operation, label in avif_labels.items():
        c_images, c_time, c_mp = columns["C (libwebp/TurboJPEG/spng)"][operation]
        s_images, swift_time, s_mp = columns["Swift (ImageCodecs)"][operation]
        cells = [f"{c_time / c_images * 1000:8.2f} ms/img {c_mp / c_time:7.1f} MP/s",
                 f"{swift_time / s_images * 1000:8.2f} ms/img {s_mp / swift_time:7.1f} MP/s"]
        tool = f"{tools[operation] / c_images * 1000:8.2f} ms/img"
        print(f"{label:<28}" + "".join(f"{cell:>30}" for cell in cells) + f"{tool:>20}"
              + f"{swift_time / c_time:>9.3f}x")


if __name__ == "__main__":
    main()
