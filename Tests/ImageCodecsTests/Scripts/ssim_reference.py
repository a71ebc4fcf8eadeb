#!/usr/bin/env python3
"""Reference SSIM values for SSIMTests.swift.

Run from the project root with scikit-image installed (pip install scikit-image):

    python3 Tests/ImageCodecsTests/Scripts/ssim_reference.py ../shared/corpus/kodak

It prints the luma SSIM of each pair the Swift test checks. The distortions
need no encoder, so Swift reproduces the same pixels exactly:
  - quantized: every R, G, B value v becomes v & 0xF0;
  - blurred:   a 3x3 box blur per channel, (sum of the 9 neighbours + 4) // 9,
               with coordinates clamped at the edges;
  - and two different photos.
Luma is 0.299 R + 0.587 G + 0.114 B in float64, unrounded, as in SSIM.swift.
"""
import sys

import numpy as np
from PIL import Image
from skimage.metrics import structural_similarity


def load(folder, name):
    return np.asarray(Image.open(f"{folder}/{name}").convert("RGB"), dtype=np.int64)


def luma(rgb):
    rgb = rgb.astype(np.float64)
    return 0.299 * rgb[:, :, 0] + 0.587 * rgb[:, :, 1] + 0.114 * rgb[:, :, 2]


def quantized(rgb):
    return rgb & 0xF0


def blurred(rgb):
    height, width, _ = rgb.shape
    padded = np.pad(rgb, ((1, 1), (1, 1), (0, 0)), mode="edge")
    total = np.zeros_like(rgb)
    for dy in range(3):
        for dx in range(3):
            total += padded[dy:dy + height, dx:dx + width, :]
    return (total + 4) // 9


def ssim(a, b):
    return structural_similarity(
        luma(a), luma(b), gaussian_weights=True, sigma=1.5,
        use_sample_covariance=False, data_range=255)


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else "../shared/corpus/kodak"
    for name in ["kodim01.png", "kodim05.png", "kodim23.png"]:
        image = load(folder, name)
        print(f"{name} quantized {ssim(image, quantized(image)):.6f}")
        print(f"{name} blurred   {ssim(image, blurred(image)):.6f}")
    print(f"kodim01.png vs kodim02.png {ssim(load(folder, 'kodim01.png'), load(folder, 'kodim02.png')):.6f}")


if __name__ == "__main__":
    main()
