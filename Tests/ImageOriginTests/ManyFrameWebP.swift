import Foundation
import ImageCodecs

/// An animated WebP of many full-canvas frames, muxed by hand around one
/// lossless frame from the project's encoder: 1,000 frames of 1000×1000
/// weigh under 100 KB and cost nothing to build, but a gigapixel to decode.
enum ManyFrameWebP {
    static func make(width: Int, height: Int, frames: Int) throws -> Data {
        var options = WebPEncoder.Options(lossless: true)
        options.exact = false
        let still = try WebPEncoder(options: options).encode(
            Image(width: width, height: height, filledWith: (40, 90, 200, 255)))
        // RIFF header (12 bytes), then the still's one chunk, VP8L, kept whole.
        let frameChunk = still.dropFirst(12)
        var body = Data("WEBP".utf8)
        body += chunk("VP8X", [0x02, 0, 0, 0] + uint24(width - 1) + uint24(height - 1))
        body += chunk("ANIM", [0, 0, 0, 0, 0, 0])
        let frameHeader = uint24(0) + uint24(0) + uint24(width - 1) + uint24(height - 1) + uint24(40) + [0x02]
        let frame = chunk("ANMF", frameHeader + [UInt8](frameChunk))
        for _ in 0..<frames { body += frame }
        return Data("RIFF".utf8) + Data(uint32(body.count)) + body
    }

    private static func chunk(_ name: String, _ payload: [UInt8]) -> Data {
        var data = Data(name.utf8) + Data(uint32(payload.count)) + Data(payload)
        if payload.count % 2 == 1 { data.append(0) }
        return data
    }

    private static func uint24(_ value: Int) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF)]
    }

    private static func uint32(_ value: Int) -> [UInt8] { uint24(value) + [UInt8(value >> 24 & 0xFF)] }
}
