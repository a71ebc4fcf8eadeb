/// Scans one Swift file, as an Apple build of it would compile, for imports
/// of guarded modules and uses of APIs above the floor.
///
/// The file is read once per checked platform (iOS, macOS): code in an
/// `#if`/`#elseif`/`#else` branch that is certainly dead there (see
/// ``CompilationCondition``) is skipped; an import inside `#if canImport(X)`
/// of the module it imports counts as guarded.
///
/// Availability guards, an approximation: `if #available(…)` and
/// `@available(…)` cover from themselves to the close of the first `{…}`
/// block after them (the `if` body, the declaration's body); `guard
/// #available(…)` covers the rest of its enclosing block. Limits: the
/// arguments of `#available`/`@available` must sit on one line; an
/// `@available` on a declaration without a body (a `typealias`, a protocol
/// requirement) extends to the next `{` and so covers more than it should;
/// `if #unavailable` is ignored; only the first statement of a line is
/// looked at for an import.
struct SourceScanner {
    var file: String
    var floors: [ApplePlatform: OSVersion]
    var apis: [APIAvailability]
    var modules: [GuardedModule]
    /// The features checked against ``oldestCompiler``.
    var features: [LanguageFeature] = []
    /// The oldest Swift compiler the package supports.
    var oldestCompiler = OSVersion(6, 0)

    /// One `#if` chain being read: the conditions of its earlier branches and
    /// of the current one (`nil` for `#else`).
    private struct ConditionalBlock {
        /// The line of its `#if`.
        var line: Int
        var earlier: [CompilationCondition] = []
        var current: CompilationCondition?

        /// Whether the current branch is certainly not compiled on `platform`.
        func isDead(on platform: ApplePlatform, missingModule: String?) -> Bool {
            if earlier.contains(where: { $0.truth(on: platform, missingModule: missingModule) == .yes }) { return true }
            return current?.truth(on: platform, missingModule: missingModule) == .no
        }
    }

    /// An availability guard in force: its version, from `depth` inward.
    private struct AvailabilityScope {
        var version: OSVersion
        var depth: Int
    }

    /// A finding on one platform, merged across platforms by ``scan(_:)``.
    private struct Finding: Hashable {
        var line: Int
        var rule: PortabilityViolation.Rule
        var subject: String
    }

    /// The violations in `source`.
    func scan(_ source: [UInt8]) -> [PortabilityViolation] {
        let lines = SwiftCodeBlanker.codeLines(of: source).map(SwiftToken.tokens(of:))
        var byFinding: [Finding: [(ApplePlatform, OSVersion, OSVersion)]] = [:]
        var order: [Finding] = []
        var structural: [PortabilityViolation] = []
        for platform in ApplePlatform.allCases {
            let floor = floors[platform] ?? platform.swiftPMDefaultFloor
            let (findings, problems) = scan(lines, on: platform, floor: floor)
            for (finding, needed) in findings {
                if byFinding[finding] == nil { order.append(finding) }
                byFinding[finding, default: []].append((platform, needed, floor))
            }
            if structural.isEmpty { structural = problems }
        }
        let found = order.map { finding in
            let platforms = byFinding[finding] ?? []
            switch finding.rule {
            case .newerSwift:
                return PortabilityViolation(
                    rule: .newerSwift, file: file, line: finding.line,
                    reason: "\(finding.subject) needs Swift \(platforms.first?.1 ?? oldestCompiler), newer than the "
                        + "oldest supported Swift \(oldestCompiler) (swift-tools-version), and no "
                        + "#if compiler(>=…) covers this use")
            case .newerAPI:
                let needs = platforms.map { "\($0.0.displayName) \($0.1)" }.joined(separator: " / ")
                let floors = platforms.map { "\($0.0.displayName) \($0.2)" }.joined(separator: " / ")
                return PortabilityViolation(
                    rule: .newerAPI, file: file, line: finding.line,
                    reason: "\(finding.subject) needs \(needs), above the floor \(floors), and no #available or "
                        + "@available guard covers this use")
            default:
                let names = platforms.map(\.0.displayName).joined(separator: " and ")
                return PortabilityViolation(
                    rule: finding.rule, file: file, line: finding.line,
                    reason: "unguarded import of \(finding.subject) (compiled on \(names))")
            }
        }
        return structural + found
    }

