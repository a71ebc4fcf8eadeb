import ImageOrigin

/// `--quality Q` or `--quality auto[:TARGET]`, as `origin` and `convert` take it.
enum QualityOption: Equatable {
    /// One encoder quality for every image.
    case fixed(Int)
    /// Per image, the lowest quality reaching the target (``ImageTransformer/QualityMode/auto(target:)``).
    case auto(target: Double)

    /// The help text's description of `auto[:TARGET]`.
    static let autoHelp =
        "'auto' or 'auto:TARGET' chooses per image the lowest quality whose SSIMULACRA 2 score reaches TARGET"
        + " (\(ImageTransformer.QualityMode.targets.lowerBound)-\(ImageTransformer.QualityMode.targets.upperBound),"
        + " default \(ImageTransformer.QualityMode.defaultTarget)), never above the default quality,"
        + " in at most \(QualitySearch.maxEncodes) encodes (an animated webp: as many for each of its first,"
        + " middle and last frames)."

    /// `--quality` from `parsed`, a whole number in `range` or `auto[:TARGET]`; `nil` when absent.
    ///
    /// - Throws: ``UsageError`` naming what was expected.
    static func parse(_ parsed: ParsedArguments, in range: ClosedRange<Int>) throws(UsageError) -> QualityOption? {
        guard let text = parsed.string("--quality") else { return nil }
        if text == "auto" || text.hasPrefix("auto:") {
            guard case .auto(let target) = ImageTransformer.QualityMode(flag: text) else {
                let targets = ImageTransformer.QualityMode.targets
                throw UsageError(
                    "option '--quality' expects auto:TARGET with TARGET from \(targets.lowerBound) to"
                        + " \(targets.upperBound) (an SSIMULACRA 2 score, e.g. auto:70), got '\(text)'")
            }
            return .auto(target: target)
        }
        guard let quality = try parsed.int("--quality", in: range) else { return nil }
        return .fixed(quality)
    }
}
