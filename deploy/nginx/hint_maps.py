#!/usr/bin/env python3
"""Writes the client-hint maps of deploy/nginx/webp-bridge.conf: the block between
`# BEGIN hint maps` and `# END hint maps`, generated from the origin's width buckets so the two
cannot drift by hand (make nginx-classes then holds the result to the table ClientHints is tested
with, Tests/WebPBridgeTests/Fields/Resources/hint-buckets.json, whose `buckets` are these).

usage: python3 deploy/nginx/hint_maps.py [--check] [CONF]   (default: the recipe beside this script)
--check exits 1 when CONF's block is not what this script writes.

The rules (docs/origin.md: Client hints): a width field is digits (leading zeros allowed) from 1 to
16383; a DPR 0 < dpr <= 4, digits with an optional fraction (at most 3 decimals in Sec-CH-DPR, 12
integer digits then); Sec-CH-* before the legacy name; the width the slot needs is Width, else
Viewport-Width x the DPR rounded up to a half (1 without one, never below 1); rounded up to a bucket,
none past the last. Values over 32 bytes are refused, as ClientHints refuses them.
"""
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TABLE = os.path.join(ROOT, "Tests", "WebPBridgeTests", "Fields", "Resources", "hint-buckets.json")
BEGIN, END = "    # BEGIN hint maps", "    # END hint maps"
MAX_WIDTH = 16383
SPACE = "[ \\t]*"


