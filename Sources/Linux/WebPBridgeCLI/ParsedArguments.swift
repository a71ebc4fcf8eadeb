/// The command line after parsing against a ``CommandConfiguration``: option
/// values by primary name, flags, and positional arguments, with typed
/// accessors that throw ``UsageError``.
public struct ParsedArguments: Sendable {
    /// Values of each option given, by primary name, in order.
    public private(set) var values: [String: [String]] = [:]
    /// Flags given, by primary name.
    public private(set) var flags: Set<String> = []
    /// Positional arguments in order.
    public private(set) var positionals: [String] = []
    /// Whether `--help` or `-h` was given.
    public private(set) var helpRequested = false

    /// Parses `arguments` (without the command name).
    ///
    /// Accepts `--name value`, `--name=value`, flags, `--` (everything after
    /// it is positional) and `-` (stdin) as a positional.
    public init(_ arguments: [String], configuration: CommandConfiguration) throws(UsageError) {
        var byName: [String: OptionSpec] = [:]
        for spec in configuration.options {
            for name in spec.names { byName[name] = spec }
        }
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            if argument == "--help" || argument == "-h" {
                helpRequested = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let spec = byName[name] else {
                throw UsageError("unknown option '\(name)'")
            }
            if let valueName = spec.valueName {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else {
                        throw UsageError("option '\(name)' needs a value (\(valueName))")
                    }
                    value = arguments[index]
                    index += 1
                }
                if !spec.repeatable, values[spec.primaryName] != nil {
                    throw UsageError("option '\(spec.primaryName)' given more than once")
                }
                values[spec.primaryName, default: []].append(value)
            } else {
                if inlineValue != nil { throw UsageError("flag '\(name)' takes no value") }
                flags.insert(spec.primaryName)
            }
        }
    }

    /// Whether the flag was given.
    public func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The option's value, or `nil`.
    public func string(_ name: String) -> String? { values[name]?.last }

    /// Every value of a repeatable option.
    public func strings(_ name: String) -> [String] { values[name] ?? [] }

    /// The option's value as an integer in `range`, or `nil` when absent.
    public func int(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = string(name) else { return nil }
        guard let value = Int(text) else {
            throw UsageError("option '\(name)' expects a whole number, got '\(text)'")
        }
        guard range.contains(value) else {
            throw UsageError(
                "option '\(name)' must be between \(range.lowerBound) and \(range.upperBound), got \(value)")
        }
        return value
    }

    /// Throws unless the number of positionals is within `range`.
    public func requirePositionals(_ range: ClosedRange<Int>, describing what: String) throws(UsageError) {
        if positionals.count < range.lowerBound {
            throw UsageError("missing \(what)")
        }
        if positionals.count > range.upperBound {
            throw UsageError("unexpected argument '\(positionals[range.upperBound])'")
        }
    }
}
