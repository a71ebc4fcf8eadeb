import Foundation
import TestSupport
import TestTraits
import Testing

@testable import WebPBridge

@Suite("APNG encode and decode", .timeLimit(.suiteBound), .offTheGlobalExecutor)
struct APNGCodecTests {
    /// Decoding what the encoder wrote gives back the same frames, durations (as shown) and loop count.
    private func expectRoundTrip(_ animation: AnimatedImage, options: APNGEncoder.Options = .default) throws {
        let data = try APNGEncoder(options: options).encode(animation)
        #expect(try ImageFormat.sniff(data) == .apng)
        let decoded = try APNGDecoder().decode(data)
        #expect(decoded.canvasWidth == animation.canvasWidth && decoded.canvasHeight == animation.canvasHeight)
        #expect(decoded.loopCount == animation.loopCount)
        #expect(decoded.frames.count == animation.frames.count)
        for (ours, theirs) in zip(decoded.frames, animation.frames) {
            #expect(ours.image.pixels == theirs.image.pixels)
            // As shown: 10 ms or less becomes 100 ms (AnimationTiming).
            #expect(
                ours.durationMilliseconds
                    == AnimationTiming.displayedDuration(milliseconds: theirs.durationMilliseconds))
        }
    }

    @Test("opaque animation round-trips, cropped or not", arguments: [true, false])
    func opaqueRoundTrip(crops: Bool) throws {
        let animation = SyntheticImages.animation(width: 64, height: 40, frameCount: 5, loopCount: 3)
        try expectRoundTrip(animation, options: .init(cropsToChangedRegion: crops))
    }

    @Test("animation with alpha, identical frames and long delays round-trips")
    func alphaRoundTrip() throws {
        let first = SyntheticImages.photo(width: 30, height: 20, seed: 1, alpha: true)
        let second = SyntheticImages.photo(width: 30, height: 20, seed: 2, alpha: false)
        let animation = AnimatedImage(
            canvasWidth: 30, canvasHeight: 20,
            frames: [
                .init(image: first, durationMilliseconds: 0),
                .init(image: first, durationMilliseconds: 65_535),  // unchanged frame: 1×1 fdAT
                .init(image: second, durationMilliseconds: 100_000),  // needs hundredths
                .init(image: first, durationMilliseconds: 7),
            ],
            loopCount: 0)
        try expectRoundTrip(animation)
        let decoded = try APNGDecoder().decode(APNGEncoder().encode(animation))
        #expect(decoded.hasAlpha)
    }

    @Test("cropping to the changed rectangle makes the file smaller")
    func croppingShrinks() throws {
        let animation = SyntheticImages.animation(width: 120, height: 80, frameCount: 6)
        let cropped = try APNGEncoder().encode(animation)
        let full = try APNGEncoder(options: .init(cropsToChangedRegion: false)).encode(animation)
        #expect(cropped.count < full.count)
    }

    @Test("header reports frames and loops")
    func header() throws {
        let data = try APNGEncoder().encode(
            SyntheticImages.animation(width: 16, height: 8, frameCount: 4, loopCount: 2))
        let header = try PNGDecoder.readHeader(data)
        #expect(header == PNGHeader(width: 16, height: 8, hasAlpha: false, bitDepth: 8, frameCount: 4, loopCount: 2))
        #expect(header.isAnimated)
        // A plain PNG decoder shows the default image, frame 0.
        #expect(try PNGDecoder().decode(data).width == 16)
    }

    @Test("delays convert to fractions and back", arguments: [0, 1, 10, 999, 65_535, 65_536, 123_456, 9_999_999])
    func delayFractions(milliseconds: Int) {
        let (numerator, denominator) = APNGEncoder.delayFraction(milliseconds: milliseconds)
        let back = (Int(numerator) * 1000 + Int(denominator) / 2) / Int(denominator)
        if milliseconds <= 65_535 {
            #expect(back == milliseconds)
        } else {
            #expect(abs(back - milliseconds) <= 500 || numerator == .max)
        }
    }

    @Test("a PNG without acTL decodes as one frame")
    func stillAsAnimation() throws {
        let image = SyntheticImages.photo(width: 10, height: 10, alpha: true)
        let decoded = try APNGDecoder().decode(PNGEncoder().encode(image))
        #expect(decoded.frames.count == 1)
        #expect(decoded.frames[0].image.pixels == image.pixels)
    }
}

