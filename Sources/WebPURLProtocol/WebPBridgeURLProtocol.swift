public import ImageCodecs
public import ImagePipeline
public import URLRewriting
import Synchronization

#if canImport(FoundationNetworking)
    public import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

/// The in-process bridge: a `URLProtocol` that answers image requests a
/// consumer cannot decode as WebP (a WebView) from the shared
/// ``ImagePipeline`` — fetching the WebP variant over the network, caching
/// it under the rewritten URL, and handing the consumer JPEG, PNG or APNG.
///
/// Install it with ``WebPBridgeURLProtocol/sessionConfiguration(base:)``
/// after registering a pipeline with ``register(_:)``. It claims only `GET`
/// requests whose URL a rule rewrites and whose client the policy says
/// cannot show WebP; everything else (POST, GIFs, unmatched URLs, its own
/// marked requests) goes to the network untouched.
///
/// Thread-safety: the registered bindings are process-wide, under a lock; each
/// instance guards its task and stopped flag with a `Mutex`, so nothing is
/// sent to the client after ``stopLoading()``.
public final class WebPBridgeURLProtocol: URLProtocol {

    /// What the protocol answers with.
    public struct Binding: Sendable {
        public var pipeline: ImagePipeline
        public var policy: ClientPolicy
        /// The device class to report to the policy (e.g. `.phone`), if any.
        public var deviceClass: DeviceClass?
        /// How transcoded images are encoded.
        public var transcoder: Transcoder

        public init(
            pipeline: ImagePipeline, policy: ClientPolicy = .legacy, deviceClass: DeviceClass? = nil,
            transcoder: Transcoder = Transcoder()
        ) {
            self.pipeline = pipeline
            self.policy = policy
            self.deviceClass = deviceClass
            self.transcoder = transcoder
        }
    }

    /// Identifies one registered binding, to unregister it.
    public struct Registration: Hashable, Sendable {
        fileprivate let id: UInt64
    }

    /// Registered bindings, newest first. Several pipelines can be bound at
    /// once (say, an app's and an extension's, or concurrent tests): a
    /// request goes to the newest binding whose rules and policy claim it.
    private static let bindings = Mutex<(entries: [(Registration, Binding)], nextID: UInt64)>(([], 0))

    /// Registers `binding`; until it is unregistered, requests it claims are
    /// answered from its pipeline.
    @discardableResult
    public static func register(_ binding: Binding) -> Registration {
        bindings.withLock { state in
            state.nextID += 1
            let registration = Registration(id: state.nextID)
            state.entries.insert((registration, binding), at: 0)
            return registration
        }
    }

    /// Removes a binding registered with ``register(_:)``.
    public static func unregister(_ registration: Registration) {
        bindings.withLock { state in state.entries.removeAll { $0.0 == registration } }
    }

    /// The newest binding that claims `request`, with its decision.
    static func claim(_ request: URLRequest) -> (Binding, ClientDecision)? {
        let candidates = bindings.withLock { $0.entries.map(\.1) }
        for binding in candidates {
            if let decision = decision(for: request, binding: binding) { return (binding, decision) }
        }
        return nil
    }

    /// `base` with this protocol first in `protocolClasses`, so that every
    /// session made from it routes claimed image requests through the bridge.
    public static func sessionConfiguration(base: URLSessionConfiguration = .default) -> URLSessionConfiguration {
        let configuration = base
        configuration.protocolClasses = [WebPBridgeURLProtocol.self] + (configuration.protocolClasses ?? [])
        return configuration
    }

    /// The request property that marks requests the bridge made or passed on,
    /// so it never claims them twice.
    static let handledKey = "WebPBridgeURLProtocolHandled"

    /// Response headers that tell an app what the bridge did.
    public enum DiagnosticHeader {
        public static let fetchedURL = "X-WebPBridge-Fetched-URL"
        public static let source = "X-WebPBridge-Source"
        public static let wireBytes = "X-WebPBridge-Wire-Bytes"
        public static let fallback = "X-WebPBridge-Fallback"
        public static let cacheKey = "X-WebPBridge-Cache-Key"
    }

    // MARK: Claiming

    override public class func canInit(with request: URLRequest) -> Bool {
        claim(request) != nil
    }

    override public class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    /// The bridge's decision for `request`, or `nil` when it does not claim it.
    static func decision(for request: URLRequest, binding: Binding) -> ClientDecision? {
        guard let url = request.url, (request.httpMethod ?? "GET") == "GET",
            property(forKey: handledKey, in: request) == nil,
            let rewriter = binding.pipeline.configuration.rewriter
        else { return nil }
        let client = ClientRequest(
            url: url, userAgent: request.value(forHTTPHeaderField: "User-Agent"),
            accept: request.value(forHTTPHeaderField: "Accept"), deviceClass: binding.deviceClass)
        let decision = binding.policy.decision(for: client, using: rewriter)
        if case .passThrough = decision { return nil }
        return decision
    }

