import Foundation
import TestSupport
import TestTraits
import Testing

@testable import WebPBridge

@Suite("GIF encoding, checked by decoding with GIFDecoder", .timeLimit(.suiteBound), .offTheGlobalExecutor)
struct GIFEncoderTests {
    /// Mean and largest absolute difference per RGB channel over the pixels
    /// that are opaque in both images.
    private func colourError(_ first: Image, _ second: Image) -> (mean: Double, max: Int) {
        var total = 0
        var largest = 0
        var samples = 0
        for offset in stride(from: 0, to: first.pixels.count, by: 4) where first.pixels[offset + 3] == 255 {
            for channel in 0..<3 {
                let difference = abs(Int(first.pixels[offset + channel]) - Int(second.pixels[offset + channel]))
                total += difference
                largest = max(largest, difference)
                samples += 1
            }
        }
        return (Double(total) / Double(max(samples, 1)), largest)
    }

    @Test("an animation keeps its frame count, delays, loop count and colours", arguments: [0, 1, 3])
    func animationRoundTrip(loopCount: Int) throws {
        let animation = SyntheticImages.animation(width: 96, height: 64, frameCount: 5, loopCount: loopCount)
        let data = try GIFEncoder().encode(animation)
        #expect(data.starts(with: Array("GIF89a".utf8)))
        guard case .animated(let decoded) = try GIFDecoder().decode(data) else {
            Issue.record("expected an animation")
            return
        }
        #expect(decoded.frames.count == 5)
        #expect(decoded.loopCount == loopCount)
        #expect(decoded.frames.map(\.durationMilliseconds) == [80, 90, 100, 110, 120])
        #expect(try GIFDecoder.readHeader(data).loopCount == loopCount)
        for (original, frame) in zip(animation.frames, decoded.frames) {
            #expect(frame.image.isOpaque)
            let error = colourError(original.image, frame.image)
            #expect(error.mean < 5.5, "mean palette error \(error.mean)")
            #expect(error.max <= 40, "largest palette error \(error.max)")
        }
    }

    @Test("delays round to GIF's 10 ms units")
    func delaysRound() throws {
        let image = SyntheticImages.photo(width: 16, height: 16)
        let animation = AnimatedImage(
            canvasWidth: 16, canvasHeight: 16,
            frames: [34, 45, 1_000].map { AnimatedImage.Frame(image: image, durationMilliseconds: $0) }, loopCount: 0)
        guard case .animated(let decoded) = try GIFDecoder().decode(GIFEncoder().encode(animation)) else {
            Issue.record("expected an animation")
            return
        }
        #expect(decoded.frames.map(\.durationMilliseconds) == [30, 50, 1_000])
        #expect(GIFEncoder.centiseconds(10_000_000) == 65_535)
    }

    @Test("transparent pixels stay transparent; opaque ones keep their colour")
    func transparency() throws {
        let photo = SyntheticImages.photo(width: 64, height: 48, seed: 2, alpha: true)
        let data = try GIFEncoder().encode(photo)
        let decoded = try GIFDecoder().decode(data)
        guard case .still(let image) = decoded else {
            Issue.record("expected a still image")
            return
        }
        #expect(image.hasAlpha)
        #expect(try ImageInfo(data).alpha)
        for offset in stride(from: 0, to: photo.pixels.count, by: 4) {
            #expect((photo.pixels[offset + 3] >= 128) == (image.pixels[offset + 3] == 255))
        }
        var opaqueOriginal = photo
        for offset in stride(from: 3, to: opaqueOriginal.pixels.count, by: 4) {
            opaqueOriginal.pixels[offset] = opaqueOriginal.pixels[offset] >= 128 ? 255 : 0
        }
        #expect(colourError(opaqueOriginal, image).mean < 4)
    }

    @Test("transparent animations are disposed to background, so frames never show through")
    func transparentAnimationDisposal() throws {
        let clear = Image(width: 8, height: 8, filledWith: (0, 0, 0, 0))
        let red = Image(width: 8, height: 8, filledWith: (255, 0, 0, 255))
        var half = clear
        for offset in stride(from: 0, to: 8 * 4 * 4, by: 4) {
            half.pixels.replaceSubrange(offset..<(offset + 4), with: [0, 0, 255, 255])
        }
        let animation = AnimatedImage(
            canvasWidth: 8, canvasHeight: 8,
            frames: [red, half].map { AnimatedImage.Frame(image: $0, durationMilliseconds: 100) }, loopCount: 0)
        guard case .animated(let decoded) = try GIFDecoder().decode(GIFEncoder().encode(animation)) else {
            Issue.record("expected an animation")
            return
        }
        #expect(decoded.frames[0].image.pixels == red.pixels)
        #expect(decoded.frames[1].image.pixels == half.pixels)
    }

    @Test("a still image has no loop extension and few colours stay exact")
    func stillExactPalette() throws {
        var pixels: [UInt8] = []
        let colours: [[UInt8]] = [[255, 0, 0], [0, 200, 0], [10, 20, 250], [255, 255, 255]]
        for index in 0..<(32 * 32) { pixels += colours[(index / 8) % 4] + [255] }
        let image = Image(width: 32, height: 32, pixels: pixels, hasAlpha: false)
        let data = try GIFEncoder().encode(image)
        #expect(try GIFDecoder().decode(data) == .still(image))
        #expect(try GIFDecoder.readHeader(data).loopCount == 1)
    }

    @Test("a photo's many colours are reduced to one 256-entry palette with a bounded error")
    func manyColours() throws {
        let photo = SyntheticImages.photo(width: 200, height: 150, seed: 5)
        let data = try GIFEncoder().encode(photo)
        let decoded = try GIFDecoder().decode(data).firstFrame
        let error = colourError(photo, decoded)
        #expect(error.mean < 5.5, "mean palette error \(error.mean)")
        #expect(try SSIM.luma(photo, decoded) > 0.9)
    }

    @Test("bad arguments are refused before giflib runs")
    func invalidArguments() {
        let animation = SyntheticImages.animation(width: 8, height: 8, frameCount: 2, loopCount: -1)
        #expect(throws: ImageCodecError.self) { try GIFEncoder().encode(animation) }
        let image = SyntheticImages.photo(width: 8, height: 8)
        #expect(throws: ImageCodecError.self) { try GIFEncoder(options: .init(maxColors: 256)).encode(image) }
    }
}
