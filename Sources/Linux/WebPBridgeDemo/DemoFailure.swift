/// Why the demo could not run: no source photos, a server that would not
/// start, a front page that did not load. The description says what
/// happened and, where it can, what to do.
package struct DemoFailure: Error, Sendable, CustomStringConvertible {
    /// What went wrong, in one line.
    package var message: String

    /// A failure saying `message`.
    package init(_ message: String) { self.message = message }

    /// The message.
    package var description: String { message }
}
