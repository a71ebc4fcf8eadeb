import Foundation

/// What a page loads besides itself, read from its HTML as a browser's
/// preload scanner would: `<img src>`, `<link rel="stylesheet" href>` and
/// `<script src>`, each once, in document order.
///
/// A scanner, not an HTML parser: enough for the demo's own pages (and
/// ordinary markup with quoted attributes).
struct DemoPageReferences: Sendable, Equatable {
    var images: [String] = []
    var stylesheets: [String] = []
    var scripts: [String] = []

    init(html: String) {
        var seen = Set<String>()
        for match in html.matches(of: #/<(img|link|script)\b([^>]*)>/#.ignoresCase()) {
            let tag = match.output.1.lowercased()
            let attributes = String(match.output.2)
            switch tag {
            case "img":
                if let source = Self.attribute("src", in: attributes), seen.insert(source).inserted {
                    images.append(source)
                }
            case "link":
                guard Self.attribute("rel", in: attributes)?.lowercased() == "stylesheet" else { continue }
                if let href = Self.attribute("href", in: attributes), seen.insert(href).inserted {
                    stylesheets.append(href)
                }
            default:
                if let source = Self.attribute("src", in: attributes), seen.insert(source).inserted {
                    scripts.append(source)
                }
            }
        }
    }

    /// The value of a quoted attribute, with `&amp;` decoded.
    static func attribute(_ name: String, in attributes: String) -> String? {
        for match in attributes.matches(of: #/([A-Za-z-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/#) {
            guard match.output.1.lowercased() == name else { continue }
            let value = match.output.2 ?? match.output.3 ?? ""
            return String(value).replacingOccurrences(of: "&amp;", with: "&")
        }
        return nil
    }
}