def digit_ranges(lo, hi):
    """A regex alternation for the integers lo..hi (1 <= lo <= hi, written without leading zeros):
    blocks that share a prefix, one digit in a range, then any digits ([0-9])."""
    pieces = []
    while lo <= hi:
        k = 0  # the largest aligned block of 10^k that starts at lo and fits
        while lo % 10 ** (k + 1) == 0 and lo + 10 ** (k + 1) - 1 <= hi:
            k += 1
        top = min(hi, (lo // 10 ** (k + 1) + 1) * 10 ** (k + 1) - 1)
        up = lo + (top - lo + 1) // 10 ** k * 10 ** k - 1
        pieces.append("".join(a if a == b else f"[{a}-{b}]" for a, b in zip(str(lo), str(up))))
        lo = up + 1
    return "|".join(pieces)


def check_ranges():
    for lo, hi in [(1, 16383), (161, 320), (751, 960), (1, 9), (10, 10), (100, 1919), (5, 1280)]:
        pattern = re.compile(f"^(?:{digit_ranges(lo, hi)})$")
        for value in range(0, 17000):
            assert bool(pattern.match(str(value))) == (lo <= value <= hi), (lo, hi, value, pattern.pattern)


def width_map(name, variable, structured, buckets):
    """Sec-CH-Width/Width: the bucket, `x` for a valid width past the last, empty when refused."""
    zeros = "0{0,10}" if structured else "0*+"
    lines = [f"    map $http_{name} {variable} {{", '        default  "";']
    previous = 0
    for bucket in buckets:
        lines.append(f'        "~^(?=.{{0,32}}$){SPACE}{zeros}(?:{digit_ranges(previous + 1, bucket)}){SPACE}$"  {bucket};')
        previous = bucket
    lines.append(f'        "~^(?=.{{0,32}}$){SPACE}{zeros}(?:{digit_ranges(previous + 1, MAX_WIDTH)}){SPACE}$"  x;')
    lines.append("    }")
    return lines


def viewport_map(name, variable, structured):
    """Sec-CH-Viewport-Width/Viewport-Width: the width without leading zeros, empty when refused."""
    zeros = "0{0,10}" if structured else "0*+"
    return [f"    map $http_{name} {variable} {{", '        default  "";',
            f'        "~^(?=.{{0,32}}$){SPACE}{zeros}(?<w>{digit_ranges(1, MAX_WIDTH)}){SPACE}$"  $w;', "    }"]


def dpr_map(name, variable, structured):
    """Sec-CH-DPR/DPR: twice the DPR rounded up to a half (2 to 8; 0.x gives 2), empty when refused."""
    if structured:
        integer, fraction = "0{0,11}", "(?=[0-9]{1,3}" + SPACE + "$)"
        bare = "0{0,14}"
    else:
        integer, fraction, bare = "0*", "", "0*"
    head = f'        "~^(?=.{{0,32}}$){SPACE}'
    lines = [f"    map $http_{name} {variable} {{", '        default  "";']
    for n in range(0, 5):
        if n > 0:  # n, n.0, n.000
            lines.append(f'{head}{bare}{n}{SPACE}$"  {2 * n};')
            lines.append(f'{head}{integer}{n}\\.{fraction}0+{SPACE}$"  {2 * n};')
        if n < 4:
            up_to_half = max(2, 2 * n + 1)
            above_half = max(2, 2 * n + 2)
            # (0, .5]: a first digit 0-4 and not all zeros, or 5 then only zeros.
            lines.append(f'{head}{integer}{n}\\.{fraction}(?:(?=[0-4])(?!0+{SPACE}$)[0-9]+|50*){SPACE}$"  {up_to_half};')
            # (.5, 1): 5 then not only zeros, or a first digit 6-9.
            lines.append(f'{head}{integer}{n}\\.{fraction}(?:5(?!0*{SPACE}$)[0-9]+|[6-9][0-9]*){SPACE}$"  {above_half};')
    lines.append("    }")
    return lines


def viewport_bucket_map(buckets):
    """`VIEWPORT:TWICE_DPR` to the bucket of viewport x DPR, `x` past the last; empty without a viewport."""
    lines = ["    map $webp_bridge_viewport:$webp_bridge_dpr2 $webp_bridge_viewport_bucket {", '        default  "";']
    for twice in range(2, 9):
        previous = 0
        for bucket in buckets:
            top = (2 * bucket) // twice  # the largest viewport whose ceil(viewport x twice / 2) fits
            if top > previous:
                lines.append(f'        "~^(?:{digit_ranges(previous + 1, top)}):{twice}$"  {bucket};')
                previous = top
        lines.append(f'        "~^(?:{digit_ranges(previous + 1, MAX_WIDTH)}):{twice}$"  x;')
    lines.append("    }")
    return lines


def block(buckets):
    lines = [BEGIN + " (generated by deploy/nginx/hint_maps.py from the origin's buckets: "
             + ", ".join(map(str, buckets)) + "; do not edit by hand)"]
    lines += width_map("sec_ch_width", "$webp_bridge_sec_width", True, buckets)
    lines += width_map("width", "$webp_bridge_legacy_width", False, buckets)
    lines += viewport_map("sec_ch_viewport_width", "$webp_bridge_sec_viewport", True)
    lines += viewport_map("viewport_width", "$webp_bridge_legacy_viewport", False)
    lines += dpr_map("sec_ch_dpr", "$webp_bridge_sec_dpr2", True)
    lines += dpr_map("dpr", "$webp_bridge_legacy_dpr2", False)
    # The Sec-CH- name first, the legacy one when it is absent or refused; a DPR of 1 without either.
    lines += ["    map $webp_bridge_sec_viewport:$webp_bridge_legacy_viewport $webp_bridge_viewport {",
              '        default  "";', '        "~^(?<w>[0-9]+):"  $w;', '        "~^:(?<w>[0-9]+)$"  $w;', "    }",
              "    map $webp_bridge_sec_dpr2:$webp_bridge_legacy_dpr2 $webp_bridge_dpr2 {",
              "        default  2;", '        "~^(?<d>[0-9]+):"  $d;', '        "~^:(?<d>[0-9]+)$"  $d;', "    }"]
    lines += viewport_bucket_map(buckets)
    # Width wins over viewport x DPR; `x` (a width past the last bucket) means none.
    lines += ["    map $webp_bridge_sec_width:$webp_bridge_legacy_width:$webp_bridge_viewport_bucket"
              " $webp_bridge_width_bucket {",
              '        default  "";', '        "~^(?<b>[0-9]+):"  $b;', '        "~^:(?<b>[0-9]+):"  $b;',
              '        "~^::(?<b>[0-9]+)$"  $b;', "    }"]
    lines.append(END)
    return "\n".join(lines)


def main(argv):
    check = "--check" in argv
    paths = [a for a in argv if a != "--check"]
    conf = paths[0] if paths else os.path.join(HERE, "webp-bridge.conf")
    with open(TABLE) as f:
        buckets = json.load(f)["buckets"]
    check_ranges()
    text = open(conf).read()
    start, end = text.index(BEGIN), text.index(END) + len(END)
    new = text[:start] + block(buckets) + text[end:]
    if check:
        if new != text:
            print(f"{conf}: the hint maps are not what deploy/nginx/hint_maps.py writes; run it", file=sys.stderr)
            return 1
        return 0
    with open(conf, "w") as f:
        f.write(new)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
