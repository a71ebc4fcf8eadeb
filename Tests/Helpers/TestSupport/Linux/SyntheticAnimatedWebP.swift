public import Foundation
import WebPBridge

/// Animated WebP files assembled chunk by chunk, so that tests can make
/// animations far larger decoded than encoded (many frames on a big canvas)
/// without ever holding the decoded frames themselves.
///
/// Each frame is one small lossless tile (encoded once by ``WebPEncoder``)
/// placed at a different spot, so every composited canvas differs from the
/// one before and no encoder can merge frames.
public enum SyntheticAnimatedWebP {
    /// An animation of `frameCount` frames on a `canvasWidth`×`canvasHeight`
    /// canvas; each frame is a `tile`×`tile` square, frames 40 ms apart,
    /// looping forever.
    public static func make(canvasWidth: Int, canvasHeight: Int, frameCount: Int, tile: Int = 8) throws -> Data {
        precondition(canvasWidth >= tile && canvasHeight >= tile && frameCount > 0 && tile > 0)
        var pixels = [UInt8](repeating: 255, count: tile * tile * 4)
        for index in stride(from: 0, to: pixels.count, by: 4) {
            pixels[index] = UInt8(index / 4 * 7 & 0xFF)
            pixels[index + 1] = 40
        }
        let still = try WebPEncoder(options: .init(lossless: true))
            .encode(Image(width: tile, height: tile, pixels: pixels, hasAlpha: false))
        // A simple-format lossless WebP: "RIFF" size "WEBP", then one VP8L chunk.
        let bitstream = still.subdata(in: 12..<still.count)

        var body = Data("WEBP".utf8)
        var header = [UInt8](repeating: 0, count: 10)
        header[0] = 0x12  // animation and alpha
        put24(canvasWidth - 1, into: &header, at: 4)
        put24(canvasHeight - 1, into: &header, at: 7)
        appendChunk("VP8X", header, to: &body)
        appendChunk("ANIM", [0, 0, 0, 0, 0, 0], to: &body)
        let columns = max(1, (canvasWidth - tile) / 2 + 1)
        let rows = max(1, (canvasHeight - tile) / 2 + 1)
        for frame in 0..<frameCount {
            var control = [UInt8](repeating: 0, count: 16)
            put24(frame % columns, into: &control, at: 0)
            put24(frame / columns % rows, into: &control, at: 3)
            put24(tile - 1, into: &control, at: 6)
            put24(tile - 1, into: &control, at: 9)
            put24(40, into: &control, at: 12)
            control[15] = 0x02  // no blending, no disposal
            appendChunk("ANMF", control + [UInt8](bitstream), to: &body)
        }
        var file = Data("RIFF".utf8)
        var size = [UInt8](repeating: 0, count: 4)
        put32(body.count, into: &size)
        file.append(contentsOf: size)
        file.append(body)
        return file
    }

    private static func appendChunk(_ fourCC: String, _ payload: [UInt8], to data: inout Data) {
        data.append(contentsOf: Array(fourCC.utf8))
        var size = [UInt8](repeating: 0, count: 4)
        put32(payload.count, into: &size)
        data.append(contentsOf: size)
        data.append(contentsOf: payload)
        if payload.count % 2 == 1 { data.append(0) }
    }

    private static func put24(_ value: Int, into bytes: inout [UInt8], at offset: Int) {
        bytes[offset] = UInt8(value & 0xFF)
        bytes[offset + 1] = UInt8(value >> 8 & 0xFF)
        bytes[offset + 2] = UInt8(value >> 16 & 0xFF)
    }

    private static func put32(_ value: Int, into bytes: inout [UInt8]) {
        for index in 0..<4 { bytes[index] = UInt8(value >> (8 * index) & 0xFF) }
    }
}
