import Foundation
import WebPBridge

/// The invariants every fuzz entry checks: a violated one stops the process,
/// which libFuzzer records as a crash with the input that caused it.
enum FuzzExpectation {
    /// Runs `body`, which may succeed or throw ``ImageCodecError``; any other
    /// error is a finding (the codecs promise typed errors only).
    static func typedCodecError(_ body: () throws -> Void) {
        do {
            try body()
        } catch is ImageCodecError {
            // Refused with a typed error: the expected answer to bad bytes.
        } catch {
            fail("untyped error escaped the codecs: \(type(of: error)): \(error)")
        }
    }

    /// Stops the process with `message` unless `condition` holds.
    static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fail(message()) }
    }

    /// Stops the process with `message`, printed first on a line of its own
    /// with `ERROR:`, the line libFuzzer's fork mode copies from a crashed
    /// job's log into the run's log (the job's log itself is deleted).
    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("ERROR: fuzz entry: \(message)\n".utf8))
        fatalError(message)
    }
}
