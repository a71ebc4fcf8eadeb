/// A size in bytes as given on the command line: a whole number with an
/// optional binary suffix, `K`, `M` or `G` (KiB, MiB, GiB), e.g. `256M`.
enum MemorySize {
    /// The smallest memory budget accepted: 16 MiB.
    static let minimumBudget = 16 << 20

    /// `--memory-budget SIZE`, declared once for the server commands; each
    /// names its own default (a whole number of MiB, e.g. 256 MiB: `256M`).
    static func budgetOption(defaultBytes: Int) -> OptionSpec {
        .option(
            "--memory-budget", value: "SIZE",
            help: "Memory for caches and request bodies, e.g. \(defaultBytes >> 20)M (default); "
                + "split as docs/limits.md says.")
    }

    /// The bytes `--memory-budget` names; `nil` when it is not given.
    /// - Throws: ``UsageError`` when the value is not a size of at least 16M.
    static func budget(_ parsed: ParsedArguments) throws(UsageError) -> Int? {
        try parsed.string("--memory-budget").map { text throws(UsageError) in
            try budget(text, option: "--memory-budget")
        }
    }

    /// The bytes `text` names, at least ``minimumBudget`` and at most 1 TiB.
    /// - Throws: ``UsageError`` naming `option` when `text` is not a size.
    static func budget(_ text: String, option: String) throws(UsageError) -> Int {
        var digits = Substring(text)
        var scale = 1
        if let last = digits.last, let shift = ["k": 10, "m": 20, "g": 30][last.lowercased()] {
            scale = 1 << shift
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let value = Int(digits), value >= 0,
            value <= (1 << 40) / scale
        else {
            throw UsageError("\(option) expects a size such as 256M or 1G, got '\(text)'")
        }
        let bytes = value * scale
        guard bytes >= minimumBudget else {
            throw UsageError("\(option) must be at least 16M, got '\(text)'")
        }
        return bytes
    }
}
