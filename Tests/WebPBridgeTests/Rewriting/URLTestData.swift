import Foundation

/// The WHATWG URL test data (web-platform-tests' `urltestdata.json`, kept
/// under `Resources/` with its licence): each entry's input, base and
/// expected href, or that parsing fails.
struct URLTestData: Sendable {
    struct Entry: Sendable, CustomStringConvertible {
        let input: String
        let base: String?
        /// `nil` when the parser must fail.
        let href: String?

        var description: String { "\(input.debugDescription) against \(base?.debugDescription ?? "no base")" }

        /// The scheme the result has (or would have): the input's own, else the base's.
        var scheme: String? {
            let trimmed = input.unicodeScalars.drop { $0.value <= 0x20 }.filter {
                $0 != "\t" && $0 != "\n" && $0 != "\r"
            }
            var scheme = ""
            for scalar in trimmed {
                if scalar == ":" { return scheme.isEmpty ? base.flatMap(Self.scheme(of:)) : scheme.lowercased() }
                guard scalar.isASCII,
                    scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                        || "+-.".unicodeScalars.contains(scalar)
                else { break }
                if scheme.isEmpty, !scalar.properties.isAlphabetic { break }
                scheme.unicodeScalars.append(scalar)
            }
            return base.flatMap(Self.scheme(of:))
        }

        private static func scheme(of base: String) -> String? {
            base.firstIndex(of: ":").map { base[..<$0].lowercased() }
        }

        /// Whether the result is (or would be) an `http` or `https` URL.
        var isHTTP: Bool {
            if let href { return href.hasPrefix("http:") || href.hasPrefix("https:") }
            return scheme == "http" || scheme == "https"
        }
    }

    let entries: [Entry]

    static let shared = URLTestData()

    private init() {
        guard let url = Bundle.module.url(forResource: "urltestdata", withExtension: "json", subdirectory: "Resources"),
            let data = try? Data(contentsOf: url),
            let items = try? JSONSerialization.jsonObject(with: data) as? [Any]
        else {
            entries = []
            return
        }
        entries = items.compactMap { item in
            guard let object = item as? [String: Any], let input = object["input"] as? String else { return nil }
            let failure = object["failure"] as? Bool ?? false
            return Entry(input: input, base: object["base"] as? String, href: failure ? nil : object["href"] as? String)
        }
    }
}
