package import Foundation

/// The portability check of what an Apple build compiles: reads the
/// manifest as an Apple build sees it (`swift package dump-package` with
/// `WEBP_BRIDGE_MANIFEST_PLATFORM=apple`) and reports what would not build
/// there.
///
/// 1. For every product, it walks the target dependencies transitively
///    (`byName`, `target`, `product`; a dependency whose `.when(platforms:)`
///    names no Apple platform does not count) and reports a `systemLibrary`
///    target, a target the Apple view does not hold, or a product of another
///    package (the project has none; the check cannot look inside).
/// 2. It scans the Swift files of every target an Apple `swift build
///    --build-tests` compiles (every target of the Apple view but system
///    libraries and binaries: test targets and their helpers too, not only
///    what the products reach) with ``SourceScanner``, against the floor the
///    manifest declares for iOS and macOS (SwiftPM's default, iOS 12 / macOS
///    10.13, when it declares none) and against the oldest Swift compiler the
///    manifest's `swift-tools-version` admits.
package struct PortabilityCheck: Sendable {
    /// The package folder the dump's relative paths start from.
    package var packageRoot: URL
    /// The APIs checked against the floor.
    package var apis: [APIAvailability] = APIAvailability.standard
    /// The modules that must be imported under a guard.
    package var modules: [GuardedModule] = GuardedModule.standard
    /// The language and library features checked against the oldest compiler.
    package var features: [LanguageFeature] = LanguageFeature.standard
    /// Files larger than this are reported, not read (bounded memory).
    package var maximumFileBytes = 4 << 20

    /// A check of the package in `packageRoot`.
    package init(packageRoot: URL) { self.packageRoot = packageRoot }

    /// Checks the package that `dump` (dump-package's JSON) describes.
    /// - Throws: ``PortabilityCheckError`` when the JSON is not a package description.
    package func run(dump: Data) throws(PortabilityCheckError) -> PortabilityReport {
        let package: PackageDump
        do {
            package = try JSONDecoder().decode(PackageDump.self, from: dump)
        } catch {
            throw .manifest("the manifest's JSON is not a package description: \(error)")
        }
        var floors: [ApplePlatform: OSVersion] = [:]
        for platform in package.platforms {
            guard let apple = ApplePlatform(rawValue: platform.platformName) else { continue }
            guard let version = OSVersion(parsing: platform.version) else {
                throw .manifest("platform \(platform.platformName) has an unreadable version '\(platform.version)'")
            }
            floors[apple] = version
        }
        for platform in ApplePlatform.allCases where floors[platform] == nil {
            floors[platform] = platform.swiftPMDefaultFloor
        }

        // The tools version is the oldest Swift that reads the manifest: `6.0.0` → 6.0.
        let tools = package.toolsVersion.flatMap { OSVersion(parsing: $0._version) } ?? OSVersion(6, 0)
        let oldestCompiler = OSVersion(tools.components.first ?? 6, tools.components.dropFirst().first ?? 0)

        let targets = Dictionary(package.targets.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var violations: [PortabilityViolation] = []
        var reached: Set<String> = []
        for product in package.products {
            let walk = walkDependencies(of: product, in: targets)
            violations += walk.violations
            reached.formUnion(walk.reached)
        }
        // `swift build --build-tests` compiles every target, not only the products' closure.
        reached.formUnion(package.targets.filter { !["system", "binary", "plugin"].contains($0.type) }.map(\.name))

        var scannedFiles = 0
        for name in reached.sorted() {
            guard let target = targets[name], !["system", "binary"].contains(target.type) else { continue }
            let files = swiftFiles(of: target)
            violations += files.problems
            for file in files.paths {
                scannedFiles += 1
                violations += scan(file: file, floors: floors, oldestCompiler: oldestCompiler)
            }
        }
        return PortabilityReport(
            violations: violations.sorted(), products: package.products.map(\.name).sorted(),
            scannedTargets: reached.sorted(), scannedFiles: scannedFiles, floors: floors,
            oldestCompiler: oldestCompiler)
    }

    /// Breadth first, so a report shows the shortest chain to the culprit.
    private func walkDependencies(of product: PackageDump.Product, in targets: [String: PackageDump.Target])
        -> (violations: [PortabilityViolation], reached: Set<String>)
    {
        var violations: [PortabilityViolation] = []
        var chains: [String: [String]] = [:]
        var queue: [String] = []
        for name in product.targets where chains[name] == nil {
            chains[name] = [name]
            queue.append(name)
        }
        var reached: Set<String> = []
        var head = 0
        while head < queue.count {
            let name = queue[head]
            head += 1
            let chain = chains[name] ?? [name]
            let path = chain.joined(separator: " → ")
            guard let target = targets[name] else {
                violations.append(
                    .init(
                        rule: .missingTarget, file: "Package.swift",
                        reason:
                            "product \(product.name): \(path): no target '\(name)' in the Apple view of the manifest"))
                continue
            }
            reached.insert(name)
            if target.type == "system" {
                violations.append(
                    .init(
                        rule: .systemLibrary, file: "Package.swift",
                        reason: "product \(product.name): \(path): '\(name)' is a systemLibrary target "
                            + "(pkg-config/Homebrew; an iOS build cannot find it); put it behind "
                            + ".when(platforms: [.linux]) or out of the Apple view"))
                continue
            }
            for dependency in target.dependencies ?? [] where dependency.appliesToApplePlatforms {
                if case .product(let package) = dependency.kind {
                    violations.append(
                        .init(
                            rule: .missingTarget, file: "Package.swift",
                            reason: "product \(product.name): \(path) → product '\(dependency.name)' of package "
                                + "'\(package ?? "?")': outside this package, not checked"))
                    continue
                }
                guard chains[dependency.name] == nil else { continue }
                chains[dependency.name] = chain + [dependency.name]
                queue.append(dependency.name)
            }
        }
        return (violations, reached)
    }

    /// The Swift files SwiftPM compiles for `target`: under its `path` (or
    /// `Sources/<name>`, `Source/`, `src/`, `srcs/`), limited to `sources`
    /// when given, minus `exclude`.
    private func swiftFiles(of target: PackageDump.Target) -> (paths: [String], problems: [PortabilityViolation]) {
        let folders =
            target.path.map { [$0] }
            ?? (target.type == "test" ? ["Tests"] : ["Sources", "Source", "src", "srcs"]).map { "\($0)/\(target.name)" }
        let manager = FileManager.default
        guard let folder = folders.first(where: { isDirectory(packageRoot.appendingPathComponent($0)) }) else {
            return (
                [],
                [
                    .init(
                        rule: .unreadableSource, file: folders[0],
                        reason: "target \(target.name): no source folder, so its files could not be checked")
                ]
            )
        }
        let excluded = (target.exclude ?? []).map { "\(folder)/\($0)" }
        let roots = (target.sources ?? [""]).map { $0.isEmpty ? folder : "\(folder)/\($0)" }
        var paths: [String] = []
        for root in roots {
            let url = packageRoot.appendingPathComponent(root)
            if !isDirectory(url) {
                if root.hasSuffix(".swift"), manager.fileExists(atPath: url.path) { paths.append(root) }
                continue
            }
            let enumerator = manager.enumerator(atPath: url.path)
            while let relative = enumerator?.nextObject() as? String {
                guard relative.hasSuffix(".swift") else { continue }
                paths.append("\(root)/\(relative)")
            }
        }
        let kept = paths.filter { path in !excluded.contains { path == $0 || path.hasPrefix($0 + "/") } }
        return (Array(Set(kept)).sorted(), [])
    }

    private func scan(file: String, floors: [ApplePlatform: OSVersion], oldestCompiler: OSVersion)
        -> [PortabilityViolation]
    {
        let url = packageRoot.appendingPathComponent(file)
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        guard size <= maximumFileBytes else {
            return [
                .init(
                    rule: .unreadableSource, file: file,
                    reason: "\(size) bytes, over the check's \(maximumFileBytes)-byte limit: not scanned")
            ]
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            return [.init(rule: .unreadableSource, file: file, reason: "cannot be read")]
        }
        let scanner = SourceScanner(
            file: file, floors: floors, apis: apis, modules: modules, features: features,
            oldestCompiler: oldestCompiler)
        return scanner.scan(Array(data))
    }

    private func isDirectory(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}

/// What a check found.
package struct PortabilityReport: Sendable {
    /// Every violation, sorted by file and line.
    package var violations: [PortabilityViolation]
    /// The products of the Apple view.
    package var products: [String]
    /// The targets the products reach.
    package var scannedTargets: [String]
    /// How many Swift files were scanned.
    package var scannedFiles: Int
    /// The floor per platform (declared, or SwiftPM's default).
    package var floors: [ApplePlatform: OSVersion]
    /// The oldest Swift compiler checked against (the manifest's tools version).
    package var oldestCompiler = OSVersion(6, 0)

    /// Whether the Apple products are portable by the check's rules.
    package var passed: Bool { violations.isEmpty }

    /// One line per violation, then a summary line.
    package var text: String {
        let floorText = floors.sorted { $0.key < $1.key }.map { "\($0.key.displayName) \($0.value)" }
            .joined(separator: ", ")
        let summary =
            "portability check: \(products.count) products, \(scannedTargets.count) targets, "
            + "\(scannedFiles) Swift files; floor \(floorText), Swift \(oldestCompiler); "
            + (passed ? "no violations" : "\(violations.count) violation\(violations.count == 1 ? "" : "s")")
        return (violations.map(\.description) + [summary]).joined(separator: "\n")
    }
}
