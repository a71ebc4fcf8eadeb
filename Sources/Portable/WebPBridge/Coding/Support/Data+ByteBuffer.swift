package import Foundation

extension Data {
    /// Calls `body` with the bytes of the data, keeping `body`'s typed error.
    ///
    /// `Data.withUnsafeBytes` is `rethrows`, which erases a typed error to
    /// `any Error`; decoders that throw ``ImageCodecError`` use this instead.
    package func withByteBuffer<Result>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(ImageCodecError) -> Result
    ) throws(ImageCodecError) -> Result {
        try withRawBytes { raw throws(ImageCodecError) in try body(raw.bindMemory(to: UInt8.self)) }
    }

    /// Calls `body` with the raw bytes of the data, keeping `body`'s typed
    /// error (see ``withByteBuffer(_:)``).
    package func withRawBytes<Result>(
        _ body: (UnsafeRawBufferPointer) throws(ImageCodecError) -> Result
    ) throws(ImageCodecError) -> Result {
        let outcome = withUnsafeBytes { raw in
            Swift.Result { () throws(ImageCodecError) -> Result in try body(raw) }
        }
        return try outcome.get()
    }
}
