// Apple platforms only: an app's code, shown in docs/apple-setup.md. Not part of the package (no
// target builds it); `make portability` type-checks it against the SDK stand-ins in Tests/StandIns.
import Foundation
import WebPBridge

/// The app's one image pipeline, made once at launch and shared by every screen: the CDN's rules,
/// a disk cache in the app's Caches folder, and `URLSession`.
func makeImagePipeline() throws -> ImagePipeline {
    let rules = try RewritePreset.configuration(named: "qiniu", host: "img.example.com", width: 750)
    let caches = try FileManager.default.url(
        for: .cachesDirectory, in: .userDomainMask, appropriateFor: nil, create: true)
    return ImagePipeline(
        configuration: .init(
            rewriter: try Rewriter(configuration: rules),
            dataLoader: URLSessionDataLoader(),
            dataCache: try DiskCache(folder: caches.appendingPathComponent("WebPBridge"))))
}

/// A thumbnail shown at 120×120 points on a 3× screen: fetched as the CDN's WebP variant, decoded
/// to fit 360×360 pixels (never the full photo) and kept in the memory cache at that size.
///
/// `urlText` is an image URL as the app received it (JSON, a page): `URL(whatwg:)` reads it as a
/// browser does, so a raw space or non-ASCII gives the same URL on iOS 16 as on iOS 17 and later.
func loadThumbnail(_ pipeline: ImagePipeline, urlText: String) async throws -> WebPBridge.Image? {
    guard let url = URL(whatwg: urlText) else { return nil }
    let request = ImageRequest(url: url, targetSize: .init(width: 120, height: 120, scale: 3), priority: .high)
    let response = try await pipeline.image(for: request)
    // RGBA pixels (the first frame of an animation); a view shows them through CGImage.
    return response.image.firstFrame
}