    // MARK: Loading

    private struct Loading {
        var task: Task<Void, Never>?
        var stopped = false
    }

    private let loading = Mutex(Loading())

    override public func startLoading() {
        guard let url = request.url, let (binding, decision) = Self.claim(request) else {
            client?.urlProtocol(self, didFailWithError: URLError(.unsupportedURL))
            return
        }
        // URLProtocol is not Sendable; this instance's only mutable state is
        // `loading`, behind a Mutex, and the client is called under it.
        let instance = UncheckedSendable(self)
        let task = Task {
            await instance.value.load(url, decision: decision, binding: binding)
        }
        loading.withLock { state in
            if state.stopped { task.cancel() } else { state.task = task }
        }
    }

    override public func stopLoading() {
        let task = loading.withLock { state -> Task<Void, Never>? in
            state.stopped = true
            return state.task
        }
        task?.cancel()
    }

    /// Runs `deliver` unless the client stopped loading.
    private func send(_ deliver: (any URLProtocolClient) -> Void) {
        loading.withLock { state in
            guard !state.stopped, let client else { return }
            deliver(client)
        }
    }

    private func load(_ url: URL, decision: ClientDecision, binding: Binding) async {
        let result: ImageDataResponse
        do {
            result = try await binding.pipeline.data(for: url)
        } catch let error as ImagePipelineError {
            if let status = error.httpStatus {
                deliverStatus(status, for: url)
            } else {
                send { $0.urlProtocol(self, didFailWithError: Self.urlError(for: error, url: url)) }
            }
            return
        } catch {
            send { $0.urlProtocol(self, didFailWithError: URLError(.cancelled)) }
            return
        }
        if Task.isCancelled { return }

        let body: Data
        let contentType: String
        if case .transcode = decision {
            do {
                let output = try binding.transcoder.transcode(result.data, for: Transcoder.withoutWebP)
                body = output.data
                contentType = output.mimeType
            } catch {
                send { $0.urlProtocol(self, didFailWithError: URLError(.cannotDecodeContentData)) }
                return
            }
        } else {
            body = result.data
            contentType = result.format.mimeType
        }
        var headers: [String: String] = [
            "Content-Type": contentType,
            "Content-Length": String(body.count),
            "Vary": binding.policy.webPSupport == .legacyAppleWebKit ? "Accept, User-Agent" : "Accept",
            DiagnosticHeader.fetchedURL: result.fetchedURL.absoluteString,
            DiagnosticHeader.source: result.source.rawValue,
            DiagnosticHeader.wireBytes: String(result.networkBytes),
            DiagnosticHeader.fallback: result.isFallback ? "1" : "0",
            DiagnosticHeader.cacheKey: result.cacheKey,
        ]
        for name in ["cache-control", "expires", "last-modified"] {
            if let value = result.headers[name] { headers[name.capitalizedHeaderName] = value }
        }
        guard
            let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: headers)
        else { return }
        send { client in
            client.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            client.urlProtocol(self, didLoad: body)
            client.urlProtocolDidFinishLoading(self)
        }
    }

    /// Both the variant and the original answered with an HTTP error: the
    /// client sees that status, as it would without the bridge.
    private func deliverStatus(_ status: Int, for url: URL) {
        guard
            let response = HTTPURLResponse(
                url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: ["Content-Length": "0"])
        else { return }
        send { client in
            client.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            client.urlProtocolDidFinishLoading(self)
        }
    }

    /// The `URLError` a plain load would have produced for a transport failure.
    static func urlError(for error: ImagePipelineError, url: URL) -> URLError {
        let code = error.loadingError.map(urlErrorCode(for:)) ?? .cannotDecodeContentData
        return URLError(code, userInfo: [NSURLErrorFailingURLErrorKey: url, NSLocalizedDescriptionKey: error.description])
    }

    /// The `URLError` code matching a loader's failure.
    public static func urlErrorCode(for error: DataLoadingError) -> URLError.Code {
        switch error.kind {
        case .timedOut: .timedOut
        case .cannotConnect: .cannotConnectToHost
        case .cancelled: .cancelled
        case .tooLarge: .dataLengthExceedsMaximum
        case .unsupportedURL: .unsupportedURL
        case .networkFailure: .networkConnectionLost
        default: .cannotDecodeContentData
        }
    }
}

extension String {
    /// `cache-control` → `Cache-Control`.
    fileprivate var capitalizedHeaderName: String {
        split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: "-")
    }
}

/// Carries a value the compiler cannot prove `Sendable` into a task; each
/// use says why it is safe.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
