public import WebPBridge

#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

/// The in-process bridge: a `URLProtocol` adapter over ``ImageBridge``, the
/// image path it shares with the proxy. It answers image requests from the
/// shared ``ImagePipeline`` — fetching the WebP variant over the network,
/// caching it under the rewritten URL, and handing a consumer that cannot
/// decode WebP (a WebView) JPEG, PNG or APNG from one bounded transcode
/// queue; the original, untouched, when the variant will not decode, is too
/// large or may not be transformed; 304 to a conditional request whose tag
/// matches.
///
/// Install it with ``WebPBridgeURLProtocol/sessionConfiguration(base:)``
/// after registering a binding with ``register(_:)``. It claims the `GET`
/// and `HEAD` requests the core routes to the image path (a rule rewrites
/// the URL, the policy claims the client, no `Cache-Control: no-transform`);
/// everything else (POST, GIFs, unmatched URLs, its own marked requests)
/// goes to the network untouched.
///
/// A redirect from the upstream reaches the client as a redirect, with the
/// client's request re-pointed at the new location and the marker removed,
/// so that it is claimed again when a rule rewrites it: through
/// `wasRedirectedTo` on Apple platforms; on Linux, whose Foundation cannot
/// take redirects from a `URLProtocol`, by following it for the client (see
/// ``maxRedirects``). Native ``ImagePipeline/image(for:)`` callers keep
/// following redirects inside the pipeline.
///
/// Thread-safety: the registered bindings are process-wide, under a lock; each
/// instance guards its task and stopped flag with a `Lock`, so nothing is
/// sent to the client after ``stopLoading()``.
public final class WebPBridgeURLProtocol: URLProtocol {

    /// What the protocol answers with: the image path (shared with the
    /// proxy, with its bounded transcode queue and limits) and what the app
    /// knows of the device.
    public struct Binding: Sendable {
        /// The image path: policy, pipeline, transcode queue and limits.
        public var imageBridge: ImageBridge
        /// The device class to report to the policy (e.g. `.phone`), if any;
        /// otherwise the policy guesses from `User-Agent`.
        public var deviceClass: DeviceClass?

        /// The pipeline the image path fetches through.
        public var pipeline: ImagePipeline { imageBridge.configuration.pipeline }
        /// The client policy.
        public var policy: ClientPolicy { imageBridge.configuration.clientPolicy }

        /// Binds an image path built by the app (its own queue and limits).
        public init(imageBridge: ImageBridge, deviceClass: DeviceClass? = nil) {
            self.imageBridge = imageBridge
            self.deviceClass = deviceClass
        }

        /// Binds `pipeline` with `policy` and the image path's default limits.
        public init(
            pipeline: ImagePipeline, policy: ClientPolicy = .legacy, deviceClass: DeviceClass? = nil,
            transcoder: Transcoder.Configuration = Transcoder.Configuration()
        ) {
            self.init(
                imageBridge: ImageBridge(pipeline: pipeline, clientPolicy: policy, transcoder: transcoder),
                deviceClass: deviceClass)
        }
    }

    /// Identifies one registered binding, to unregister it.
    public struct Registration: Hashable, Sendable {
        fileprivate let id: UInt64
    }

    /// Registered bindings, newest first. Several pipelines can be bound at
    /// once (say, an app's and an extension's, or concurrent tests): a
    /// request goes to the newest binding whose rules and policy claim it.
    private static let bindings = Lock<(entries: [(Registration, Binding)], nextID: UInt64)>(([], 0))

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

    /// The newest binding that claims `request`, with its plan.
    static func claim(_ request: URLRequest) -> (Binding, DeliveryPlan)? {
        let candidates = bindings.withLock { $0.entries.map(\.1) }
        for binding in candidates {
            if let plan = plan(for: request, binding: binding) { return (binding, plan) }
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
    public typealias DiagnosticHeader = BridgeDiagnosticHeader

    // MARK: Claiming

    override public class func canInit(with request: URLRequest) -> Bool {
        guard let claim = claim(request) else { return false }
        keptClaims.withLock { kept in
            kept.removeAll { $0.request == request }
            kept.append((request, claim.0, claim.1))
            if kept.count > keptClaimsLimit { kept.removeFirst(kept.count - keptClaimsLimit) }
        }
        return true
    }

    /// Claims `canInit(with:)` made, so that `startLoading` loads the plan
    /// made there instead of planning again; the newest ``keptClaimsLimit``
    /// only (the URL loading system may ask `canInit` without loading).
    private static let keptClaims = Lock<[(request: URLRequest, binding: Binding, plan: DeliveryPlan)]>([])
    /// At most 64 claims kept: more loads starting at once plan again.
    static let keptClaimsLimit = 64

    /// Claims kept now (at most ``keptClaimsLimit``).
    static var keptClaimCount: Int { keptClaims.withLock { $0.count } }

    /// The claim `canInit(with:)` made for `request`, taken; else a new one.
    static func takeClaim(_ request: URLRequest) -> (Binding, DeliveryPlan)? {
        let kept = keptClaims.withLock { kept -> (Binding, DeliveryPlan)? in
            guard let index = kept.lastIndex(where: { $0.request == request }) else { return nil }
            let claim = kept.remove(at: index)
            return (claim.binding, claim.plan)
        }
        return kept ?? claim(request)
    }

    override public class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    /// The core's plan for `request`, or `nil` when the bridge does not
    /// claim it (the core's route says pass through, or the bridge marked it).
    static func plan(for request: URLRequest, binding: Binding) -> DeliveryPlan? {
        guard property(forKey: handledKey, in: request) == nil, let imageRequest = imageRequest(request, binding),
            case .image(let plan) = binding.imageBridge.route(imageRequest)
        else { return nil }
        return plan
    }

    /// `request` as the core's request: its fields as the app set them,
    /// redirects reported on Apple platforms (and followed here, within the
    /// policy, on Linux; see ``maxRedirects``).
    static func imageRequest(_ request: URLRequest, _ binding: Binding) -> DeliveryRequest? {
        guard let url = request.url else { return nil }
        return DeliveryRequest(
            method: request.httpMethod ?? "GET", url: url,
            fields: HTTPFieldList(foundationHeaderFields: request.allHTTPHeaderFields ?? [:]),
            deviceClass: binding.deviceClass, redirects: .report)
    }

    // MARK: Loading

    struct Loading {
        var task: Task<Void, Never>?
        var stopped = false
    }

    let loading = Lock(Loading())

    override public func startLoading() {
        guard let (binding, plan) = Self.takeClaim(request) else {
            client?.urlProtocol(self, didFailWithError: URLError(.unsupportedURL))
            return
        }
        // URLProtocol is not Sendable; this instance's only mutable state is
        // `loading`, behind a Lock, and the client is called under it.
        let instance = UncheckedSendable(self)
        let request = self.request
        let task = Task {
            await instance.value.load(request, plan: plan, binding: binding)
        }
        loading.withLock { state in
            if state.stopped { task.cancel() } else { state.task = task }
        }
    }

    /// Cancels this client's share of the work (a fetch other callers wait
    /// on goes on for them); nothing reaches the client afterwards.
    override public func stopLoading() {
        let task = loading.withLock { state -> Task<Void, Never>? in
            state.stopped = true
            return state.task
        }
        task?.cancel()
    }

    /// Runs `deliver` unless the client stopped loading.
    func send(_ deliver: (any URLProtocolClient) -> Void) {
        loading.withLock { state in
            guard !state.stopped, let client else { return }
            deliver(client)
        }
    }
}

/// Carries a value the compiler cannot prove `Sendable` into a task; each
/// use says why it is safe.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
