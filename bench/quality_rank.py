#!/usr/bin/env python3
"""How well the origin's search metric ranks encodes as SSIMULACRA 2 and butteraugli do.

Kodak photos (read in place from $WEBP_BRIDGE_CORPUS/kodak) resized to 750 px wide, encoded as
WebP q30..95 step 5 and AVIF q40..80 step 10 by `webp-bridge convert`; every encode is scored by
`webp-bridge compare` (reference luma SSIM, fast SSIM at 2 scales and at 1, gradient similarity), by SSIMULACRA 2
(PyPI `ssimulacra2`, in-process) and by butteraugli (`butteraugli_main`, its max distance and
3-norm). Prints, per metric, the median and minimum over images of the Spearman correlation over
that image's encodes, and the Spearman correlation across images at WebP q80 and at AVIF q60.

Usage: quality_rank.py WEBP_BRIDGE [IMAGES] [WORKDIR]   (IMAGES: how many photos, default 8)
Bounded: IMAGES x 19 encodes, each scored once by each metric (about 20 s per image here).
Needs the venv at .build/quality-venv (python -m venv; pip install ssimulacra2).
"""
import json, os, subprocess, sys, tempfile


def spearman(a, b):
    def ranks(values):
        order = sorted(range(len(values)), key=lambda i: values[i])
        result = [0.0] * len(values)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
                j += 1
            for k in range(i, j + 1):
                result[order[k]] = (i + j) / 2
            i = j + 1
        return result
    ra, rb = ranks(a), ranks(b)
    n = len(a)
    ma, mb = sum(ra) / n, sum(rb) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = sum((x - ma) ** 2 for x in ra) ** 0.5
    vb = sum((y - mb) ** 2 for y in rb) ** 0.5
    return cov / (va * vb)


def run(*args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def main():
    tool = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    work = sys.argv[3] if len(sys.argv) > 3 else tempfile.mkdtemp(prefix="quality-rank-")
    corpus = os.environ.get("WEBP_BRIDGE_CORPUS", "../shared/corpus")
    names = sorted(n for n in os.listdir(os.path.join(corpus, "kodak")) if n.endswith(".png"))
    # Spread over the set, not the first few.
    step = max(1, len(names) // count)
    names = names[::step][:count]
    encodes = [("webp", q) for q in range(30, 100, 5)] + [("avif", q) for q in range(40, 90, 10)]
    rows = []
    for name in names:
        reference = os.path.join(work, name)
        run(tool, "convert", os.path.join(corpus, "kodak", name), reference, "--width", "750")
        for fmt, quality in encodes:
            encoded = os.path.join(work, f"{name}.{quality}.{fmt}")
            decoded = encoded + ".png"
            run(tool, "convert", reference, encoded, "--quality", str(quality))
            run(tool, "convert", encoded, decoded)
            ours = json.loads(run(tool, "compare", reference, decoded, "--json"))
            import ssimulacra2  # the venv's; imported here so the script loads without it (make test-scripts)
            ssimu = ssimulacra2.compute_ssimulacra2(reference, decoded)
            butter = subprocess.run(
                ["butteraugli_main", reference, decoded, "--pnorm", "3"],
                check=True, capture_output=True, text=True).stdout.split()
            rows.append(dict(image=name, format=fmt, quality=quality, bytes=os.path.getsize(encoded),
                             ssimulacra2=ssimu, butteraugli=float(butter[0]), butteraugli3=float(butter[-1]),
                             **ours))
        print(f"{name} done", file=sys.stderr)
    with open(os.path.join(work, "quality_rank.json"), "w") as out:
        json.dump(rows, out, indent=1)
    ours = ["ssim", "fast", "fast1", "gms"]
    # butteraugli is a distance: its negation ranks the same way as a similarity.
    judges = {"ssimulacra2": 1, "butteraugli": -1, "butteraugli3": -1}
    print(f"{len(names)} Kodak photos at 750 px, {len(encodes)} encodes each (WebP q30-95, AVIF q40-80)")
    for judge, sign in judges.items():
        for metric in ours:
            per_image = []
            for name in names:
                mine = [r for r in rows if r["image"] == name]
                per_image.append(spearman([r[metric] for r in mine], [sign * r[judge] for r in mine]))
            per_image.sort()
            across = []
            for fmt, quality in (("webp", 80), ("avif", 60)):
                at = [r for r in rows if r["format"] == fmt and r["quality"] == quality]
                across.append(spearman([r[metric] for r in at], [sign * r[judge] for r in at]))
            print(f"{metric:>6} vs {judge:<12} per image: median {per_image[len(per_image) // 2]:.3f}"
                  f" min {per_image[0]:.3f}; across images: WebP q80 {across[0]:.3f}, AVIF q60 {across[1]:.3f}")


if __name__ == "__main__":
    main()
