/// An HTTP status code with its reason phrase.
public struct HTTPStatus: Hashable, Sendable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    /// The three-digit code, e.g. `404`.
    public let code: Int

    /// Creates a status from its code.
    /// - Parameter code: A code between 100 and 599.
    public init(code: Int) {
        precondition((100...599).contains(code), "HTTP status \(code) is outside 100...599")
        self.code = code
    }

    /// Creates a status from an integer literal, e.g. `let status: HTTPStatus = 404`.
    /// - Parameter value: A code between 100 and 599.
    public init(integerLiteral value: Int) { self.init(code: value) }

    /// The standard reason phrase (RFC 9110), or `""` for an unregistered code.
    public var reasonPhrase: String { Self.reasonPhrases[code] ?? "" }

    /// `"404 Not Found"`
    public var description: String { reasonPhrase.isEmpty ? "\(code)" : "\(code) \(reasonPhrase)" }

    /// `true` for 1xx codes.
    public var isInformational: Bool { (100...199).contains(code) }
    /// `true` for 2xx codes.
    public var isSuccess: Bool { (200...299).contains(code) }
    /// `true` for 3xx codes.
    public var isRedirection: Bool { (300...399).contains(code) }
    /// `true` for 4xx codes.
    public var isClientError: Bool { (400...499).contains(code) }
    /// `true` for 5xx codes.
    public var isServerError: Bool { (500...599).contains(code) }

    /// Whether a response with this status may carry a body
    /// (1xx, 204 and 304 never do, RFC 9110 §6.4.1).
    public var allowsBody: Bool { !isInformational && code != 204 && code != 304 }

    /// 200
    public static let ok: HTTPStatus = 200
    /// 201
    public static let created: HTTPStatus = 201
    /// 204
    public static let noContent: HTTPStatus = 204
    /// 206
    public static let partialContent: HTTPStatus = 206
    /// 301
    public static let movedPermanently: HTTPStatus = 301
    /// 302
    public static let found: HTTPStatus = 302
    /// 304
    public static let notModified: HTTPStatus = 304
    /// 307
    public static let temporaryRedirect: HTTPStatus = 307
    /// 400
    public static let badRequest: HTTPStatus = 400
    /// 403
    public static let forbidden: HTTPStatus = 403
    /// 404
    public static let notFound: HTTPStatus = 404
    /// 405
    public static let methodNotAllowed: HTTPStatus = 405
    /// 408
    public static let requestTimeout: HTTPStatus = 408
    /// 412
    public static let preconditionFailed: HTTPStatus = 412
    /// 413
    public static let contentTooLarge: HTTPStatus = 413
    /// 414
    public static let uriTooLong: HTTPStatus = 414
    /// 415
    public static let unsupportedMediaType: HTTPStatus = 415
    /// 416
    public static let rangeNotSatisfiable: HTTPStatus = 416
    /// 429
    public static let tooManyRequests: HTTPStatus = 429
    /// 431
    public static let requestHeaderFieldsTooLarge: HTTPStatus = 431
    /// 500
    public static let internalServerError: HTTPStatus = 500
    /// 501
    public static let notImplemented: HTTPStatus = 501
    /// 502
    public static let badGateway: HTTPStatus = 502
    /// 503
    public static let serviceUnavailable: HTTPStatus = 503
    /// 504
    public static let gatewayTimeout: HTTPStatus = 504

    private static let reasonPhrases: [Int: String] = [
        100: "Continue", 101: "Switching Protocols",
        200: "OK", 201: "Created", 202: "Accepted", 203: "Non-Authoritative Information",
        204: "No Content", 205: "Reset Content", 206: "Partial Content",
        300: "Multiple Choices", 301: "Moved Permanently", 302: "Found", 303: "See Other",
        304: "Not Modified", 307: "Temporary Redirect", 308: "Permanent Redirect",
        400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
        405: "Method Not Allowed", 406: "Not Acceptable", 408: "Request Timeout", 409: "Conflict",
        410: "Gone", 411: "Length Required", 412: "Precondition Failed", 413: "Content Too Large",
        414: "URI Too Long", 415: "Unsupported Media Type", 416: "Range Not Satisfiable",
        417: "Expectation Failed", 421: "Misdirected Request", 422: "Unprocessable Content",
        426: "Upgrade Required", 428: "Precondition Required", 429: "Too Many Requests",
        431: "Request Header Fields Too Large",
        500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway",
        503: "Service Unavailable", 504: "Gateway Timeout", 505: "HTTP Version Not Supported",
    ]
}
