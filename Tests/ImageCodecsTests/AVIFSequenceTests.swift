import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// AVIF image sequences: `AVIFEncoder.encode(_:)` for animations and
/// `AVIFDecoder.decodeAnimation(_:)`, round trips, the alpha plane, what is
/// refused, and damaged bytes.
@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct AVIFSequenceTests {
    static let encoder = AVIFEncoder(options: .init(speed: AVIFEncoder.defaultSequenceSpeed))

    @Test func anAnimationRoundTripsWithItsFramesAndDurations() throws {
        let animation = SyntheticImages.animation(width: 96, height: 64, frameCount: 6)
        let avif = try Self.encoder.encode(animation)
        #expect(ImageFormat.sniffIfImage(avif) == .avif)
        let info = try ImageInfo(avif)
        #expect(info.frames == 6 && info.width == 96 && info.height == 64 && !info.alpha)
        let decoded = try AVIFDecoder().decodeAnimation(avif)
        #expect(decoded.loopCount == 0 && decoded.canvasWidth == 96 && decoded.canvasHeight == 64)
        #expect(decoded.frames.map(\.durationMilliseconds) == animation.frames.map(\.durationMilliseconds))
        for (index, (made, source)) in zip(decoded.frames, animation.frames).enumerated() {
            let ssim = try SSIM.luma(source.image, made.image)
            #expect(ssim > 0.9, "frame \(index): SSIM \(ssim)")
        }
        // The red square moves: each frame is itself, not the first one again.
        let first = try SSIM.luma(animation.frames[5].image, decoded.frames[0].image)
        let last = try SSIM.luma(animation.frames[5].image, decoded.frames[5].image)
        #expect(last > first)
        // The still decoder reads the first frame.
        #expect(try AVIFDecoder().decode(avif) == decoded.frames[0].image)
    }

    @Test func aSequenceIsSmallerThanItsFramesAsStills() throws {
        let animation = SyntheticImages.animation(width: 96, height: 64, frameCount: 8)
        let sequence = try Self.encoder.encode(animation)
        let stills = try animation.frames.reduce(0) { $0 + (try Self.encoder.encode($1.image)).count }
        #expect(sequence.count < stills / 2, "inter-frame coding: \(sequence.count) B against \(stills) B")
    }

    @Test func oneTranslucentFrameGivesEveryFrameAnAlphaPlane() throws {
        var animation = SyntheticImages.animation(width: 32, height: 32, frameCount: 3)
        #expect(animation.frames.allSatisfy { $0.image.isOpaque })
        animation.frames[1].image.pixels[3] = 0
        animation.frames[1].image.hasAlpha = true
        let avif = try Self.encoder.encode(animation)
        #expect(try ImageInfo(avif).alpha)
        let decoded = try AVIFDecoder().decodeAnimation(avif)
        #expect(decoded.frames[1].image.pixels[3] == 0, "the alpha plane is lossless")
        #expect(decoded.frames[0].image.isOpaque && decoded.frames[2].image.isOpaque)
    }

    /// aom's real-time mode (speeds 7 to 10) crashed on a sequence with an
    /// alpha plane at 7 and dropped the alpha at 8 to 10: such a sequence
    /// is made at ``AVIFEncoder/maxSpeedWithAlpha`` at most, whatever the
    /// speed asked for.
    @Test(arguments: [0, 6, 7, 8, 9, 10])
    func aSequenceWithAlphaKeepsItAtEverySpeed(speed: Int) throws {
        var animation = SyntheticImages.animation(width: 24, height: 16, frameCount: 3)
        animation.frames[1].image.pixels[3] = 0
        animation.frames[2].image.pixels[7] = 128
        let decoded = try AVIFDecoder().decodeAnimation(
            try AVIFEncoder(options: .init(speed: speed)).encode(animation))
        #expect(
            decoded.frames.map { [$0.image.pixels[3], $0.image.pixels[7]] } == [[255, 255], [0, 255], [255, 128]])
    }

    @Test func anAnimationSaidToBeOpaqueIsRefusedWhenAFrameIsNot() throws {
        let opaque = SyntheticImages.animation(width: 16, height: 16, frameCount: 2)
        #expect(try AVIFDecoder().decodeAnimation(try Self.encoder.encode(opaque: opaque)).frames.count == 2)
        var translucent = opaque
        translucent.frames[1].image.pixels[3] = 0
        let error = #expect(throws: ImageCodecError.self) { try Self.encoder.encode(opaque: translucent) }
        #expect(error?.kind == .unsupported)
    }

    @Test func anAnimationThatPlaysANumberOfTimesIsRefused() throws {
        let animation = SyntheticImages.animation(width: 16, height: 16, frameCount: 2, loopCount: 3)
        #expect(throws: ImageCodecError.self) { try Self.encoder.encode(animation) }
    }

    @Test func aFrameOfAnotherSizeAndNoFramesAreRefused() throws {
        var animation = SyntheticImages.animation(width: 16, height: 16, frameCount: 2)
        animation.frames[1].image = SyntheticImages.photo(width: 8, height: 8)
        #expect(throws: ImageCodecError.self) { try Self.encoder.encode(animation) }
        #expect(throws: ImageCodecError.self) { try Self.encoder.encode(NoFrames()) }
    }

    /// A reader of an animation whose frames never come.
    struct NoFrames: AnimationFrames {
        var canvasWidth: Int { 16 }
        var canvasHeight: Int { 16 }
        var frameCount: Int { 0 }
        var loopCount: Int { 0 }
        func forEachFrame(_ body: (AnimatedImage.Frame) throws(ImageCodecError) -> Void) throws(ImageCodecError) {}
    }

    @Test(arguments: [(17, 11), (1, 1), (255, 3)])
    func oddSizesRoundTrip(width: Int, height: Int) throws {
        let animation = SyntheticImages.animation(width: width, height: height, frameCount: 3)
        let decoded = try AVIFDecoder().decodeAnimation(try Self.encoder.encode(animation))
        #expect(decoded.frames.count == 3 && decoded.canvasWidth == width && decoded.canvasHeight == height)
        #expect(decoded.frames.allSatisfy { $0.image.width == width && $0.image.height == height })
    }

    @Test func aStillDecodesAsOneFrame() throws {
        let still = try AVIFEncoder(options: .init(speed: 8)).encode(SyntheticImages.photo(width: 20, height: 10))
        let decoded = try AVIFDecoder().decodeAnimation(still)
        #expect(decoded.frames.count == 1 && decoded.frames[0].durationMilliseconds == 100)
    }

    @Test func damagedSequencesThrowAndNeverCrash() throws {
        let avif = try Self.encoder.encode(SyntheticImages.animation(width: 48, height: 32, frameCount: 4))
        for length in stride(from: 0, to: avif.count, by: max(1, avif.count / 97)) {
            _ = try? AVIFDecoder().decodeAnimation(avif.prefix(length))
        }
        var flipped = avif
        for index in stride(from: avif.count / 3, to: avif.count, by: 7) { flipped[index] ^= 0x5A }
        _ = try? AVIFDecoder().decodeAnimation(flipped)
        let tooMany = DecodingLimits(maxFrames: 3)
        #expect(throws: ImageCodecError.self) { try AVIFDecoder(limits: tooMany).decodeAnimation(avif) }
    }
}