@Suite("APNG compositing: dispose and blend ops", .timeLimit(.suiteBound), .offTheGlobalExecutor)
struct APNGCompositingTests {
    static let red: [UInt8] = [255, 0, 0, 255]
    static let blue: [UInt8] = [0, 0, 255, 255]
    static let halfGreen: [UInt8] = [0, 255, 0, 128]
    static let clear: [UInt8] = [0, 0, 0, 0]

    private func pixel(_ image: Image, _ x: Int, _ y: Int) -> [UInt8] {
        let offset = (y * image.width + x) * 4
        return Array(image.pixels[offset..<(offset + 4)])
    }

    @Test("dispose none, background and previous; blend source and over")
    func disposeAndBlend() throws {
        typealias F = PNGFixture.Frame
        let frames = [
            // Frame 0: the whole 4×4 canvas red.
            F(x: 0, y: 0, width: 4, height: 4, rgba: PNGFixture.solid(Self.red, count: 16), disposeOp: 0),
            // Frame 1: blue 2×2 at (0, 0), then restored to red (previous).
            F(x: 0, y: 0, width: 2, height: 2, rgba: PNGFixture.solid(Self.blue, count: 4), disposeOp: 2),
            // Frame 2: half-transparent green over red at (2, 2), then cleared (background).
            F(
                x: 2, y: 2, width: 2, height: 2, rgba: PNGFixture.solid(Self.halfGreen, count: 4), disposeOp: 1,
                blendOp: 1),
            // Frame 3: half-transparent green with blend source at (0, 2).
            F(x: 0, y: 2, width: 1, height: 1, rgba: Self.halfGreen, delayNumerator: 3, delayDenominator: 0),
        ]
        let data = Data(PNGFixture.apng(width: 4, height: 4, frames: frames, loopCount: 7))
        let animation = try APNGDecoder().decode(data)
        #expect(animation.frames.count == 4)
        #expect(animation.loopCount == 7)
        #expect(animation.frames.map(\.durationMilliseconds) == [100, 100, 100, 30])
        let f = animation.frames.map(\.image)
        #expect(pixel(f[0], 3, 3) == Self.red)
        #expect(pixel(f[1], 1, 1) == Self.blue)
        #expect(pixel(f[1], 2, 2) == Self.red)
        #expect(pixel(f[2], 0, 0) == Self.red, "frame 1 disposed to previous")
        #expect(pixel(f[2], 2, 2) == [127, 128, 0, 255], "half green over red")
        #expect(pixel(f[3], 2, 2) == Self.clear, "frame 2 disposed to background")
        #expect(pixel(f[3], 0, 2) == Self.halfGreen, "blend source replaces")
        #expect(f.allSatisfy { $0.hasAlpha })
    }

    @Test("a default image outside the animation is skipped")
    func hiddenDefaultImage() throws {
        let frames = [PNGFixture.Frame(x: 0, y: 0, width: 2, height: 1, rgba: Self.blue + Self.red)]
        let data = Data(PNGFixture.apng(width: 2, height: 1, frames: frames, hiddenDefault: Self.red + Self.red))
        let animation = try APNGDecoder().decode(data)
        #expect(animation.frames.count == 1)
        #expect(animation.frames[0].image.pixels == Self.blue + Self.red)
        #expect(try PNGDecoder().decode(data).pixels == Self.red + Self.red)
    }

