package import Foundation

extension DemoReport {
    /// The report's figures as a script reads them: every image's bytes and
    /// types, and the totals. `e2e/run.sh` compares a WebP-showing browser's
    /// image bytes with ``Image/wireBytes``: the variants the bridge received
    /// are exactly what such a browser should receive.
    struct Figures: Codable, Equatable {
        struct Image: Codable, Equatable {
            /// The path the page names, e.g. `/images/article-01.jpg`.
            var path: String
            var originalType: String
            var deliveredType: String
            /// Loaded directly from the origin (as a client without WebP).
            var originalBytes: Int
            /// Received by the bridge from the origin: the WebP variant, or the
            /// original where it fell back or passed the image through.
            var wireBytes: Int
            /// Handed to the WebView after transcoding.
            var deliveredBytes: Int
            var ssim: Double?
            var failure: String?
        }

        struct Totals: Codable, Equatable {
            var images: Int
            var originalBytes: Int
            var wireBytes: Int
            var deliveredBytes: Int
        }

        var bridge: String
        var origin: String
        var images: [Image]
        var totals: Totals
        /// The page, stylesheet and script, passed through.
        var pageBytes: Int
    }

    /// The figures of this report.
    var figures: Figures {
        let totals = totals
        return Figures(
            bridge: bridgeURL, origin: originURL,
            images: images.map {
                Figures.Image(
                    path: $0.path, originalType: $0.originalType, deliveredType: $0.deliveredType,
                    originalBytes: $0.originalBytes, wireBytes: $0.wireBytes, deliveredBytes: $0.deliveredBytes,
                    ssim: $0.ssim, failure: $0.failure)
            },
            totals: .init(
                images: totals.count, originalBytes: totals.originalBytes, wireBytes: totals.wireBytes,
                deliveredBytes: totals.deliveredBytes),
            pageBytes: pageBytes)
    }

    /// Writes ``figures`` to `url` as JSON (sorted keys, so runs diff cleanly).
    ///
    /// - Throws: file system errors as they come.
    package func writeJSON(to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(figures).write(to: url, options: .atomic)
    }

    /// Where the JSON goes beside an HTML report at `url`: the same name
    /// with `.json` for its extension (`demo-report.html` → `demo-report.json`).
    package static func jsonURL(besideHTML url: URL) -> URL {
        let json = url.deletingPathExtension().appendingPathExtension("json")
        return json == url ? url.appendingPathExtension("json") : json
    }
}
