import Foundation
import WebPBridge

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A URLSession delegate that lets the session follow only the redirects a
/// ``RedirectPolicy`` allows: requests the bridge's URL protocol does not
/// claim are fetched by URLSession itself, and must keep to the same rules.
/// Any other redirect is the response (its status and `Location`).
///
/// `@unchecked Sendable`: its only state is the immutable policy.
final class RedirectGuard: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    private let policy: RedirectPolicy

    init(policy: RedirectPolicy) {
        self.policy = policy
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(request.url.map(policy.allows) == true ? request : nil)
    }
}