    @Test("the frame count is checked from acTL before decoding")
    func frameLimit() {
        let frames = (0..<3).map { _ in PNGFixture.Frame(x: 0, y: 0, width: 1, height: 1, rgba: Self.red) }
        let data = Data(PNGFixture.apng(width: 1, height: 1, frames: frames))
        let error = #expect(throws: ImageCodecError.self) {
            try APNGDecoder(limits: DecodingLimits(maxFrames: 2)).decode(data)
        }
        #expect(error?.kind == .limitExceeded)
        let huge = Data(PNGFixture.apng(width: 1, height: 1, frames: frames, declaredFrameCount: 2_000_000_000))
        let hugeError = #expect(throws: ImageCodecError.self) { try APNGDecoder().decode(huge) }
        #expect(hugeError?.kind == .limitExceeded)
    }

    @Test("a frame outside the canvas is corrupt")
    func frameOutsideCanvas() {
        let frames = [
            PNGFixture.Frame(x: 0, y: 0, width: 2, height: 2, rgba: PNGFixture.solid(Self.red, count: 4)),
            PNGFixture.Frame(x: 1, y: 1, width: 2, height: 2, rgba: PNGFixture.solid(Self.red, count: 4)),
        ]
        let error = #expect(throws: ImageCodecError.self) {
            try APNGDecoder().decode(Data(PNGFixture.apng(width: 2, height: 2, frames: frames)))
        }
        #expect(error?.kind == .corrupt)
    }

    @Test("truncated and bit-flipped APNGs give typed errors, never a crash")
    func damaged() throws {
        let data = try APNGEncoder().encode(SyntheticImages.animation(width: 32, height: 32, frameCount: 4))
        for length in stride(from: 0, to: data.count, by: max(1, data.count / 37)) {
            let error = #expect(throws: ImageCodecError.self) { try APNGDecoder().decode(data.prefix(length)) }
            #expect(error?.kind == .truncated || error?.kind == .corrupt)
        }
        for offset in stride(from: 0, to: data.count - 12, by: max(1, data.count / 53)) {  // IEND carries nothing
            var flipped = data
            flipped[offset] ^= 0x5A
            #expect(throws: ImageCodecError.self) { try APNGDecoder().decode(flipped) }
        }
    }
}

@Suite(
    "APNG round trips on the corpus",
    .enabled(if: Corpus.isAvailable, Comment(rawValue: Corpus.unavailableReason)),
    .timeLimit(.suiteBound), .offTheGlobalExecutor)
struct APNGCorpusTests {
    @Test("three Kodak photos as frames, and the edge PNGs with alpha")
    func kodakAnimation() throws {
        let photos = try ["kodim01.png", "kodim02.png", "kodim03.png"].map {
            try PNGDecoder().decode(Corpus.data("kodak/\($0)"))
        }
        var frames = photos.enumerated().map { AnimatedImage.Frame(image: $1, durationMilliseconds: 500 + $0 * 250) }
        // A frame that changes only a small patch, so cropping is exercised on real pixels.
        var patched = photos[2]
        for y in 100..<140 { for x in 200..<260 { patched.pixels[(y * 768 + x) * 4] = 0 } }
        frames.append(.init(image: patched, durationMilliseconds: 40))
        let animation = AnimatedImage(canvasWidth: 768, canvasHeight: 512, frames: frames, loopCount: 4)
        let decoded = try APNGDecoder().decode(APNGEncoder().encode(animation))
        #expect(decoded.frames.map(\.image.pixels) == animation.frames.map(\.image.pixels))
        #expect(decoded.frames.map(\.durationMilliseconds) == [500, 750, 1000, 40])
        #expect(decoded.loopCount == 4)
    }

    @Test("transparent.png blended with its mirror image round-trips")
    func alphaAnimation() throws {
        let image = try PNGDecoder().decode(Corpus.data("edge/transparent.png"))
        var mirrored = image
        for y in 0..<image.height {
            for x in 0..<image.width {
                let from = (y * image.width + (image.width - 1 - x)) * 4
                let to = (y * image.width + x) * 4
                mirrored.pixels[to..<(to + 4)] = image.pixels[from..<(from + 4)]
            }
        }
        let animation = AnimatedImage(
            canvasWidth: image.width, canvasHeight: image.height,
            frames: [
                .init(image: image, durationMilliseconds: 100), .init(image: mirrored, durationMilliseconds: 200),
            ],
            loopCount: 0)
        let decoded = try APNGDecoder().decode(APNGEncoder().encode(animation))
        #expect(decoded.frames.map(\.image.pixels) == [image.pixels, mirrored.pixels])
        #expect(decoded.hasAlpha)
    }
}
