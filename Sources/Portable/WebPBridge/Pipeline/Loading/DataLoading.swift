public import Foundation

/// Fetches bytes over the network for the pipeline. Injected, so tests use
/// mock loaders and each platform its best client: libcurl on Linux
/// (URLSession there grows without bound in a long-running process),
/// URLSession on Apple platforms.
///
/// Implementations are thread-safe and honour task cancellation: a
/// cancelled task stops the transfer and throws ``DataLoadingError`` of kind
/// `cancelled`. They never follow a redirect: a 3xx is returned as it is,
/// and whoever follows it (the pipeline, asking its ``RedirectPolicy``)
/// decides first whether its target may be fetched.
public protocol DataLoading: Sendable {
    /// Loads `request`. `onChunk`, when given, receives the body in pieces
    /// as they arrive (for progressive decoding); the returned response holds
    /// the whole body either way.
    ///
    /// Any HTTP status is a response, not an error; errors are for transfers
    /// that produced no response (timeout, refused connection, a body over
    /// ``DataRequest/maxBodyBytes``, cancellation).
    func load(_ request: DataRequest, onChunk: (@Sendable (Data) -> Void)?) async throws(DataLoadingError)
        -> DataResponse
}

extension DataLoading {
    /// Loads `request` without chunk callbacks.
    public func load(_ request: DataRequest) async throws(DataLoadingError) -> DataResponse {
        try await load(request, onChunk: nil)
    }
}

/// One request to make: a GET (or HEAD) for the pipeline, any method for
/// the bridge's passthrough.
public struct DataRequest: Sendable, Equatable {
    public var url: URL
    /// `GET` (default), `HEAD`, or any method the bridge passes through.
    public var method: String
    /// Header fields to send, e.g. `Accept`, `If-None-Match`, in order.
    public var headers: HTTPFieldList
    /// The whole transfer's time limit. Default 30 s.
    public var timeout: Duration
    /// A body larger than this fails with `tooLarge`. Default 32 MiB.
    public var maxBodyBytes: Int
    /// A response header section beyond these fails with
    /// `responseHeadTooLarge`. Default ``HTTPFieldList/Limits/init(maxCount:maxBytes:)``'s
    /// (100 fields, 16 KiB).
    public var responseFieldLimits: HTTPFieldList.Limits
    /// The request body to send (`POST`, `PUT`, `PATCH` passed through by the
    /// bridge), or `nil` (default) for none. Loaders must send it as is.
    public var body: Data?
    /// How urgent the transfer is, for a loader that orders transfers
    /// (`URLSessionTask.priority`); others may ignore it.
    public var priority: ImageRequest.Priority
    /// What the body is charged to as it arrives, or `nil` (default): a
    /// loader asks it before keeping each piece, and stops the transfer
    /// with `tooLarge` at the first it refuses.
    public var bodyAdmission: BodyAdmission?

    public init(
        url: URL, method: String = "GET", headers: HTTPFieldList = [:], timeout: Duration = .seconds(30),
        maxBodyBytes: Int = 32 << 20, responseFieldLimits: HTTPFieldList.Limits = .init(), body: Data? = nil,
        priority: ImageRequest.Priority = .normal, bodyAdmission: BodyAdmission? = nil
    ) {
        self.priority = priority
        self.bodyAdmission = bodyAdmission
        self.url = url
        self.method = method
        self.headers = headers
        self.timeout = timeout
        self.maxBodyBytes = maxBodyBytes
        self.responseFieldLimits = responseFieldLimits
        self.body = body
    }
}

/// What the server answered.
public struct DataResponse: Sendable, Equatable {
    /// The URL that answered: the request's (loaders do not follow redirects).
    public var url: URL
    public var statusCode: Int
    /// The header section as sent: names as spelled, repeated fields in
    /// order, values byte for byte. Never a trailer.
    public var headers: HTTPFieldList
    public var body: Data

    public init(url: URL, statusCode: Int, headers: HTTPFieldList, body: Data) {
        self.url = url
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
    }

    /// Where this response redirects a GET, when it is a redirect (`301`,
    /// `302`, `303`, `307` or `308` with a `Location` to an `http` or `https`
    /// URL): the `Location`, resolved against ``url`` as a browser resolves
    /// it (`URL(whatwg:relativeTo:)`: a raw space or non-ASCII encoded, the
    /// same on every OS version). `nil` otherwise, and for an empty
    /// `Location` (which would name this response's own URL again).
    public var redirectLocation: URL? {
        guard [301, 302, 303, 307, 308].contains(statusCode), let field = headers["Location"],
            field.utf8.contains(where: { $0 > 0x20 }), let location = URL(whatwg: field, relativeTo: url),
            let scheme = location.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else { return nil }
        return location
    }
}

/// Why a transfer produced no response.
public struct DataLoadingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure; new kinds may be added.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        /// The time limit passed.
        public static let timedOut = Kind("timed out")
        /// The host could not be resolved or reached, or refused the connection.
        public static let cannotConnect = Kind("cannot connect")
        /// The body passed ``DataRequest/maxBodyBytes``.
        public static let tooLarge = Kind("too large")
        /// The task was cancelled.
        public static let cancelled = Kind("cancelled")
        /// The connection broke or the response was not valid HTTP.
        public static let networkFailure = Kind("network failure")
        /// The response's header section passed
        /// ``DataRequest/responseFieldLimits``: a relay could not pass it on.
        public static let responseHeadTooLarge = Kind("response head too large")
        /// The URL is not one the loader fetches (e.g. not http or https).
        public static let unsupportedURL = Kind("unsupported URL")
        public var description: String { name }
    }

    public let kind: Kind
    /// What happened, with the client library's own message.
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}

extension DataLoadingError {
    /// The `URLError` code a URL-loading client (`URLProtocol`, a web view's
    /// scheme handler) expects for this failure; the one mapping both use.
    public var urlErrorCode: URLError.Code {
        switch kind {
        case .timedOut: .timedOut
        case .cannotConnect: .cannotConnectToHost
        case .cancelled: .cancelled
        case .tooLarge: .dataLengthExceedsMaximum
        case .unsupportedURL: .unsupportedURL
        case .networkFailure: .networkConnectionLost
        case .responseHeadTooLarge: .cannotParseResponse
        default: .cannotDecodeContentData
        }
    }
}

/// A budget that bodies are charged to as they arrive, shared by the
/// requests of a caller that holds many bodies at once and bounds them
/// together (the bridge's passed-through answers): ``admit(_:)`` is asked
/// before a loader keeps each piece of a body. Compared by identity.
public final class BodyAdmission: Sendable, Equatable {
    private let charge: @Sendable (Int) -> Bool

    /// - Parameter charge: Charges a piece of `n` bytes; `false` when it does
    ///   not fit, which stops the transfer.
    public init(_ charge: @escaping @Sendable (Int) -> Bool) {
        self.charge = charge
    }

    /// Whether a piece of `count` bytes may be kept (and is now charged).
    public func admit(_ count: Int) -> Bool { charge(count) }

    public static func == (lhs: BodyAdmission, rhs: BodyAdmission) -> Bool { lhs === rhs }
}