    private func scan(_ lines: [[SwiftToken]], on platform: ApplePlatform, floor: OSVersion)
        -> (findings: [(Finding, OSVersion)], problems: [PortabilityViolation])
    {
        var findings: [(Finding, OSVersion)] = []
        var problems: [PortabilityViolation] = []
        var blocks: [ConditionalBlock] = []
        var depth = 0
        var scopes: [AvailabilityScope] = []
        var pending: [OSVersion] = []

        for (index, tokens) in lines.enumerated() {
            let lineNumber = index + 1
            if let directive = tokens.first?.text, ["#if", "#elseif", "#else", "#endif"].contains(directive) {
                let condition = CompilationCondition(tokens: Array(tokens.dropFirst()))
                switch directive {
                case "#if":
                    blocks.append(ConditionalBlock(line: lineNumber, current: condition))
                case "#endif":
                    if blocks.popLast() == nil {
                        problems.append(
                            .init(rule: .unreadableSource, file: file, line: lineNumber, reason: "#endif without #if"))
                    }
                default:
                    guard var block = blocks.popLast() else {
                        problems.append(
                            .init(
                                rule: .unreadableSource, file: file, line: lineNumber,
                                reason: "\(directive) without #if"))
                        continue
                    }
                    if let current = block.current { block.earlier.append(current) }
                    block.current = directive == "#else" ? nil : condition
                    blocks.append(block)
                }
                continue
            }
            if blocks.contains(where: { $0.isDead(on: platform, missingModule: nil) }) { continue }

            if let module = importedModule(tokens), let rule = modules.first(where: { $0.module == module }),
                !(rule.allowedFrom?[platform].map { floor >= $0 } ?? false),
                !blocks.contains(where: { $0.isDead(on: platform, missingModule: module) })
            {
                findings.append(
                    (Finding(line: lineNumber, rule: .unguardedImport, subject: "\(module): \(rule.reason)"), floor))
            }

            var position = 0
            while position < tokens.count {
                let token = tokens[position].text
                switch token {
                case "{":
                    depth += 1
                    for version in pending { scopes.append(AvailabilityScope(version: version, depth: depth)) }
                    pending = []
                case "}":
                    depth -= 1
                    scopes.removeAll { $0.depth > depth }
                case "#available", "@available":
                    let (version, end) = Self.availability(in: tokens, from: position + 1, for: platform)
                    if let version {
                        if token == "#available", tokens[..<position].contains(where: { $0.text == "guard" }) {
                            scopes.append(AvailabilityScope(version: version, depth: depth))
                        } else {
                            pending.append(version)
                        }
                    }
                    position = end
                    continue
                default:
                    let compilerGuard = blocks.compactMap { $0.current?.minimumCompiler }.max() ?? oldestCompiler
                    for feature in features where feature.introduced > compilerGuard {
                        let raw = feature.matchesRawIdentifiers && Self.isRawIdentifier(tokens[position])
                        if raw || feature.patterns.contains(where: { Self.tokens(tokens, at: position, match: $0) }) {
                            findings.append(
                                (
                                    Finding(line: lineNumber, rule: .newerSwift, subject: feature.name),
                                    feature.introduced
                                )
                            )
                        }
                    }
                    let guarded = (scopes.map(\.version) + pending).max() ?? floor
                    for api in apis {
                        guard let needed = api.introduced[platform], needed > max(floor, guarded) else { continue }
                        if api.patterns.contains(where: { Self.tokens(tokens, at: position, match: $0) }) {
                            findings.append((Finding(line: lineNumber, rule: .newerAPI, subject: api.name), needed))
                        }
                    }
                }
                position += 1
            }
        }
        for block in blocks {
            problems.append(.init(rule: .unreadableSource, file: file, line: block.line, reason: "#if without #endif"))
        }
        var seen: Set<Finding> = []
        return (findings.filter { seen.insert($0.0).inserted }, problems)
    }

