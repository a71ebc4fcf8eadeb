/// The parts of `swift package dump-package`'s JSON the check reads: the
/// declared platforms, the products, and the targets with their dependencies.
struct PackageDump: Decodable {
    struct Platform: Decodable {
        var platformName: String
        var version: String
    }

    struct Product: Decodable {
        var name: String
        var targets: [String]
    }

    struct Target: Decodable {
        var name: String
        /// `regular`, `executable`, `test`, `system`, `binary`, `plugin`, `macro`.
        var type: String
        var path: String?
        var sources: [String]?
        var exclude: [String]?
        var dependencies: [Dependency]?
    }

    /// One entry of a target's `dependencies`: `{"byName": [name, condition]}`,
    /// `{"target": [name, condition]}` or `{"product": [name, package, moduleAliases, condition]}`.
    struct Dependency: Decodable {
        enum Kind: Equatable {
            /// A target of this package, or a product of another package, by name.
            case byName
            case target
            case product(package: String?)
        }

        var kind: Kind
        var name: String
        /// The platforms the dependency is limited to, or `nil` for all.
        var platformNames: [String]?

        private enum CodingKeys: String, CodingKey {
            case byName, target, product
        }

        private struct Condition: Decodable {
            var platformNames: [String]?
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            guard let key = container.allKeys.first else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: container.codingPath, debugDescription: "a dependency with no known kind"))
            }
            var fields = try container.nestedUnkeyedContainer(forKey: key)
            name = try fields.decode(String.self)
            switch key {
            case .byName: kind = .byName
            case .target: kind = .target
            case .product:
                kind = .product(package: try fields.decodeIfPresent(String.self))
                // Module aliases: null or an object the check does not need.
                if !fields.isAtEnd, try !fields.decodeNil() { _ = try fields.decode([String: String].self) }
            }
            platformNames = fields.isAtEnd ? nil : try fields.decodeIfPresent(Condition.self)?.platformNames
        }

        /// Whether an Apple build links this dependency: a condition that names
        /// no Apple platform (`.when(platforms: [.linux])`) keeps it out.
        var appliesToApplePlatforms: Bool {
            guard let platformNames else { return true }
            return platformNames.contains { ApplePlatform.manifestNames.contains($0) }
        }
    }

    /// `"toolsVersion": {"_version": "6.0.0"}`: the manifest's `swift-tools-version`.
    struct ToolsVersion: Decodable {
        var _version: String
    }

    var name: String
    var toolsVersion: ToolsVersion?
    var platforms: [Platform]
    var products: [Product]
    var targets: [Target]
}
