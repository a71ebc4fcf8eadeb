/// A language or library feature that needs a newer Swift compiler than the
/// oldest one the package supports, and the token sequences that find it.
///
/// The oldest compiler is the manifest's `swift-tools-version` (6.0 here:
/// Xcode 16.0 is the oldest Xcode that reads the manifest). A use counts as
/// guarded inside `#if compiler(>=X)` or `#if swift(>=X)` with X at least
/// the feature's version. Versions are those of the Swift Evolution
/// proposals (`SE-NNNN`, status "Implemented (Swift X)") and of the Swift
/// Testing releases that shipped each API.
package struct LanguageFeature: Sendable {
    /// What the report names (`TestScoping (Swift Testing)`).
    package var name: String
    /// Token sequences, any of which is a use.
    package var patterns: [[String]]
    /// Whether a raw identifier (`` `a name with spaces` ``) is a use.
    package var matchesRawIdentifiers = false
    /// The first Swift compiler with the feature.
    package var introduced: OSVersion

    /// Creates a table entry.
    package init(name: String, patterns: [[String]], matchesRawIdentifiers: Bool = false, introduced: OSVersion) {
        self.name = name
        self.patterns = patterns
        self.matchesRawIdentifiers = matchesRawIdentifiers
        self.introduced = introduced
    }

    /// The table the check uses. Token sequences, not a parser: approximate
    /// in the same way as ``APIAvailability/standard``.
    package static let standard: [LanguageFeature] = [
        // Swift Testing 6.1 (ST-0007, test scoping traits): `TestScoping` and `provideScope`.
        LanguageFeature(
            name: "TestScoping (Swift Testing 6.1)", patterns: [["TestScoping"]], introduced: OSVersion(6, 1)),
        // Swift Testing 6.1 (ST-0006): `#expect(throws:)` and `#require(throws:)` return the error; with
        // an older compiler they return nothing, so using the result does not compile.
        LanguageFeature(
            name: "the error returned by #expect(throws:)/#require(throws:) (Swift Testing 6.1)",
            patterns: [
                ["=", "#expect", "(", "throws", ":"], ["=", "try", "#require", "(", "throws", ":"],
                ["=", "try", "await", "#require", "(", "throws", ":"], ["=", "await", "#expect", "(", "throws", ":"],
            ],
            introduced: OSVersion(6, 1)),
        // SE-0449, `nonisolated` on types and extensions: Swift 6.1.
        LanguageFeature(
            name: "nonisolated on a type or extension (SE-0449)",
            patterns: ["struct", "class", "enum", "actor", "protocol", "extension", "final"].map {
                ["nonisolated", $0]
            },
            introduced: OSVersion(6, 1)),
        // SE-0461: `nonisolated(nonsending)` and `@concurrent`: Swift 6.2.
        LanguageFeature(
            name: "nonisolated(nonsending) / @concurrent (SE-0461)",
            patterns: [["nonisolated", "(", "nonsending", ")"], ["@concurrent"]], introduced: OSVersion(6, 2)),
        // SE-0371, isolated synchronous deinit: Swift 6.2.
        LanguageFeature(
            name: "isolated deinit (SE-0371)", patterns: [["isolated", "deinit"]], introduced: OSVersion(6, 2)),
        // SE-0481, `weak let`: Swift 6.2.
        LanguageFeature(name: "weak let (SE-0481)", patterns: [["weak", "let"]], introduced: OSVersion(6, 2)),
        // SE-0451, raw identifiers (`` func `a test name`() ``): Swift 6.2.
        LanguageFeature(
            name: "raw identifier (SE-0451)", patterns: [], matchesRawIdentifiers: true, introduced: OSVersion(6, 2)),
        // SE-0469 task names and SE-0472 `Task.immediate`: Swift 6.2 (their OS floor is iOS 26 as well).
        LanguageFeature(
            name: "Task names / Task.immediate (SE-0469, SE-0472)",
            patterns: [["Task", "(", "name", ":"], ["Task", ".", "immediate"], [".", "immediateDetached"]],
            introduced: OSVersion(6, 2)),
        // SE-0447 `Span` and SE-0456 `.span` properties: the compiler of Swift 6.2 (Xcode 26); back-deployed
        // at run time.
        LanguageFeature(
            name: "Span (SE-0447)",
            patterns: [["Span", "<"], ["RawSpan"], ["MutableSpan"], ["MutableRawSpan"], [".", "span"]],
            introduced: OSVersion(6, 2)),
        // Swift Testing 6.2: exit tests (`#expect(processExitsWith:)`) and attachments (`Attachment`).
        LanguageFeature(
            name: "exit tests / attachments (Swift Testing 6.2)",
            patterns: [["processExitsWith", ":"], ["Attachment", "."], ["Attachment", "("], ["Attachment", "<"]],
            introduced: OSVersion(6, 2)),
    ]
}
