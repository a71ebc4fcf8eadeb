/// One thing that keeps an Apple product from building on an Apple platform.
package struct PortabilityViolation: Sendable, Hashable, CustomStringConvertible, Comparable {
    /// What kind of rule it breaks.
    package enum Rule: String, Sendable, Hashable, Comparable {
        /// A product reaches a `systemLibrary` target (pkg-config/Homebrew; none on iOS).
        case systemLibrary
        /// A product reaches a target, or a product of another package, the Apple view does not hold.
        case missingTarget
        /// A Linux-only (or above-the-floor) module imported outside a guard.
        case unguardedImport
        /// An API newer than the declared floor used outside an availability guard.
        case newerAPI
        /// A language or library feature newer than the oldest supported Swift, outside `#if compiler(>=…)`.
        case newerSwift
        /// Source the check cannot read: unbalanced `#if`, a file too large, a missing folder.
        case unreadableSource

        package static func < (lhs: Rule, rhs: Rule) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The rule broken.
    package var rule: Rule
    /// A path relative to the package (`Sources/A/File.swift`, or `Package.swift`).
    package var file: String
    /// The 1-based line, or `nil` for a finding about the whole file or the manifest.
    package var line: Int?
    /// What is wrong and what to do.
    package var reason: String

    /// Creates a violation.
    package init(rule: Rule, file: String, line: Int? = nil, reason: String) {
        self.rule = rule
        self.file = file
        self.line = line
        self.reason = reason
    }

    /// `file:line: reason`, as compilers print.
    package var description: String {
        if let line { return "\(file):\(line): \(reason)" }
        return "\(file): \(reason)"
    }

    package static func < (lhs: PortabilityViolation, rhs: PortabilityViolation) -> Bool {
        (lhs.file, lhs.line ?? 0, lhs.reason) < (rhs.file, rhs.line ?? 0, rhs.reason)
    }
}
