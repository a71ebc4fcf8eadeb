import WebPBridge

/// `--work-budget MEGAPIXELS`, declared once for the server commands: the
/// pixels one request may process (``DecodingLimits/maxWorkPixels``),
/// docs/work-budget.md.
enum WorkBudgetOption {
    static let spec = OptionSpec.option(
        "--work-budget", value: "MP",
        help: "Megapixels one request may decode, resample and encode, frames counted; default"
            + " \(DecodingLimits.serverWorkPixels / 1_000_000) (about 2 s of CPU). Beyond it: 413.")

    /// The pixels `--work-budget` names; `nil` when it is not given.
    /// - Throws: ``UsageError`` unless it is a whole number of megapixels, 1 to 100,000.
    static func pixels(_ parsed: ParsedArguments) throws(UsageError) -> Int? {
        try parsed.int("--work-budget", in: 1...100_000).map { $0 * 1_000_000 }
    }
}