    /// The module of an `import` declaration (after attributes such as
    /// `@preconcurrency`, `@_implementationOnly`, `@_spi(X)`, an access level,
    /// and a kind such as `func`), or `nil` when the line is not one.
    private func importedModule(_ tokens: [SwiftToken]) -> String? {
        let modifiers: Set<String> = ["public", "package", "internal", "fileprivate", "private", "open"]
        let kinds: Set<String> = ["typealias", "struct", "class", "enum", "protocol", "let", "var", "func"]
        var position = 0
        while position < tokens.count {
            let text = tokens[position].text
            if text.hasPrefix("@") {
                position += 1
                if position < tokens.count, tokens[position].text == "(" {
                    while position < tokens.count, tokens[position].text != ")" { position += 1 }
                    position += 1
                }
            } else if modifiers.contains(text) {
                position += 1
            } else {
                break
            }
        }
        guard position < tokens.count, tokens[position].text == "import" else { return nil }
        position += 1
        if position < tokens.count, kinds.contains(tokens[position].text) { position += 1 }
        return position < tokens.count ? tokens[position].text : nil
    }

    /// A backquoted name that only SE-0451 allows: one holding a character
    /// an identifier cannot (a space, a dash) or starting with a digit.
    private static func isRawIdentifier(_ token: SwiftToken) -> Bool {
        guard token.wasBackquoted, let first = token.text.unicodeScalars.first else { return token.wasBackquoted }
        if first.properties.numericType != nil { return true }
        return token.text.unicodeScalars.contains {
            !($0 == "_" || $0.properties.isAlphabetic || $0.properties.numericType != nil)
        }
    }

    private static func tokens(_ tokens: [SwiftToken], at position: Int, match pattern: [String]) -> Bool {
        guard position + pattern.count <= tokens.count else { return false }
        return pattern.indices.allSatisfy { tokens[position + $0].text == pattern[$0] }
    }

    /// The version `(…)` after `#available`/`@available` at `start` guarantees
    /// on `platform` (`nil` when it names none: `*` alone, `deprecated`), and
    /// the position after the closing parenthesis.
    static func availability(in tokens: [SwiftToken], from start: Int, for platform: ApplePlatform)
        -> (OSVersion?, Int)
    {
        guard start < tokens.count, tokens[start].text == "(" else { return (nil, start) }
        var arguments: [[String]] = [[]]
        var position = start + 1
        var depth = 1
        while position < tokens.count {
            let text = tokens[position].text
            position += 1
            if text == "(" { depth += 1 }
            if text == ")" {
                depth -= 1
                if depth == 0 { break }
            }
            if text == ",", depth == 1 {
                arguments.append([])
            } else {
                arguments[arguments.count - 1].append(text)
            }
        }
        // Short form: `iOS 18.0, macOS 15, *`.
        for argument in arguments
        where argument.count == 2 && ApplePlatform.named(inAvailability: argument[0]) == platform {
            if let version = OSVersion(parsing: argument[1]) { return (version, position) }
        }
        // Long form: `iOS, introduced: 18.0`, `iOS, unavailable`, `*, unavailable`.
        if let first = arguments.first, first.count == 1,
            first[0] == "*" || ApplePlatform.named(inAvailability: first[0]) == platform
        {
            for argument in arguments.dropFirst() {
                if argument == ["unavailable"] { return (.never, position) }
                if argument.count == 3, argument[0] == "introduced", argument[1] == ":", first[0] != "*",
                    let version = OSVersion(parsing: argument[2])
                {
                    return (version, position)
                }
            }
        }
        return (nil, position)
    }
}
