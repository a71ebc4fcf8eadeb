/// Why the check could not run (as opposed to finding violations).
public struct PortabilityCheckError: Error, Sendable, CustomStringConvertible {
    private enum Kind: Sendable {
        case manifest
        case dumpPackage
    }

    private let kind: Kind
    /// What went wrong and what to do.
    public let message: String

    private init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The dump-package JSON could not be read.
    static func manifest(_ message: String) -> PortabilityCheckError { .init(.manifest, message) }

    /// `swift package dump-package` could not run or failed.
    static func dumpPackage(_ message: String) -> PortabilityCheckError { .init(.dumpPackage, message) }

    /// Whether the manifest's JSON was unreadable (rather than the tool failing to run).
    public var isManifestError: Bool { kind == .manifest }

    public var description: String { message }
}
