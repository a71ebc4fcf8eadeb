#!/usr/bin/env python3
"""`--quality auto` against the fixed quality, per variant: the origin's CPU, bytes, the chosen
qualities, and each variant's SSIMULACRA 2 and luma SSIM against the source resized as the
origin resizes it.

The Kodak photos (read in place from $WEBP_BRIDGE_CORPUS/kodak) are published as JPEG q90 into a
temporary folder; `webp-bridge origin` serves it once as it is and once per TARGET with
`--quality auto[:TARGET]`; each photo is asked once per format as
/NAME?imageView2/2/w/750/format/{webp,avif} (a miss each time, on one connection at a time).
CPU is the origin's user + system time from /proc over all of a format's requests, divided by
the number of variants. Bounded: 24 photos x 2 formats x (1 + TARGETS) servers.

usage: python3 -m bench.quality_cpu WEBP_BRIDGE [TARGET...]   (run from the project root; the
venv at .build/quality-venv provides ssimulacra2)
"""
import os
import statistics
import subprocess
import sys
import tempfile
import urllib.request

from scripts.bridgekit import cpu_seconds, group_pids, start, stop, wait_listening


def main(argv):
    tool = argv[1]
    targets = argv[2:] or ["auto"]
    corpus = os.environ.get("WEBP_BRIDGE_CORPUS", "../shared/corpus")
    names = sorted(n for n in os.listdir(os.path.join(corpus, "kodak")) if n.endswith(".png"))
    work = tempfile.mkdtemp(prefix="quality-cpu-")
    root = os.path.join(work, "root")
    os.mkdir(root)
    references = {}
    for name in names:
        jpeg = os.path.join(root, name.replace(".png", ".jpg"))
        subprocess.run([tool, "convert", os.path.join(corpus, "kodak", name), jpeg, "--quality", "90"], check=True)
        references[name] = os.path.join(work, name)
        subprocess.run([tool, "convert", jpeg, references[name], "--width", "750"], check=True)
    modes = [("fixed", [])] + [(t, ["--quality", t if t.startswith("auto") else f"auto:{t}"]) for t in targets]
    results = {}
    for mode, flags in modes:
        server = start([tool, "origin", "--root", root, "--listen", "127.0.0.1:0"] + flags,
                       log=os.path.join(work, f"{mode}.log"), pipe=True)
        try:
            base = wait_listening(server, timeout=120)
            for fmt in ("webp", "avif"):
                pids = group_pids(server)
                before = cpu_seconds(pids)
                rows = []
                for name in names:
                    url = f"{base}/{name.replace('.png', '.jpg')}?imageView2/2/w/750/format/{fmt}"
                    with urllib.request.urlopen(url, timeout=120) as response:
                        body = response.read()
                        quality = response.headers.get("X-Image-Quality")
                    path = os.path.join(work, f"{name}.{mode}.{fmt}")
                    with open(path, "wb") as out:
                        out.write(body)
                    rows.append(dict(name=name, bytes=len(body), quality=quality, path=path))
                cpu = cpu_seconds(group_pids(server)) - before
                results[(mode, fmt)] = (rows, cpu / len(names))
        finally:
            stop([server])
    import ssimulacra2  # the venv's; imported here so the script loads without it (make test-scripts)

    for (mode, fmt), (rows, cpu) in results.items():
        s2, ssim = [], []
        for row in rows:
            decoded = row["path"] + ".png"
            subprocess.run([tool, "convert", row["path"], decoded], check=True)
            s2.append(ssimulacra2.compute_ssimulacra2(references[row["name"]], decoded))
            out = subprocess.run([tool, "compare", references[row["name"]], decoded], check=True,
                                 capture_output=True, text=True).stdout.split()
            ssim.append(float(out[1]))
        total = sum(r["bytes"] for r in rows)
        fixed_total = sum(r["bytes"] for r in results[("fixed", fmt)][0])
        qualities = sorted(int(r["quality"]) for r in rows if r["quality"] and r["quality"].isdigit())
        print(f"{fmt} {mode:>8}: {total:>9,} B ({100 * (1 - total / fixed_total):5.1f}% fewer than fixed),"
              f" CPU {cpu * 1000:6.1f} ms/variant, SSIMULACRA 2 min {min(s2):.2f} mean {statistics.mean(s2):.2f},"
              f" luma SSIM min {min(ssim):.4f} mean {statistics.mean(ssim):.4f}"
              + (f", qualities {qualities[0]}-{qualities[-1]} median {statistics.median(qualities)}"
                 if qualities else ""))
    print(f"({len(names)} Kodak photos as JPEG q90, 750 px wide; files in {work})")


if __name__ == "__main__":
    main(sys.argv)
