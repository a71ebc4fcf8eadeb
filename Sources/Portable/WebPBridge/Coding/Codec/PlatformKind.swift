/// The kind of system the library runs on, for the defaults that differ
/// between an app on a phone and a server (``DecodingLimits/default``,
/// ``DecodingConcurrency/default``): decided at compile time.
public enum PlatformKind: String, Sendable, CaseIterable {
    /// iOS, iPadOS and Mac Catalyst apps built for iOS.
    case iOS
    case tvOS
    case watchOS
    case visionOS
    case macOS
    /// Linux and anything else: a server or a command-line tool.
    case server

    /// The platform this build is for.
    public static var current: PlatformKind {
        #if os(iOS)
            .iOS
        #elseif os(tvOS)
            .tvOS
        #elseif os(watchOS)
            .watchOS
        #elseif os(visionOS)
            .visionOS
        #elseif os(macOS)
            .macOS
        #else
            .server
        #endif
    }

    /// An app sharing a small memory with the system and other apps.
    public var isMobile: Bool {
        switch self {
        case .iOS, .tvOS, .watchOS, .visionOS: true
        case .macOS, .server: false
        }
    }
}
