import Foundation

/// One image of the demo page as one kind of client got it: what it costs
/// loaded directly from the origin and through the bridge, and how close
/// the delivered picture is to the original.
///
/// Through the bridge there are two sizes: the bytes the bridge received
/// from the origin (the network cost: the AVIF or WebP variant) and the
/// bytes it handed to the client (the same, or a transcode made on the
/// device or over loopback, free). The saving is measured on the first, as
/// the original app measured its readers' traffic.
package struct DemoImageResult: Sendable {
    /// The image's path on the site, e.g. `/images/article-01.jpg`.
    var path: String
    /// The original's body, as the origin serves it to a client without WebP.
    var original: Data
    /// The body the bridge delivered.
    var delivered: Data
    /// Body bytes the bridge received from the origin for this image (its
    /// `X-WebPBridge-Wire-Bytes`): the variant, plus the original after
    /// a fallback or when the original passed through.
    var wireBytes: Int
    /// `Content-Type` of the original and of the delivered response.
    var originalType: String
    var deliveredType: String
    /// Pixel sizes (first frame for animations); `nil` when the bytes do not decode.
    var originalSize: (width: Int, height: Int)?
    var deliveredSize: (width: Int, height: Int)?
    /// Frames in the delivered body as its headers declare them (1 for a
    /// still); `nil` when they cannot be read.
    var deliveredFrames: Int?
    /// Luma SSIM of the delivered image against the original scaled to the
    /// delivered size, both over white; `nil` when it could not be measured.
    var ssim: Double?
    /// SSIMULACRA 2 of the same pair (``SSIMULACRA2Scorer``); `nil` when
    /// not scored.
    var ssimulacra2: Double?
    /// The encoder quality the tuned origin chose for it (`"64"`,
    /// `"lossless"`); `nil` where none was searched (the bridges' fixed
    /// qualities, the source as it is).
    var chosenQuality: String?
    /// The pair as PNG files for the scorer, while the demo runs.
    var pairFiles: (reference: URL, distorted: URL)?
    /// Bytes of the original resized to the delivered size with no change
    /// of format (``DemoClient/resizedBytes(original:scaled:resized:)``):
    /// what the resize alone saves; `nil` when not measured.
    var resizedBytes: Int?
    /// Why the image failed (status, decode error), or `nil`.
    var failure: String?

    var originalBytes: Int { original.count }
    var deliveredBytes: Int { delivered.count }

    /// What kind of image this is on the page, for grouping in the report.
    var kind: Kind {
        if path.hasSuffix(".gif") { return .animation }
        if path.hasSuffix(".png") { return .logo }
        return .photo
    }

    /// The groups of the report's table.
    enum Kind: String, Sendable, CaseIterable {
        case photo = "photos (JPEG)"
        case logo = "logos (PNG)"
        case animation = "animation (GIF)"
    }
}
