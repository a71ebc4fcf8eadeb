// Apple platforms only: an app's code, shown in docs/apple-setup.md. Not part of the package (no
// target builds it); `make portability` type-checks it against the SDK stand-ins in Tests/StandIns.
import Foundation
import WebPBridge
import WebPURLProtocol

/// A `URLSession` whose image requests go through the bridge: a request a rule rewrites is answered
/// from the app's pipeline (the CDN's WebP or AVIF variant, one cache with the native views), and
/// handed to a client that cannot show the format as JPEG or PNG; everything else goes to the
/// network untouched. Only sessions made from this configuration are bridged (not
/// `URLSession.shared`, not `WKWebView`).
final class BridgedSession: Sendable {
    let session: URLSession
    private let registration: WebPBridgeURLProtocol.Registration

    init(pipeline: ImagePipeline) {
        registration = WebPBridgeURLProtocol.register(.init(pipeline: pipeline, policy: .standard))
        session = URLSession(configuration: WebPBridgeURLProtocol.sessionConfiguration(base: .default))
    }

    /// The image's bytes and their type (`image/webp`, or `image/jpeg` for a client that asked
    /// without WebP in `Accept`).
    func imageData(from url: URL) async throws -> (Data, String?) {
        let (data, response) = try await session.data(from: url)
        return (data, (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type"))
    }

    /// When the app no longer needs the bridge (a logout, a test's end).
    func invalidate() {
        session.invalidateAndCancel()
        WebPBridgeURLProtocol.unregister(registration)
    }
}
