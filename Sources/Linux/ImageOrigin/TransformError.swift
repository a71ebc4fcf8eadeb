import WebPBridge

/// Why a transformation failed, with the HTTP status the origin answers.
public struct TransformError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Kind: Sendable, Equatable {
        case badRequest, tooLarge, notAnImage, failed
    }

    private let kind: Kind
    /// What went wrong, for the response body and the log.
    public let message: String

    private init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// A malformed processing request: 400.
    public static func badRequest(_ message: String) -> TransformError { .init(.badRequest, message) }
    /// Over a size or pixel limit: 413.
    public static func tooLarge(_ message: String) -> TransformError { .init(.tooLarge, message) }
    /// The source is not an image this origin decodes: 415.
    public static func notAnImage(_ message: String) -> TransformError { .init(.notAnImage, message) }
    /// Anything else: 500.
    public static func failed(_ message: String) -> TransformError { .init(.failed, message) }

    init(codecError error: ImageCodecError) {
        switch error.kind {
        case .limitExceeded: self.init(.tooLarge, error.message)
        case .invalidArgument where error.format == .webp: self.init(.tooLarge, error.message)
        case .unknownFormat, .corrupt, .truncated, .unsupported: self.init(.notAnImage, error.message)
        default: self.init(.failed, error.message)
        }
    }

    /// The HTTP status code for this error.
    public var statusCode: Int {
        switch kind {
        case .badRequest: 400
        case .tooLarge: 413
        case .notAnImage: 415
        case .failed: 500
        }
    }

    public var description: String { message }
}
