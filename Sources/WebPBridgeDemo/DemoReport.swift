import Foundation

/// The demo's figures: each image's bytes and SSIM, the totals, and the
/// table and last line the `demo` command prints. Pure arithmetic over
/// ``DemoImageResult``s, so tests check it without a network.
package struct DemoReport: Sendable {
    /// Every image on the page, in page order.
    package var images: [DemoImageResult]
    /// Bytes of the page, stylesheet and script, which the bridge passes through.
    var pageBytes: Int
    /// From the first byte of the page request to the last image, through the bridge.
    var bridgeTime: Duration
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
        /// `nil` when no image in the group was measured.
        var meanSSIM: Double?
        var minSSIM: Double?

        /// Percentage of the original bytes that the bridge saved on the
        /// network (negative when it cost more).
        var savedPercent: Double { DemoReport.percentSaved(wireBytes, of: originalBytes) }
        /// The same for the bytes the WebView received.
        var deliveredSavedPercent: Double { DemoReport.percentSaved(deliveredBytes, of: originalBytes) }

        init(_ images: some Collection<DemoImageResult>) {
            count = images.count
            originalBytes = images.reduce(0) { $0 + $1.originalBytes }
            wireBytes = images.reduce(0) { $0 + $1.wireBytes }
            deliveredBytes = images.reduce(0) { $0 + $1.deliveredBytes }
            let scores = images.compactMap(\.ssim)
            meanSSIM = scores.isEmpty ? nil : scores.reduce(0, +) / Double(scores.count)
            minSSIM = scores.min()
        }
    }

    /// How much smaller `bytes` is than `original`, in percent (0 when there is no original).
    static func percentSaved(_ bytes: Int, of original: Int) -> Double {
        original == 0 ? 0 : (1 - Double(bytes) / Double(original)) * 100
    }

    /// Totals over every image.
    var totals: Totals { Totals(images) }

    /// The images that failed, each with its reason.
    package var failures: [DemoImageResult] { images.filter { $0.failure != nil } }

    /// The summary line the command ends with, e.g.
    /// `saved 89.5% of image bytes (58.3 MB → 6.1 MB), mean SSIM 0.975, min SSIM 0.931`:
    /// the bytes are the originals' and those on the wire through the bridge.
    var summaryLine: String {
        let totals = totals
        return
            "saved \(Self.fixed(totals.savedPercent, 1))% of image bytes"
            + " (\(Self.megabytes(totals.originalBytes)) → \(Self.megabytes(totals.wireBytes))),"
            + " mean SSIM \(Self.fixed(totals.meanSSIM ?? 0, 3)), min SSIM \(Self.fixed(totals.minSSIM ?? 0, 3))"
    }

    /// The table the command prints: one row per kind of image and one for
    /// all, the wall times, and ``summaryLine`` last.
    package var table: String {
        let header = ["", "images", "direct", "on the wire", "saved", "to the WebView", "mean SSIM", "min SSIM"]
        var rows: [[String]] = []
        for kind in DemoImageResult.Kind.allCases {
            let group = images.filter { $0.kind == kind }
            if !group.isEmpty { rows.append(Self.row(kind.rawValue, Totals(group))) }
        }
        rows.append(Self.row("all images", totals))
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                column == 0
                    ? cell.padding(toLength: widths[0], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[column] - cell.count) + cell
            }.joined(separator: "  ")
        }
        var lines = [line(header)]
        lines.append(String(repeating: "-", count: lines[0].count))
        lines += rows.dropLast().map(line)
        lines.append(String(repeating: "-", count: lines[0].count))
        lines.append(line(rows.last!))
        lines.append("")
        lines.append(
            "on the wire: what the bridge received from the origin (WebP variants; originals where it fell back"
                + " or passed them through)")
        lines.append(
            "to the WebView: what the bridge handed over after transcoding (JPEG, PNG), over loopback:"
                + " \(Self.fixed(totals.deliveredSavedPercent, 1))% below the originals")
        lines.append("page, stylesheet and script: \(Self.humanBytes(pageBytes)) passed through")
        lines.append(
            "wall time: \(Self.seconds(bridgeTime)) through the bridge (page and images, loaded in parallel);"
                + " images directly: \(Self.seconds(directTime))")
        for failure in failures {
            lines.append("FAILED \(failure.path): \(failure.failure ?? "")")
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
