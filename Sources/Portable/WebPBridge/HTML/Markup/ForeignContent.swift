/// The part of the HTML tree builder that decides whether a tag is read
/// as HTML or as SVG/MathML (WHATWG §13.2.6.5, "foreign content"): inside
/// `<svg>` and `<math>`, `title`, `style`, `script`, `plaintext`… are
/// ordinary elements, not raw text, and `<![CDATA[` opens a CDATA section;
/// an HTML element (`<img>`, `<p>`…) breaks out; `foreignObject`, `desc`,
/// SVG `title`, an HTML `annotation-xml` and MathML's token elements are
/// integration points, inside which tags are HTML again.
///
/// It keeps only the open SVG/MathML elements (at most ``maxDepth``), not
/// the HTML ones around or inside them, which the rewriter does not need.
struct ForeignContent {
    enum Namespace {
        case svg
        case math
    }

    private struct Element {
        /// The lower-cased name (as ``TagScanner`` keeps it).
        var name: [UInt8]
        var namespace: Namespace
        /// SVG `foreignObject`/`desc`/`title`, an `annotation-xml` for HTML.
        var isHTMLIntegrationPoint: Bool
        /// MathML `mi`, `mo`, `mn`, `ms`, `mtext`.
        var isTextIntegrationPoint: Bool
    }

    /// How the rewriter treats a start tag.
    enum Treatment {
        /// An HTML element: its URLs may be rewritten, its content may be raw text.
        case html
        /// An SVG or MathML element: left as written, its content markup.
        case foreign
    }

    /// The deepest nesting of SVG/MathML elements followed; deeper ones are not tracked.
    static let maxDepth = 512

    private var open: [Element] = []

    /// Whether `<![CDATA[` opens a CDATA section (the current node is SVG or MathML).
    var allowsCDATA: Bool { !open.isEmpty }

    private static func bytes(_ names: [String]) -> Set<[UInt8]> { Set(names.map { Array($0.utf8) }) }

    /// HTML elements that end foreign content (§13.2.6.5).
    private static let breakout = bytes([
        "b", "big", "blockquote", "body", "br", "center", "code", "dd", "div", "dl", "dt", "em", "embed",
        "h1", "h2", "h3", "h4", "h5", "h6", "head", "hr", "i", "img", "li", "listing", "menu", "meta", "nobr",
        "ol", "p", "pre", "ruby", "s", "small", "span", "strong", "strike", "sub", "sup", "table", "tt", "u",
        "ul", "var",
    ])
    private static let svgIntegrationPoints = bytes(["foreignobject", "desc", "title"])
    private static let mathTextIntegrationPoints = bytes(["mi", "mo", "mn", "ms", "mtext"])
    private static let svg = Array("svg".utf8)
    private static let math = Array("math".utf8)

    /// Reads a start tag and says how it is treated.
    /// - Parameters:
    ///   - name: The lower-cased name.
    ///   - selfClosing: Whether the tag ends with `/>` (a foreign element then has no content).
    ///   - attribute: The value of the named attribute (lower-case name), if the tag has it.
    mutating func startTag(
        _ name: [UInt8], selfClosing: Bool, attribute: (String) -> [UInt8]?
    ) -> Treatment {
        guard let current = open.last, !Self.readsAsHTML(name, at: current) else {
            return htmlStartTag(name, selfClosing: selfClosing)
        }
        if Self.breakout.contains(name) || Self.isFontBreakout(name, attribute) {
            while let top = open.last, !top.isHTMLIntegrationPoint, !top.isTextIntegrationPoint {
                open.removeLast()
            }
            return htmlStartTag(name, selfClosing: selfClosing)
        }
        if !selfClosing { push(name, current.namespace, attribute) }
        return .foreign
    }

    /// Reads an end tag: it closes the open SVG/MathML element of its name
    /// and those inside it; `</p>` and `</br>` in foreign content break out.
    mutating func endTag(_ name: [UInt8]) {
        guard let current = open.last else { return }
        let inForeign = !current.isHTMLIntegrationPoint && !current.isTextIntegrationPoint
        if inForeign, name.elementsEqual("p".utf8) || name.elementsEqual("br".utf8) {
            while let top = open.last, !top.isHTMLIntegrationPoint, !top.isTextIntegrationPoint {
                open.removeLast()
            }
            return
        }
        if let index = open.lastIndex(where: { $0.name == name }) { open.removeSubrange(index...) }
    }

    /// The tree builder's dispatch: a start tag at an integration point is HTML.
    private static func readsAsHTML(_ name: [UInt8], at current: Element) -> Bool {
        if current.isHTMLIntegrationPoint { return true }
        if current.isTextIntegrationPoint {
            return !name.elementsEqual("mglyph".utf8) && !name.elementsEqual("malignmark".utf8)
        }
        return current.namespace == .math && current.name.elementsEqual("annotation-xml".utf8) && name == svg
    }

    private static func isFontBreakout(_ name: [UInt8], _ attribute: (String) -> [UInt8]?) -> Bool {
        name.elementsEqual("font".utf8) && ["color", "face", "size"].contains { attribute($0) != nil }
    }

    private mutating func htmlStartTag(_ name: [UInt8], selfClosing: Bool) -> Treatment {
        guard name == Self.svg || name == Self.math else { return .html }
        if !selfClosing { push(name, name == Self.svg ? .svg : .math) { _ in nil } }
        return .foreign
    }

    private mutating func push(_ name: [UInt8], _ namespace: Namespace, _ attribute: (String) -> [UInt8]?) {
        guard open.count < Self.maxDepth else { return }
        var htmlPoint = false
        var textPoint = false
        switch namespace {
        case .svg:
            htmlPoint = Self.svgIntegrationPoints.contains(name)
        case .math:
            textPoint = Self.mathTextIntegrationPoints.contains(name)
            if name.elementsEqual("annotation-xml".utf8), let encoding = attribute("encoding") {
                let value = String(decoding: encoding.map(ASCII.lowercased), as: UTF8.self)
                htmlPoint = value == "text/html" || value == "application/xhtml+xml"
            }
        }
        open.append(
            Element(
                name: name, namespace: namespace, isHTMLIntegrationPoint: htmlPoint,
                isTextIntegrationPoint: textPoint))
    }
}
