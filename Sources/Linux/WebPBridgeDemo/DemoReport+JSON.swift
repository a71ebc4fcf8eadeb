package import Foundation

extension DemoReport {
    /// The report's figures as a script reads them: for each client, every
    /// image's bytes and types, and the totals. `e2e/run.sh` compares a
    /// browser's image bytes with ``Image/wireBytes`` of the client that
    /// accepts what it accepts: the variants the bridge received are exactly
    /// what such a browser should receive.
    struct Figures: Codable, Equatable {
        struct Image: Codable, Equatable {
            /// The path the page names, e.g. `/images/article-01.jpg`.
            var path: String
            var originalType: String
            var deliveredType: String
            /// Loaded directly from the origin (as a client without WebP).
            var originalBytes: Int
            /// Received by the bridge from the origin: the variant, or the
            /// original where it fell back or passed the image through.
            var wireBytes: Int
            /// Handed to the client (after transcoding, for one without WebP).
            var deliveredBytes: Int
            /// The original resized to the delivered size, format unchanged.
            var resizedBytes: Int?
            var ssim: Double?
            var ssimulacra2: Double?
            /// The quality the tuned origin chose (`X-Image-Quality`), if it searched one.
            var chosenQuality: String?
            /// Frames in what the client was handed (1 for a still), if it decoded.
            var deliveredFrames: Int?
            var failure: String?
        }

        struct Totals: Codable, Equatable {
            var images: Int
            var originalBytes: Int
            var wireBytes: Int
            var deliveredBytes: Int
            var resizedBytes: Int
            var savedPercent: Double
            var meanSSIM: Double?
            var minSSIM: Double?
            var meanSSIMULACRA2: Double?
            var minSSIMULACRA2: Double?
        }

        struct Client: Codable, Equatable {
            /// `legacy-webview`, `webp`, `avif`, or a tuned origin's client (`avif-tuned`, …).
            var name: String
            var label: String
            var userAgent: String
            var accept: String
            var images: [Image]
            var totals: Totals
        }

        /// A tuned client beside today's settings (``DemoReport/AgainstFixed``).
        struct AgainstFixed: Codable, Equatable {
            /// Client names, as in ``Client/name``.
            var tuned: String
            var fixed: String
            var compared: Int
            /// The images that cost the tuned client more on the wire; empty when none did.
            var bigger: [DemoReport.AgainstFixed.Bigger]
            /// Wire bytes of the compared images by kind (`photos`, `logos`, `animations`), tuned then fixed.
            var tunedBytesByKind: [String: Int]
            var fixedBytesByKind: [String: Int]
        }

        var bridge: String
        var origin: String
        var clients: [Client]
        /// Each tuned client beside the bridged client sending its `Accept`.
        var againstFixed: [AgainstFixed]
        /// The page, stylesheet and script, passed through.
        var pageBytes: Int
    }

    /// The figures of this report.
    var figures: Figures {
        Figures(
            bridge: bridgeURL, origin: originURL,
            clients: clients.map { run in
                let totals = run.totals
                return Figures.Client(
                    name: run.profile.name, label: run.profile.label, userAgent: run.profile.userAgent,
                    accept: run.profile.imageAccept,
                    images: run.images.map {
                        Figures.Image(
                            path: $0.path, originalType: $0.originalType, deliveredType: $0.deliveredType,
                            originalBytes: $0.originalBytes, wireBytes: $0.wireBytes,
                            deliveredBytes: $0.deliveredBytes, resizedBytes: $0.resizedBytes, ssim: $0.ssim,
                            ssimulacra2: $0.ssimulacra2, chosenQuality: $0.chosenQuality,
                            deliveredFrames: $0.deliveredFrames, failure: $0.failure)
                    },
                    totals: .init(
                        images: totals.count, originalBytes: totals.originalBytes, wireBytes: totals.wireBytes,
                        deliveredBytes: totals.deliveredBytes, resizedBytes: totals.resizedBytes,
                        savedPercent: totals.savedPercent, meanSSIM: totals.meanSSIM, minSSIM: totals.minSSIM,
                        meanSSIMULACRA2: totals.meanSSIMULACRA2, minSSIMULACRA2: totals.minSSIMULACRA2))
            },
            againstFixed: againstFixed.map { comparison in
                Figures.AgainstFixed(
                    tuned: comparison.tuned, fixed: comparison.fixed, compared: comparison.compared,
                    bigger: comparison.bigger,
                    tunedBytesByKind: Dictionary(
                        uniqueKeysWithValues: comparison.kinds.map { ($0.kind.shortName, $0.tuned) }),
                    fixedBytesByKind: Dictionary(
                        uniqueKeysWithValues: comparison.kinds.map { ($0.kind.shortName, $0.fixed) }))
            },
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
