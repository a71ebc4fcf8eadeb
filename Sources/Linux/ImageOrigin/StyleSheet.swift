public import Foundation

/// Named styles, as a Qiniu bucket defines them: `photo.jpg-WebPiOSW750`
/// means `photo.jpg` processed by the style `WebPiOSW750`'s body.
///
/// Loaded from JSON such as
/// `{"separator": "-", "styles": {"WebPiOSW750": "imageView2/2/w/750/format/webp"}}`;
/// every style's body is parsed at load time, so a bad style fails then.
public struct StyleSheet: Sendable, Equatable {
    /// The separators a style name may follow (Qiniu allows several per bucket).
    public var separators: [Character]
    /// Style name → parsed pipeline.
    public var styles: [String: ProcessingPipeline]

    /// No styles.
    public static let empty = StyleSheet(separators: ["-"], styles: [:])

    public init(separators: [Character], styles: [String: ProcessingPipeline]) {
        self.separators = separators
        self.styles = styles
    }

    /// Parses a styles file.
    ///
    /// - Throws: ``StyleSheetError`` naming the style and what is wrong.
    public init(json: Data) throws(StyleSheetError) {
        struct File: Decodable {
            var separator: String?
            var separators: [String]?
            var styles: [String: String]
        }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: json)
        } catch {
            throw StyleSheetError(
                "styles file is not valid JSON of the form"
                    + " {\"separator\": \"-\", \"styles\": {\"name\": \"imageView2/...\"}}")
        }
        let separatorTexts = file.separators ?? [file.separator ?? "-"]
        var separators: [Character] = []
        for text in separatorTexts {
            guard text.count == 1, let character = text.first, "-_!/".contains(character) else {
                throw StyleSheetError("separator '\(text)' must be one of - _ ! /")
            }
            separators.append(character)
        }
        var styles: [String: ProcessingPipeline] = [:]
        for (name, body) in file.styles {
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." })
            else {
                throw StyleSheetError("style name '\(name)' may use only letters, digits, '_', '-' and '.'")
            }
            do {
                styles[name] = try ProcessingParser.parse(body)
            } catch {
                throw StyleSheetError("style '\(name)': \(error.message)")
            }
        }
        self.init(separators: separators, styles: styles)
    }

    /// Splits `path` into the file path and a style, when it ends in
    /// `<separator><known style>`; `nil` otherwise.
    public func match(_ path: String) -> (filePath: String, style: String, pipeline: ProcessingPipeline)? {
        var work = 0
        return match(path, work: &work)
    }

    /// ``match(_:)``, adding to `work` the characters it examined, so that
    /// tests can show the cost does not grow with the path.
    ///
    /// A style name is at most as long as the longest in the sheet, so only
    /// the path's last `longest + 1` characters can hold `<separator><name>`:
    /// the work is bounded by the style names, whatever the path's length
    /// (it used to walk every separator in the path, copying the rest of the
    /// path at each: quadratic).
    func match(
        _ path: String, work: inout Int
    ) -> (filePath: String, style: String, pipeline: ProcessingPipeline)? {
        guard !styles.isEmpty else { return nil }
        let longest = styles.keys.lazy.map(\.count).max() ?? 0
        let windowStart =
            path.index(path.endIndex, offsetBy: -(longest + 1), limitedBy: path.startIndex) ?? path.startIndex
        let window = path[windowStart...]
        for separator in separators {
            var searchEnd = window.endIndex
            while let index = window[..<searchEnd].lastIndex(of: separator) {
                let name = path[path.index(after: index)...]
                work += window.distance(from: index, to: searchEnd) + name.count
                if let pipeline = styles[String(name)], index > path.startIndex {
                    return (String(path[..<index]), String(name), pipeline)
                }
                searchEnd = index
            }
            work += window.distance(from: window.startIndex, to: searchEnd)
        }
        return nil
    }
}

/// A styles file that cannot be used.
public struct StyleSheetError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
