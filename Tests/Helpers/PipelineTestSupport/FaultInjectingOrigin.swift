import Foundation
public import HTTPServer
public import ImageOrigin
import TestSupport
import WebPBridge

/// An `ImageOrigin` handler wrapped so that tests see what reached the
/// server and can make chosen requests misbehave: every request's target is
/// recorded once, and a request whose target contains an injected fragment
/// (the variant's query, a path) gets its fault instead of the origin's
/// answer.
public final class FaultInjectingOrigin: HTTPHandler {
    public enum Fault: Sendable, CustomStringConvertible {
        /// This status, with a short text body.
        case status(Int)
        /// 200 with an HTML page, as a captive portal or a CDN error page.
        case html
        /// The origin's answer with the second half of the body cut off.
        case truncate
        /// No answer until ``FaultInjectingOrigin/release()``: a timeout, or
        /// a fetch to cancel while it is in flight.
        case hold
        /// 302 to `location`, as given (relative or absolute).
        case redirect(to: String)

        public var description: String {
            switch self {
            case .status(let code): "HTTP \(code)"
            case .html: "an HTML page"
            case .truncate: "a truncated body"
            case .hold: "a timeout"
            case .redirect(let location): "a redirect to \(location)"
            }
        }
    }

    private struct State {
        public var targets: [String] = []
        var faults: [(fragment: String, fault: Fault)] = []
        var released = false
        /// Held requests, resumed by ``release()`` or their cancellation.
        var holding: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var lastHold: UInt64 = 0
        /// Callers of ``waitUntilHeld(_:)`` and the count each waits for.
        var heldWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    public let origin: ImageOrigin
    private let state = Lock(State())

    public init(origin: ImageOrigin) {
        self.origin = origin
    }

    /// Makes requests whose target contains `fragment` answer with `fault`
    /// (the earliest injected fragment that matches wins).
    public func inject(_ fault: Fault, whereTargetContains fragment: String) {
        state.withLock { $0.faults.append((fragment, fault)) }
    }

    /// Removes the faults injected for `fragment`.
    public func removeFaults(whereTargetContains fragment: String) {
        state.withLock { $0.faults.removeAll { $0.fragment == fragment } }
    }

    /// Every request target received, in order.
    public var targets: [String] { state.withLock { $0.targets } }

    /// How many requests had a target containing `fragment`.
    public func requestCount(containing fragment: String) -> Int {
        state.withLock { $0.targets.count { $0.contains(fragment) } }
    }

    /// Requests now held by a ``Fault/hold``.
    public var heldCount: Int { state.withLock { $0.holding.count } }

    /// Returns once at least `count` requests are held (the event, not a poll).
    public func waitUntilHeld(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let reached = state.withLock { state in
                guard state.holding.count < count else { return true }
                state.heldWaiters.append((count, continuation))
                return false
            }
            if reached { continuation.resume() }
        }
    }

    /// Lets every held request, and every later one, through to the origin.
    public func release() {
        let held = state.withLock { state in
            state.released = true
            defer { state.holding = [:] }
            return Array(state.holding.values)
        }
        for continuation in held { continuation.resume() }
    }

    /// Holds the calling handler until ``release()``, or until the server
    /// cancels it because its client hung up.
    private func hold() async {
        let id = state.withLock { state in
            state.lastHold += 1
            return state.lastHold
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>]? in
                    guard !state.released, !Task.isCancelled else { return nil }
                    state.holding[id] = continuation
                    let count = state.holding.count
                    defer { state.heldWaiters.removeAll { $0.count <= count } }
                    return state.heldWaiters.filter { $0.count <= count }.map(\.continuation)
                }
                guard let waiters else { return continuation.resume() }
                for waiter in waiters { waiter.resume() }
            }
        } onCancel: {
            state.withLock { $0.holding.removeValue(forKey: id) }?.resume()
        }
    }

    private func fault(for request: HTTPRequest) -> Fault? {
        state.withLock { state in state.faults.first { request.target.contains($0.fragment) }?.fault }
    }

    private func record(_ request: HTTPRequest) {
        state.withLock { $0.targets.append(request.target) }
    }

    /// The origin's immediate answer when no fault applies; faults are all
    /// answered by ``handle(_:)``. A request is recorded by whichever answers.
    public func immediateResponse(to request: HTTPRequest) -> HTTPResponse? {
        guard fault(for: request) == nil, let response = origin.immediateResponse(to: request) else { return nil }
        record(request)
        return response
    }

    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        record(request)
        switch fault(for: request) {
        case nil:
            return await origin.handle(request)
        case .status(let code):
            return .text(HTTPStatus(code: code), "injected HTTP \(code)")
        case .html:
            return .data(
                Data("<html><body>something went wrong</body></html>".utf8), contentType: "text/html; charset=utf-8")
        case .truncate:
            let response = await origin.handle(request)
            let body = response.bodyData
            return HTTPResponse(
                status: response.status, headers: response.headers, body: .data(body.prefix(body.count / 2)))
        case .hold:
            await hold()
            return await origin.handle(request)
        case .redirect(let location):
            return HTTPResponse(status: .found, headers: ["Location": location])
        }
    }
}
