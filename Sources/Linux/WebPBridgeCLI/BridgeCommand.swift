/// A `webp-bridge` subcommand: it declares its configuration, builds itself
/// from parsed arguments (validating before anything runs), then runs.
public protocol BridgeCommand: Sendable {
    /// Name, help text and options.
    static var configuration: CommandConfiguration { get }
    /// Builds the command, throwing ``UsageError`` for anything invalid.
    init(parsed: ParsedArguments) throws(UsageError)
    /// Runs the command; a thrown ``CommandFailure`` or other error exits 1.
    func run(io: CommandIO) async throws
}
