/// The one error type of `ImageCodecs`.
///
/// It names the format, what was wrong, and carries the library's own message
/// where a C library produced one, e.g.
/// `truncated WebP: 4,096 of 82,878 bytes`.
public struct ImageCodecError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is; new kinds may be added.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Storage: String, Hashable, Sendable {
            case unknownFormat = "unknown format"
            case truncated
            case corrupt
            case limitExceeded = "limit exceeded"
            case unsupported
            case invalidArgument = "invalid argument"
            case encodingFailed = "encoding failed"
            case outOfMemory = "out of memory"
        }
        fileprivate let storage: Storage

        /// The bytes are not any image format this library reads.
        public static let unknownFormat = Kind(storage: .unknownFormat)
        /// The data ends before the image does.
        public static let truncated = Kind(storage: .truncated)
        /// The data is damaged or not valid for its format.
        public static let corrupt = Kind(storage: .corrupt)
        /// The image is larger than the configured ``DecodingLimits``.
        public static let limitExceeded = Kind(storage: .limitExceeded)
        /// A valid feature this library does not handle.
        public static let unsupported = Kind(storage: .unsupported)
        /// A caller-supplied parameter is out of range.
        public static let invalidArgument = Kind(storage: .invalidArgument)
        /// The encoder refused the input or failed.
        public static let encodingFailed = Kind(storage: .encodingFailed)
        /// A C library could not allocate memory.
        public static let outOfMemory = Kind(storage: .outOfMemory)

        public var description: String { storage.rawValue }
    }

    /// What kind of failure this is.
    public let kind: Kind
    /// The format involved, when known.
    public let format: ImageFormat?
    /// A human-readable explanation, including the library's own message.
    public let message: String

    /// Creates an error.
    public init(_ kind: Kind, format: ImageFormat?, _ message: String) {
        self.kind = kind
        self.format = format
        self.message = message
    }

    public var description: String { message }
}

extension ImageCodecError {
    package static func truncated(_ format: ImageFormat, have: Int, need: Int?) -> ImageCodecError {
        if let need {
            return ImageCodecError(
                .truncated, format: format,
                "truncated \(format): \(have.formattedWithSeparators) of \(need.formattedWithSeparators) bytes")
        }
        return ImageCodecError(
            .truncated, format: format, "truncated \(format): data ends after \(have.formattedWithSeparators) bytes")
    }

    package static func corrupt(_ format: ImageFormat, _ detail: String) -> ImageCodecError {
        ImageCodecError(.corrupt, format: format, "corrupt \(format): \(detail)")
    }

    package static func invalidArgument(_ format: ImageFormat?, _ detail: String) -> ImageCodecError {
        ImageCodecError(.invalidArgument, format: format, detail)
    }

    /// Thrown by an encoder's own frame visitor to stop visiting early (to
    /// start over with other settings); the encoder catches it, so it never
    /// reaches a caller.
    package static let visitStopped = ImageCodecError(.unsupported, format: nil, "frame visit stopped by the encoder")
}

extension Int {
    /// `82878` → `"82,878"`, independent of locale so messages are stable.
    package var formattedWithSeparators: String {
        let digits = String(magnitude)
        var result = ""
        for (offset, character) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(character)
        }
        return self < 0 ? "-" + result : result
    }
}
