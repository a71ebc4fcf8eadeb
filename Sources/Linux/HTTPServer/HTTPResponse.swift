public import Foundation
public import WebPBridge

/// An HTTP response: status, header fields and a body held in memory or
/// read from a file.
///
/// A body served many times — a cached image — is best kept as
/// ``BodyBytes`` (``Body/bytes(_:)``), which the server sends from its own
/// memory; a `Data` body is copied once per response.
///
/// The server adds `Content-Length`, `Date` and connection management
/// itself; a `Content-Length` or `Transfer-Encoding` field set here is
/// ignored. For a `HEAD` request the server sends the headers, with the
/// `Content-Length` of the body, and never the body, so a handler can answer
/// `HEAD` like `GET`: a memory body is not copied and a file is not opened.
///
/// A response sent again and again unchanged — a ready answer to a repeated
/// request — is best wrapped once in a ``PreparedResponse`` and returned as
/// ``prepared(_:)``: the server then hands libmicrohttpd the response it
/// built once instead of building one per request.
public struct HTTPResponse: Sendable, Equatable {
    /// Where a response body comes from.
    public enum Body: Sendable, Equatable {
        /// No body.
        case empty
        /// Bytes in memory, copied once per response into memory
        /// libmicrohttpd owns (a `Data` lends its pointer only for the
        /// length of a closure).
        case data(Data)
        /// Bytes in memory the server owns, sent without a copy: each
        /// response in flight keeps them alive until it is sent.
        case bytes(BodyBytes)
        /// A byte range of a file, sent by the kernel without copying it
        /// through the process. `length` `nil` means to the end of the file.
        /// A file that cannot be opened when the response is sent gives 404
        /// (missing) or 500.
        case file(path: String, offset: UInt64 = 0, length: UInt64? = nil)
    }

    /// The status.
    public var status: HTTPStatus { didSet { prepared = nil } }

    /// The header fields.
    public var headers: HTTPFieldList { didSet { prepared = nil } }

    /// The body.
    public var body: Body { didSet { prepared = nil } }

    /// The libmicrohttpd response built once for exactly this response, set
    /// by ``prepared(_:)`` and dropped by any change to it.
    private(set) var prepared: PreparedResponse?

    /// Creates a response.
    /// - Parameters:
    ///   - status: The status; 200 by default.
    ///   - headers: The header fields.
    ///   - body: The body; none by default.
    public init(status: HTTPStatus = .ok, headers: HTTPFieldList = [:], body: Body = .empty) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The response `prepared` was made from, sent through the libmicrohttpd
    /// response built for it once (changing the returned value drops that,
    /// and the server builds one per request again).
    /// - Parameter prepared: A response kept by a cache of ready answers.
    public static func prepared(_ prepared: PreparedResponse) -> HTTPResponse {
        var response = prepared.response
        response.prepared = prepared
        return response
    }

    /// Responses are equal when status, headers and body are, prepared or not.
    public static func == (lhs: HTTPResponse, rhs: HTTPResponse) -> Bool {
        lhs.status == rhs.status && lhs.headers == rhs.headers && lhs.body == rhs.body
    }

    /// A response with a body in memory and its `Content-Type`.
    /// - Parameters:
    ///   - status: The status; 200 by default.
    ///   - data: The body.
    ///   - contentType: The media type, e.g. `image/webp`.
    ///   - headers: Further header fields.
    public static func data(
        _ data: Data, status: HTTPStatus = .ok, contentType: String, headers: HTTPFieldList = [:]
    ) -> HTTPResponse {
        var headers = headers
        headers["Content-Type"] = contentType
        return HTTPResponse(status: status, headers: headers, body: .data(data))
    }

    /// A response whose body is `bytes`, sent without a copy, and its
    /// `Content-Type`.
    /// - Parameters:
    ///   - bytes: The body, usually kept by a cache and shared by every
    ///     response that sends it.
    ///   - status: The status; 200 by default.
    ///   - contentType: The media type, e.g. `image/webp`.
    ///   - headers: Further header fields.
    public static func bytes(
        _ bytes: BodyBytes, status: HTTPStatus = .ok, contentType: String, headers: HTTPFieldList = [:]
    ) -> HTTPResponse {
        var headers = headers
        headers["Content-Type"] = contentType
        return HTTPResponse(status: status, headers: headers, body: .bytes(bytes))
    }

    /// A plain-text response (`text/plain; charset=utf-8`, with
    /// `X-Content-Type-Options: nosniff`); a newline is
    /// appended when the text has none, for readable `curl` output.
    /// - Parameters:
    ///   - status: The status.
    ///   - text: The body text.
    ///   - headers: Further header fields.
    public static func text(_ status: HTTPStatus, _ text: String, headers: HTTPFieldList = [:]) -> HTTPResponse {
        let line = text.hasSuffix("\n") ? text : text + "\n"
        var headers = headers
        // A message may quote the request (a refused fop, a path): never read as anything but text.
        if !headers.contains("X-Content-Type-Options") { headers["X-Content-Type-Options"] = "nosniff" }
        return .data(Data(line.utf8), status: status, contentType: "text/plain; charset=utf-8", headers: headers)
    }

    /// A response whose body is a whole file, or a byte range of it.
    /// - Parameters:
    ///   - path: The file's path.
    ///   - contentType: The media type.
    ///   - offset: The first byte to send.
    ///   - length: How many bytes to send; `nil` for the rest of the file.
    ///   - headers: Further header fields.
    public static func file(
        path: String, contentType: String, offset: UInt64 = 0, length: UInt64? = nil,
        headers: HTTPFieldList = [:]
    ) -> HTTPResponse {
        var headers = headers
        headers["Content-Type"] = contentType
        return HTTPResponse(status: .ok, headers: headers, body: .file(path: path, offset: offset, length: length))
    }
}
