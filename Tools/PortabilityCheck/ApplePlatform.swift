/// An Apple platform the check evaluates the Apple products for.
///
/// Only iOS and macOS are checked: they are the platforms the project's
/// Apple products are for. Mac Catalyst compiles as iOS (`os(iOS)` holds there).
package enum ApplePlatform: String, CaseIterable, Sendable, Comparable {
    case iOS = "ios"
    case macOS = "macos"

    /// The name as Apple writes it (`iOS`, `macOS`).
    package var displayName: String {
        switch self {
        case .iOS: "iOS"
        case .macOS: "macOS"
        }
    }

    /// The deployment target SwiftPM uses when the manifest declares none
    /// (`Platform.oldestSupportedVersion` in swift-package-manager's
    /// Sources/PackageModel/Platform.swift: macOS 10.13, iOS 12.0).
    package var swiftPMDefaultFloor: OSVersion {
        switch self {
        case .iOS: OSVersion(12, 0)
        case .macOS: OSVersion(10, 13)
        }
    }

    /// The names `@available` and `#available` accept for this platform.
    static func named(inAvailability name: String) -> ApplePlatform? {
        switch name {
        case "iOS", "iOSApplicationExtension": .iOS
        case "macOS", "OSX", "macOSApplicationExtension", "OSXApplicationExtension": .macOS
        default: nil
        }
    }

    /// The `platformNames` SwiftPM writes for Apple platforms in a dependency
    /// condition (`.when(platforms:)`).
    static let manifestNames: Set<String> = ["macos", "ios", "tvos", "watchos", "visionos", "maccatalyst", "driverkit"]

    package static func < (lhs: ApplePlatform, rhs: ApplePlatform) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// An operating system version such as `16.0` or `10.14.4`.
package struct OSVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Major, minor, patch…; compared with missing components as zero.
    package let components: [Int]

    /// A version from its components.
    package init(_ components: Int...) { self.components = components }

    /// Parses `16`, `16.0` or `10.14.4`; `nil` for anything else.
    package init?(parsing text: some StringProtocol) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard !parts.isEmpty, parts.count <= 4 else { return nil }
        var numbers: [Int] = []
        for part in parts {
            guard part.count <= 6, let number = Int(part), number >= 0 else { return nil }
            numbers.append(number)
        }
        components = numbers
    }

    /// Above every real release: what an `unavailable` guard means.
    static let never = OSVersion(9999)

    package var description: String {
        components.count == 1 ? "\(components[0]).0" : components.map(String.init).joined(separator: ".")
    }

    package static func < (lhs: OSVersion, rhs: OSVersion) -> Bool {
        for index in 0..<max(lhs.components.count, rhs.components.count) {
            let left = index < lhs.components.count ? lhs.components[index] : 0
            let right = index < rhs.components.count ? rhs.components[index] : 0
            if left != right { return left < right }
        }
        return false
    }

    package static func == (lhs: OSVersion, rhs: OSVersion) -> Bool { !(lhs < rhs) && !(rhs < lhs) }

    package func hash(into hasher: inout Hasher) {
        var trimmed = components
        while trimmed.last == 0 { trimmed.removeLast() }
        hasher.combine(trimmed)
    }
}
