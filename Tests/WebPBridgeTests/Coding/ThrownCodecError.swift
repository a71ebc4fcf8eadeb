import WebPBridge

/// The codec error `body` throws, or `nil` when it throws none or another
/// error (not `#require(throws:)`'s result: that is Swift Testing 6.1,
/// newer than the Swift 6.0 floor). Shared by the suites that check what a
/// decode refuses.
func thrownCodecError(_ body: () throws -> Void) -> ImageCodecError? {
    do {
        try body()
        return nil
    } catch {
        return error as? ImageCodecError
    }
}
