/// The condition of an `#if` or `#elseif`, parsed once and evaluated for one
/// Apple platform with three-valued logic: a branch is dead on a platform only
/// when its condition is certainly false there.
///
/// Known on Apple platforms: `os(…)` (`os(iOS)` true on iOS, false on macOS;
/// Linux, Windows, Android, FreeBSD, OpenBSD, WASI, Cygwin, PS4, Haiku and
/// `none` false), `canImport(…)` of Linux-only modules (false) and of SDK
/// frameworks (true), `_runtime(_ObjC)` (true), `true`/`false`. Everything
/// else (`DEBUG`, `arch`, `compiler`, `swift`, `targetEnvironment`,
/// `hasFeature`, unknown frameworks) is unknown, and so is a condition the
/// parser cannot read: unknown never makes a branch dead.
indirect enum CompilationCondition: Equatable {
    case literal(Bool)
    /// `name(argument)`: `os(Linux)`, `canImport(Glibc)`; a bare flag has no argument.
    case atom(name: String, argument: String?)
    case not(CompilationCondition)
    case and(CompilationCondition, CompilationCondition)
    case or(CompilationCondition, CompilationCondition)
    /// A condition the parser could not read.
    case unreadable

    /// Three-valued truth.
    enum Truth: Equatable {
        case yes, no, unknown

        static prefix func ! (value: Truth) -> Truth {
            switch value {
            case .yes: .no
            case .no: .yes
            case .unknown: .unknown
            }
        }
    }

    /// Modules that exist on no Apple platform.
    static let linuxOnlyModules: Set<String> = [
        "Glibc", "Musl", "FoundationNetworking", "FoundationXML", "WinSDK", "ucrt", "Android", "Bionic", "WASILibc",
    ]
    /// Frameworks of both the iOS and the macOS SDK.
    static let appleSDKModules: Set<String> = [
        "Darwin", "Foundation", "Dispatch", "ObjectiveC", "os", "CoreFoundation", "ImageIO", "CoreGraphics",
        "UniformTypeIdentifiers", "Security", "Network", "WebKit", "Combine", "CoreServices", "MobileCoreServices",
    ]
    /// `os(…)` names of systems that are not Apple platforms.
    static let otherSystems: Set<String> = [
        "Linux", "Windows", "Android", "FreeBSD", "OpenBSD", "WASI", "Cygwin", "PS4", "Haiku", "none",
    ]

    /// Parses the tokens after `#if`/`#elseif`.
    init(tokens: [SwiftToken]) {
        var parser = Parser(tokens: tokens.map(\.text))
        if let condition = parser.parseOr(), parser.position == parser.tokens.count {
            self = condition
        } else {
            self = .unreadable
        }
    }

    /// The truth of the condition on `platform`.
    /// - Parameter missingModule: a module taken as not importable, so that
    ///   `import X` under `#if canImport(X)` counts as guarded: it can never
    ///   fail to compile.
    func truth(on platform: ApplePlatform, missingModule: String? = nil) -> Truth {
        switch self {
        case .literal(let value): return value ? .yes : .no
        case .unreadable: return .unknown
        case .not(let inner): return !inner.truth(on: platform, missingModule: missingModule)
        case .and(let left, let right):
            let (a, b) = (
                left.truth(on: platform, missingModule: missingModule),
                right.truth(on: platform, missingModule: missingModule)
            )
            if a == .no || b == .no { return .no }
            return a == .yes && b == .yes ? .yes : .unknown
        case .or(let left, let right):
            let (a, b) = (
                left.truth(on: platform, missingModule: missingModule),
                right.truth(on: platform, missingModule: missingModule)
            )
            if a == .yes || b == .yes { return .yes }
            return a == .no && b == .no ? .no : .unknown
        case .atom(let name, let argument):
            return Self.atomTruth(name: name, argument: argument, on: platform, missingModule: missingModule)
        }
    }

    private static func atomTruth(name: String, argument: String?, on platform: ApplePlatform, missingModule: String?)
        -> Truth
    {
        guard let argument else { return .unknown }
        switch name {
        case "os":
            switch argument {
            case "iOS": return platform == .iOS ? .yes : .no
            case "macOS", "OSX": return platform == .macOS ? .yes : .no
            case "tvOS", "watchOS", "visionOS", "xrOS": return .no
            default: return otherSystems.contains(argument) ? .no : .unknown
            }
        case "canImport":
            if argument == missingModule || linuxOnlyModules.contains(argument) { return .no }
            if appleSDKModules.contains(argument) { return .yes }
            if argument == "UIKit" { return platform == .iOS ? .yes : .no }
            if argument == "AppKit" { return platform == .macOS ? .yes : .no }
            return .unknown
        case "_runtime":
            return argument == "_ObjC" ? .yes : .no
        default:
            return .unknown
        }
    }

    /// The compiler version a branch under this condition is certainly
    /// compiled with at least: `X` for `compiler(>=X)` or `swift(>=X)`, the
    /// higher of two under `&&`, the lower of two under `||`; `nil` when the
    /// condition says nothing about it.
    var minimumCompiler: OSVersion? {
        switch self {
        case .atom(let name, let argument):
            guard name == "compiler" || name == "swift", let argument, argument.hasPrefix(">=") else { return nil }
            return OSVersion(parsing: argument.dropFirst(2))
        case .and(let left, let right):
            return [left.minimumCompiler, right.minimumCompiler].compactMap { $0 }.max()
        case .or(let left, let right):
            guard let a = left.minimumCompiler, let b = right.minimumCompiler else { return nil }
            return min(a, b)
        default:
            return nil
        }
    }

    /// A recursive-descent parser: or := and ('||' and)*; and := unary ('&&' unary)*;
    /// unary := '!' unary | '(' or ')' | name [ '(' arguments ')' ].
    private struct Parser {
        let tokens: [String]
        var position = 0

        mutating func parseOr() -> CompilationCondition? {
            guard var left = parseAnd() else { return nil }
            while position < tokens.count, tokens[position] == "||" {
                position += 1
                guard let right = parseAnd() else { return nil }
                left = .or(left, right)
            }
            return left
        }

        mutating func parseAnd() -> CompilationCondition? {
            guard var left = parseUnary() else { return nil }
            while position < tokens.count, tokens[position] == "&&" {
                position += 1
                guard let right = parseUnary() else { return nil }
                left = .and(left, right)
            }
            return left
        }

        mutating func parseUnary() -> CompilationCondition? {
            guard position < tokens.count else { return nil }
            let token = tokens[position]
            position += 1
            switch token {
            case "!": return parseUnary().map { .not($0) }
            case "(":
                guard let inner = parseOr(), position < tokens.count, tokens[position] == ")" else { return nil }
                position += 1
                return inner
            case "true": return .literal(true)
            case "false": return .literal(false)
            default:
                guard let first = token.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else {
                    return nil
                }
                guard position < tokens.count, tokens[position] == "(" else {
                    return .atom(name: token, argument: nil)
                }
                // Arguments up to the matching parenthesis; the first one names the atom.
                position += 1
                var depth = 1
                var arguments: [String] = []
                while position < tokens.count {
                    let next = tokens[position]
                    position += 1
                    if next == "(" { depth += 1 }
                    if next == ")" { depth -= 1 }
                    if depth == 0 { return .atom(name: token, argument: arguments.first ?? "") }
                    // An argument is its tokens up to a comma: `>=6.1` for `compiler(>=6.1)`.
                    if next == ",", depth == 1 {
                        arguments.append("")
                    } else if arguments.isEmpty {
                        arguments.append(next)
                    } else {
                        arguments[arguments.count - 1] += next
                    }
                }
                return nil
            }
        }
    }
}
