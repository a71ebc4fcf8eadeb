import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// ``WebPEncoder/Tuning``: its defaults are libwebp's, each field reaches
/// libwebp, and values out of range are refused. Generated images only.
@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct WebPEncoderTuningTests {
    /// Smooth gradients under noise, roughly photo-like, opaque.
    static func texturedGradient(width: Int = 96, height: Int = 64) -> Image {
        var state: UInt32 = 11
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 1_103_515_245 &+ 12_345
                let noise = Int(state >> 27)
                pixels += [UInt8((x * 255 / width + noise) % 256), UInt8((y * 255 / height + noise) % 256), 90, 255]
            }
        }
        return Image(width: width, height: height, pixels: pixels, hasAlpha: false)
    }

    @Test func defaultsAreLibwebpsOwn() {
        let tuning = WebPEncoder.Tuning()
        #expect(tuning.segments == 4)
        #expect(tuning.snsStrength == 50)
        #expect(tuning.filterStrength == 60)
        #expect(tuning.filterSharpness == 0)
        #expect(tuning.usesStrongFilter)
        #expect(!tuning.autofilter)
        #expect(tuning.partitions == 0)
        #expect(tuning.partitionLimit == 0)
        #expect(tuning.passes == 1)
        #expect(tuning.preprocessing == 0)
    }

    /// Each changed field changes the lossy bytes, so it reaches libwebp.
    @Test(arguments: [
        "segments", "snsStrength", "filterStrength", "filterSharpness", "usesStrongFilter", "partitions",
    ])
    func eachFieldReachesLibwebp(field: String) throws {
        let image = Self.texturedGradient()
        // Methods 3–6 code through a token buffer in one partition, so partitions need method ≤ 2.
        var options = WebPEncoder.Options(quality: 80, method: field == "partitions" ? 2 : 4)
        let plain = try WebPEncoder(options: options).encode(image)
        switch field {
        case "segments": options.tuning.segments = 1
        case "snsStrength": options.tuning.snsStrength = 100
        case "filterStrength": options.tuning.filterStrength = 0
        case "filterSharpness": options.tuning.filterSharpness = 7
        case "usesStrongFilter": options.tuning.usesStrongFilter = false
        default: options.tuning.partitions = 3
        }
        let tuned = try WebPEncoder(options: options).encode(image)
        #expect(tuned != plain)
        #expect(try WebPDecoder().decode(tuned).width == image.width)
    }

    @Test func outOfRangeValuesAreRefused() {
        let image = Self.texturedGradient(width: 16, height: 16)
        var tunings: [WebPEncoder.Tuning] = []
        for change in 0..<6 {
            var tuning = WebPEncoder.Tuning()
            switch change {
            case 0: tuning.segments = 5
            case 1: tuning.snsStrength = 101
            case 2: tuning.filterStrength = -1
            case 3: tuning.filterSharpness = 8
            case 4: tuning.partitions = 4
            default: tuning.passes = 11
            }
            tunings.append(tuning)
        }
        for tuning in tunings {
            var options = WebPEncoder.Options(quality: 80)
            options.tuning = tuning
            let error = #expect(throws: ImageCodecError.self) { try WebPEncoder(options: options).encode(image) }
            #expect(error?.kind == .invalidArgument)
        }
    }

    /// Lossless ignores the lossy coder's settings, even invalid ones.
    @Test func losslessIgnoresTuning() throws {
        let image = Self.texturedGradient(width: 16, height: 16)
        var options = WebPEncoder.Options(lossless: true)
        let plain = try WebPEncoder(options: options).encode(image)
        options.tuning.segments = 9
        #expect(try WebPEncoder(options: options).encode(image) == plain)
    }
}
