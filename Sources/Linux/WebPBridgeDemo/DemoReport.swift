import Foundation

/// The demo's figures: for each kind of client, each image's bytes and
/// SSIM and the totals; and the table and last line the `demo` command
/// prints. Pure arithmetic over ``DemoImageResult``s, so tests check it
/// without a network.
package struct DemoReport: Sendable {
    /// The page's images as one kind of client got them through the bridge.
    package struct ClientRun: Sendable {
        package var profile: DemoClient.Profile
        /// Every image on the page, in page order.
        package var images: [DemoImageResult]
        /// Loading every image through the bridge.
        var bridgeTime: Duration

        /// Totals over every image.
        var totals: Totals { Totals(images) }
    }

    /// The clients, in the order they loaded the images.
    package var clients: [ClientRun]
    /// Bytes of the page, stylesheet and script, which the bridge passes through.
    var pageBytes: Int
    /// Loading every image directly from the origin, for comparison.
    var directTime: Duration
    var bridgeURL: String
    var originURL: String

    /// Totals over a group of images.
    struct Totals: Sendable, Equatable {
        var count: Int
        /// Loaded directly from the origin.
        var originalBytes: Int
        /// Received by the bridge from the origin: the network cost through the bridge.
        var wireBytes: Int
        /// Handed to the WebView by the bridge (after transcoding).
        var deliveredBytes: Int
        /// The originals resized to the delivered sizes with no change of
        /// format (originals where that was not measured): what the resize
        /// alone would have put on the wire.
        var resizedBytes: Int
        /// `nil` when no image in the group was measured.
        var meanSSIM: Double?
        var minSSIM: Double?
        /// SSIMULACRA 2 over the scored images; `nil` when none was scored.
        var meanSSIMULACRA2: Double?
        var minSSIMULACRA2: Double?

        /// Percentage of the original bytes that the bridge saved on the
        /// network (negative when it cost more).
        var savedPercent: Double { DemoReport.percentSaved(wireBytes, of: originalBytes) }
        /// The same for the bytes the client received.
        var deliveredSavedPercent: Double { DemoReport.percentSaved(deliveredBytes, of: originalBytes) }
        /// The part of the original bytes that resizing alone saves, in percent.
        var resizeSavedPercent: Double { DemoReport.percentSaved(resizedBytes, of: originalBytes) }
        /// The part the format saves on top of the resize, in percent of
        /// the original bytes: ``savedPercent`` minus ``resizeSavedPercent``.
        var formatSavedPercent: Double { savedPercent - resizeSavedPercent }

        init(_ images: some Collection<DemoImageResult>) {
            count = images.count
            originalBytes = images.reduce(0) { $0 + $1.originalBytes }
            wireBytes = images.reduce(0) { $0 + $1.wireBytes }
            deliveredBytes = images.reduce(0) { $0 + $1.deliveredBytes }
            resizedBytes = images.reduce(0) { $0 + ($1.resizedBytes ?? $1.originalBytes) }
            let scores = images.compactMap(\.ssim)
            meanSSIM = scores.isEmpty ? nil : scores.reduce(0, +) / Double(scores.count)
            minSSIM = scores.min()
            let perceptual = images.compactMap(\.ssimulacra2)
            meanSSIMULACRA2 = perceptual.isEmpty ? nil : perceptual.reduce(0, +) / Double(perceptual.count)
            minSSIMULACRA2 = perceptual.min()
        }
    }

    /// How much smaller `bytes` is than `original`, in percent (0 when there is no original).
    static func percentSaved(_ bytes: Int, of original: Int) -> Double {
        original == 0 ? 0 : (1 - Double(bytes) / Double(original)) * 100
    }

    /// The images that failed, each with its client.
    package var failures: [(client: DemoClient.Profile, image: DemoImageResult)] {
        clients.flatMap { run in run.images.filter { $0.failure != nil }.map { (run.profile, $0) } }
    }

    /// Images loaded, over every client.
    package var imageLoads: Int { clients.reduce(0) { $0 + $1.images.count } }

    /// The summary line the command ends with: each client's saving on the
    /// wire through the bridge and its minimum SSIM, in ``clients`` order,
    /// e.g. `saved 86.3% / 86.3% / 89.4% of image bytes (legacy-webview /
    /// webp / avif; 58.3 MB direct), min SSIM 0.928 / 0.928 / 0.915`.
    var summaryLine: String {
        let totals = clients.map(\.totals)
        let direct = totals.first?.originalBytes ?? 0
        return
            "saved \(totals.map { Self.fixed($0.savedPercent, 1) + "%" }.joined(separator: " / ")) of image bytes"
            + " (\(clients.map(\.profile.name).joined(separator: " / ")); \(Self.megabytes(direct)) direct),"
            + " min SSIM \(totals.map { Self.fixed($0.minSSIM ?? 0, 3) }.joined(separator: " / "))"
            + (totals.contains { $0.minSSIMULACRA2 != nil }
                ? ", min SSIMULACRA 2 "
                    + totals.map { $0.minSSIMULACRA2.map { Self.fixed($0, 1) } ?? "-" }.joined(separator: " / ")
                : "")
    }

    /// The table the command prints: for each client one row per kind of
    /// image and one for all; where the bytes go (the resize alone, then
    /// the format); each tuned client against today's settings
    /// (``againstFixedLines``) and the animations' frames
    /// (``animationLines``); the wall times; ``summaryLine`` last.
    package var table: String {
        let header = [
            "", "images", "direct", "on the wire", "saved", "to the client", "mean SSIM", "min SSIM", "mean S2",
            "min S2",
        ]
        var rows: [[String]] = []
        var totalRows: Set<Int> = []
        for run in clients {
            totalRows.insert(rows.count)
            rows.append(Self.row(run.profile.label, run.totals))
            for kind in DemoImageResult.Kind.allCases {
                let group = run.images.filter { $0.kind == kind }
                if !group.isEmpty { rows.append(Self.row("  " + kind.rawValue, Totals(group))) }
            }
        }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                column == 0
                    ? cell.padding(toLength: widths[0], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[column] - cell.count) + cell
            }.joined(separator: "  ")
        }
        var lines = [line(header)]
        let rule = String(repeating: "-", count: lines[0].count)
        for (index, row) in rows.enumerated() {
            if totalRows.contains(index) { lines.append(rule) }
            lines.append(line(row))
        }
        lines.append(rule)
        lines.append("")
        lines.append(
            "on the wire: what the bridge received from the origin (the AVIF or WebP variant; the original where it"
                + " fell back or passed it through); to the client: what it handed over (transcoded to JPEG or PNG"
                + " for a client without WebP)")
        if let first = clients.first?.totals {
            lines.append(
                "where the bytes go: resizing alone (JPEG q90 / PNG at the delivered size) saves"
                    + " \(Self.fixed(first.resizeSavedPercent, 1))% (\(Self.megabytes(first.resizedBytes)));"
                    + " the format saves the rest: "
                    + clients.map { "\($0.profile.name) \(Self.fixed($0.totals.formatSavedPercent, 1)) points" }
                    .joined(separator: ", "))
        }
        lines.append(
            "S2: SSIMULACRA 2 (100 identical, 90 visually lossless, 70 high quality), where scored (make demo"
                + " scores with PyPI ssimulacra2); tuned origin: each image straight from an origin with"
                + " --auto-format (the smallest format the client accepts equally)")
        let comparisons = againstFixedLines
        if !comparisons.isEmpty {
            lines.append(
                "against today's settings (each tuned client beside the bridged client that sends its Accept,"
                    + " image by image, bytes on the wire):")
            lines += comparisons.map { "  " + $0 }
        }
        let animations = animationLines
        if !animations.isEmpty {
            lines.append("animations (frames each client was handed):")
            lines += animations.map { "  " + $0 }
        }
        lines.append("page, stylesheet and script: \(Self.humanBytes(pageBytes)) passed through")
        lines.append(
            "wall time through the bridge: "
                + clients.map { "\($0.profile.name) \(Self.seconds($0.bridgeTime))" }.joined(separator: ", ")
                + "; images directly: \(Self.seconds(directTime))")
        for failure in failures {
            lines.append("FAILED \(failure.client.name) \(failure.image.path): \(failure.image.failure ?? "")")
        }
        lines.append(summaryLine)
        return lines.joined(separator: "\n") + "\n"
    }

    private static func row(_ label: String, _ totals: Totals) -> [String] {
        [
            label, String(totals.count), humanBytes(totals.originalBytes), humanBytes(totals.wireBytes),
            fixed(totals.savedPercent, 1) + "%", humanBytes(totals.deliveredBytes),
            totals.meanSSIM.map { fixed($0, 3) } ?? "-",
            totals.minSSIM.map { fixed($0, 3) } ?? "-",
            totals.meanSSIMULACRA2.map { fixed($0, 1) } ?? "-",
            totals.minSSIMULACRA2.map { fixed($0, 1) } ?? "-",
        ]
    }

    // MARK: Formatting (locale-independent)

    /// `value` with `places` decimals, rounded half away from zero.
    static func fixed(_ value: Double, _ places: Int) -> String {
        String(format: "%.\(places)f", value)
    }

    /// Bytes in decimal megabytes with one decimal: `58.3 MB`.
    static func megabytes(_ bytes: Int) -> String { fixed(Double(bytes) / 1_000_000, 1) + " MB" }

    /// Kilobytes below a megabyte, else megabytes: `41 kB`, `7.3 MB`.
    static func humanBytes(_ bytes: Int) -> String { bytes < 999_500 ? kilobytes(bytes) : megabytes(bytes) }

    /// Bytes in kilobytes (decimal) without decimals: `312 kB`.
    static func kilobytes(_ bytes: Int) -> String { fixed(Double(bytes) / 1_000, 0) + " kB" }

    static func seconds(_ duration: Duration) -> String {
        let components = duration.components
        return fixed(Double(components.seconds) + Double(components.attoseconds) / 1e18, 2) + " s"
    }
}
