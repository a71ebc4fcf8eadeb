public import Foundation
public import WebPBridge

/// The test double for ``DataLoading``: the one fake upstream of every
/// suite that hands a pipeline or a bridge a loader. It answers from a
/// script (an ``Answer`` for the URLs that contain a fragment, the first
/// matching entry winning), else from its base — a fixed answer, a closure,
/// another loader, or (on Linux) an in-process `HTTPHandler` — and records
/// every request it gets, in order, so a test can show what was fetched and
/// what was not.
///
/// `Sendable`: the script and the record sit behind one ``Lock``.
public final class ScriptedDataLoader: DataLoading, Sendable {
    /// Answers a request that no script entry matches.
    public typealias Responder =
        @Sendable (DataRequest, (@Sendable (Data) -> Void)?) async throws(DataLoadingError)
        -> DataResponse

    /// What a request gets.
    public enum Answer: Sendable {
        /// This response, whatever the base would say.
        case response(status: Int, fields: HTTPFieldList, body: Data)
        /// A transfer that produced no response (`DataLoadingError` of this kind).
        case fail(DataLoadingError.Kind)
        /// The base's response with this status instead.
        case status(Int)
        /// The base's response with an HTML page as its body.
        case html
        /// The base's response with the first half of its body only.
        case truncate

        /// Whether the base is not asked at all.
        var replacesBase: Bool {
            switch self {
            case .response, .fail: true
            case .status, .html, .truncate: false
            }
        }

        /// 200 with `body` and `fields`.
        public static func ok(_ body: Data, fields: HTTPFieldList = [:]) -> Answer {
            .response(status: 200, fields: fields, body: body)
        }

        /// `status` with a short text body.
        public static func text(_ status: Int, _ text: String) -> Answer {
            .response(status: status, fields: ["content-type": "text/plain"], body: Data(text.utf8))
        }
    }

    private struct State {
        var script: [(fragment: String, answer: Answer)] = []
        var requests: [DataRequest] = []
    }

    private let base: Responder
    private let state = Lock(State())

    /// A loader whose unscripted requests go to `base`.
    public init(_ base: @escaping Responder) {
        self.base = base
    }

    /// A loader whose unscripted requests all get `answer` (by default a
    /// failure: a test that fetches what it did not script hears of it).
    public convenience init(answering answer: Answer = .fail(.unsupportedURL)) {
        self.init { request, _ throws(DataLoadingError) in
            try Self.answer(answer, to: request, base: nil)
        }
    }

    /// A loader in front of `loader`: unscripted requests go to it.
    public convenience init(forwardingTo loader: any DataLoading) {
        self.init { request, onChunk throws(DataLoadingError) in
            try await loader.load(request, onChunk: onChunk)
        }
    }

    /// Makes the requests whose URL contains `fragment` (every request for
    /// `""`) get `answer`; a fragment scripted again gets the new answer in
    /// its old place.
    public func inject(_ answer: Answer, whereURLContains fragment: String = "") {
        state.withLock { state in
            if let index = state.script.firstIndex(where: { $0.fragment == fragment }) {
                state.script[index].answer = answer
            } else {
                state.script.append((fragment, answer))
            }
        }
    }

    /// Takes `fragment` out of the script: its requests reach the base again.
    public func removeInjection(whereURLContains fragment: String) {
        state.withLock { $0.script.removeAll { $0.fragment == fragment } }
    }

    /// Every request received, in order.
    public var requests: [DataRequest] { state.withLock { $0.requests } }

    /// How many requests received had a URL containing `fragment`.
    public func requestCount(whereURLContains fragment: String) -> Int {
        state.withLock { $0.requests.count { $0.url.absoluteString.contains(fragment) } }
    }

    public func load(_ request: DataRequest, onChunk: (@Sendable (Data) -> Void)?) async throws(DataLoadingError)
        -> DataResponse
    {
        let url = request.url.absoluteString
        let scripted = state.withLock { state -> Answer? in
            state.requests.append(request)
            return state.script.first { $0.fragment.isEmpty || url.contains($0.fragment) }?.answer
        }
        let response: DataResponse
        switch scripted {
        case nil:
            response = try await base(request, nil)
        case .some(let answer) where answer.replacesBase:
            response = try Self.answer(answer, to: request, base: nil)
        case .some(let answer):
            response = try Self.answer(answer, to: request, base: try await base(request, nil))
        }
        guard response.body.count <= request.maxBodyBytes else {
            throw DataLoadingError(.tooLarge, "body over \(request.maxBodyBytes) bytes")
        }
        onChunk?(response.body)
        return response
    }

    /// `answer` for `request`, made from `base` where it changes the base's response.
    private static func answer(_ answer: Answer, to request: DataRequest, base: DataResponse?) throws(DataLoadingError)
        -> DataResponse
    {
        var response = base ?? DataResponse(url: request.url, statusCode: 200, headers: [:], body: Data())
        switch answer {
        case .response(let status, let fields, let body):
            return DataResponse(url: request.url, statusCode: status, headers: fields, body: body)
        case .fail(let kind):
            throw DataLoadingError(kind, "\(kind) (scripted)")
        case .status(let status):
            response.statusCode = status
        case .html:
            response.body = Data("<html><body>variant failed</body></html>".utf8)
        case .truncate:
            response.body = response.body.prefix(response.body.count / 2)
        }
        return response
    }
}
