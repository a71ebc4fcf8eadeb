public import Foundation

/// A response body's bytes in memory the server owns: copied in once,
/// never changed, freed when the last holder lets go.
///
/// A cache that serves the same body many times keeps one of these (as
/// ``HTTPResponse/Body/bytes(_:)``) instead of a `Data`: the server hands
/// its memory to libmicrohttpd without copying, and every response in
/// flight holds a reference until libmicrohttpd has sent it and frees it,
/// so the bytes live exactly as long as some response or holder needs them.
/// A `Data` body, by contrast, is copied into memory libmicrohttpd owns for
/// every response, since a `Data` lends its pointer only for the length of
/// a closure.
///
/// Thread safety: `@unchecked Sendable` without a lock, because the memory
/// is written once, in `init`, before the object can be shared, and only
/// read afterwards; nothing hands out a mutable pointer to it.
public final class BodyBytes: @unchecked Sendable {
    /// What happened to a body, for tests that count how long it lives.
    enum Event: Sendable {
        /// libmicrohttpd freed a response that was sending these bytes.
        case responseFreed
        /// The memory was given back.
        case deallocated
    }

    private let buffer: UnsafeMutableRawBufferPointer
    private let observer: (@Sendable (Event) -> Void)?
    private let whenFreed: (@Sendable () -> Void)?

    /// Copies `data`, once.
    /// - Parameter data: The body.
    public convenience init(_ data: Data) {
        self.init(data, observer: nil)
    }

    /// Copies `data`, once, and calls `whenFreed` when the memory is given
    /// back (the last response sending it sent, and no other holder left):
    /// what a budget charged for the bytes waits for.
    public convenience init(_ data: Data, whenFreed: @escaping @Sendable () -> Void) {
        self.init(data, observer: nil, whenFreed: whenFreed)
    }

    /// Copies `data` and reports each ``Event`` to `observer` (tests only).
    init(_ data: Data, observer: (@Sendable (Event) -> Void)?, whenFreed: (@Sendable () -> Void)? = nil) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(
            byteCount: data.count, alignment: MemoryLayout<UInt64>.alignment)
        data.withUnsafeBytes { buffer.copyMemory(from: $0) }
        self.buffer = buffer
        self.observer = observer
        self.whenFreed = whenFreed
    }

    deinit {
        buffer.deallocate()
        observer?(.deallocated)
        whenFreed?()
    }

    /// The number of bytes.
    public var count: Int { buffer.count }

    /// Whether there are no bytes.
    public var isEmpty: Bool { buffer.isEmpty }

    /// A copy of the bytes as `Data`: for tests and diagnostics, not for a
    /// path that serves them.
    public var data: Data { Data(buffer) }

    /// Calls `body` with the bytes, read-only; the pointer is valid only
    /// inside `body`.
    /// - Parameter body: Reads the bytes.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    public func withUnsafeBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(UnsafeRawBufferPointer(buffer))
    }

    /// The start of the memory, for libmicrohttpd: valid while `self` is
    /// retained, which ``MHDResponse`` guarantees by retaining it until
    /// libmicrohttpd frees the response. `nil` when empty.
    var baseAddress: UnsafeRawPointer? { buffer.isEmpty ? nil : UnsafeRawPointer(buffer.baseAddress) }

    /// Reports that libmicrohttpd freed a response holding these bytes.
    func responseFreed() { observer?(.responseFreed) }
}

extension BodyBytes: Equatable {
    /// Bodies are equal when their bytes are.
    public static func == (lhs: BodyBytes, rhs: BodyBytes) -> Bool {
        if lhs === rhs { return true }
        guard lhs.count == rhs.count else { return false }
        return lhs.withUnsafeBytes { left in rhs.withUnsafeBytes { right in left.elementsEqual(right) } }
    }
}

extension BodyBytes: CustomStringConvertible {
    /// The size, e.g. `88000 bytes`; never the bytes themselves.
    public var description: String { "\(count) bytes" }
}
