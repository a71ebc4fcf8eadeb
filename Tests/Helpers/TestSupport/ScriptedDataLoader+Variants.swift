public import Foundation
import WebPBridge

extension ScriptedDataLoader {
    /// A bare ISO-BMFF `ftyp` box with major brand `avif`: the start of
    /// every AVIF file, what a scripted AVIF variant answers with.
    public static let avifBytes = Data(
        [0, 0, 0, 0x1C] + Array("ftypavif".utf8) + [0, 0, 0, 0] + Array("avifmif1miaf".utf8))

    /// A CDN's AVIF variant (`format/avif`): ``avifBytes`` with 200, or
    /// `status` with a short text body.
    public static func avifVariant(status: Int = 200) -> Answer {
        status == 200
            ? .ok(avifBytes, fields: ["content-type": "image/avif", "cache-control": "max-age=60"])
            : .text(status, "no AVIF variant")
    }

    /// The fetches of `.jpg` images so far: their AVIF variant
    /// (`format/avif`), their WebP variant (`format/webp`) and the originals.
    public var imageFetches: (avif: Int, webP: Int, originals: Int) {
        var fetches = (avif: 0, webP: 0, originals: 0)
        for request in requests where request.url.path.hasSuffix(".jpg") {
            let query = request.url.query ?? ""
            if query.contains("format/avif") {
                fetches.avif += 1
            } else if query.contains("format/webp") {
                fetches.webP += 1
            } else {
                fetches.originals += 1
            }
        }
        return fetches
    }
}
