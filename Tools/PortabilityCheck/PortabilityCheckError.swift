/// Why the check could not run (as opposed to finding violations).
package struct PortabilityCheckError: Error, Sendable, CustomStringConvertible {
    private enum Kind: Sendable {
        case manifest
        case dumpPackage
    }

    private let kind: Kind
    /// What went wrong and what to do.
    package let message: String

    private init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The dump-package JSON could not be read.
    static func manifest(_ message: String) -> PortabilityCheckError { .init(.manifest, message) }

    /// `swift package dump-package` could not run or failed.
    static func dumpPackage(_ message: String) -> PortabilityCheckError { .init(.dumpPackage, message) }

    /// Whether the manifest's JSON was unreadable (rather than the tool failing to run).
    package var isManifestError: Bool { kind == .manifest }

    package var description: String { message }
}
