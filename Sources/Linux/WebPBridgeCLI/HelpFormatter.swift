/// Renders `--help` text from a ``CommandConfiguration``. Help is tested
/// verbatim, so keep the layout stable.
enum HelpFormatter {
    static func help(for configuration: CommandConfiguration, toolName: String = "webp-bridge") -> String {
        var lines: [String] = []
        lines.append("OVERVIEW: \(configuration.abstract)")
        lines.append("")
        for (offset, usage) in configuration.usage.enumerated() {
            let lead = offset == 0 ? "USAGE: " : "       "
            lines.append("\(lead)\(toolName) \(configuration.commandName) \(usage)")
        }
        if !configuration.arguments.isEmpty {
            lines.append("")
            lines.append("ARGUMENTS:")
            for argument in configuration.arguments {
                lines.append(contentsOf: row(argument.name, argument.help))
            }
        }
        lines.append("")
        lines.append("OPTIONS:")
        for spec in configuration.options {
            var label = spec.names.joined(separator: ", ")
            if let valueName = spec.valueName { label += " <\(valueName)>" }
            lines.append(contentsOf: row(label, spec.help))
        }
        lines.append(contentsOf: row("-h, --help", "Show help information."))
        if !configuration.discussion.isEmpty {
            lines.append("")
            lines.append(configuration.discussion)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `  label   help`, with the help on the next line when the label is long.
    private static func row(_ label: String, _ help: String) -> [String] {
        let column = 26
        let padded = "  " + label
        if padded.count < column - 1 {
            return [padded + String(repeating: " ", count: column - padded.count) + help]
        }
        return [padded, String(repeating: " ", count: column) + help]
    }
}
