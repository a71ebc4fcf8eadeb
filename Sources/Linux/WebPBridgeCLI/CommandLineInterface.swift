/// Describes a command for parsing and `--help`, in swift-argument-parser's
/// shape: the command declares its options once, and both the parser and the
/// help text are derived from that declaration.
public struct CommandConfiguration: Sendable {
    /// The subcommand name, e.g. `convert`.
    public var commandName: String
    /// One line shown in the command list and at the top of `--help`.
    public var abstract: String
    /// Usage lines after `webp-bridge <name> `, e.g. `IN OUT [--quality Q]`.
    public var usage: [String]
    /// Free text shown after the options.
    public var discussion: String
    /// The options and flags the command accepts.
    public var options: [OptionSpec]
    /// Positional arguments, for help only: name and description.
    public var arguments: [(name: String, help: String)]

    public init(
        commandName: String, abstract: String, usage: [String], discussion: String = "",
        arguments: [(name: String, help: String)] = [], options: [OptionSpec]
    ) {
        self.commandName = commandName
        self.abstract = abstract
        self.usage = usage
        self.discussion = discussion
        self.arguments = arguments
        self.options = options
    }
}

/// One option (`--quality Q`) or flag (`--lossless`).
public struct OptionSpec: Sendable {
    /// Every spelling, long first: `["--output", "-o"]`.
    public var names: [String]
    /// The value's placeholder (`Q`), or `nil` for a flag.
    public var valueName: String?
    /// What it does, including its default.
    public var help: String
    /// Whether it may be given more than once.
    public var repeatable: Bool

    /// An option that takes a value.
    public static func option(_ names: String..., value: String, help: String, repeatable: Bool = false) -> OptionSpec {
        OptionSpec(names: names, valueName: value, help: help, repeatable: repeatable)
    }

    /// A flag without a value.
    public static func flag(_ names: String..., help: String) -> OptionSpec {
        OptionSpec(names: names, valueName: nil, help: help, repeatable: false)
    }

    var primaryName: String { names[0] }
}

/// A usage error: exit code 2, one line on stderr plus a pointer to `--help`.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// A failure while running a valid command (bad input file, network error…):
/// exit code 1 and one line on stderr.
public struct CommandFailure: Error, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Exit codes shared by every command.
public enum ExitCode {
    public static let success: Int32 = 0
    public static let failure: Int32 = 1
    public static let usage: Int32 = 2
}
