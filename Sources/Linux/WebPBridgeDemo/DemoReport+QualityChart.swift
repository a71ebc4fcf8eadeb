import Foundation

extension DemoReport {
    /// The clients whose images had their quality chosen per image (the
    /// tuned origin's, under `--quality auto`), with those qualities.
    var chosenQualities: [(run: ClientRun, qualities: [String?])] {
        clients.compactMap { run in
            let qualities = run.images.map(\.chosenQuality)
            return qualities.contains { $0 != nil } ? (run, qualities) : nil
        }
    }

    /// A column chart of the quality chosen for each image, one row of
    /// columns per client that had them chosen: the column's height is the
    /// encoder quality (0–100), `lossless` a full column with a mark, an
    /// image without a searched quality (its source served, or a fixed
    /// quality) an empty slot. Inline SVG; empty when no quality was chosen.
    func qualityChart() -> String {
        let rows = chosenQualities
        guard let count = rows.first?.qualities.count, count > 0 else { return "" }
        let labelWidth = 190
        let column = 14
        let rowHeight = 70
        let width = labelWidth + count * column + 40
        var svg =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(width) \(rows.count * rowHeight + 20)\""
            + " width=\"100%\" role=\"img\" aria-label=\"quality chosen per image\""
            + " font-family=\"system-ui, sans-serif\" font-size=\"11\">\n"
        for (row, entry) in rows.enumerated() {
            let base = row * rowHeight + 60
            let colour = Self.clientColours[
                (clients.firstIndex { $0.profile == entry.run.profile } ?? row)
                    % Self.clientColours.count]
            svg +=
                "<text x=\"\(labelWidth - 6)\" y=\"\(base - 24)\" text-anchor=\"end\" fill=\"#3a444b\">"
                + "\(DemoPage.escape(entry.run.profile.name))</text>"
            svg +=
                "<line x1=\"\(labelWidth)\" y1=\"\(base)\" x2=\"\(labelWidth + count * column)\" y2=\"\(base)\""
                + " stroke=\"#b8c0c8\"/>"
            for (index, quality) in entry.qualities.enumerated() {
                guard let quality else { continue }
                let value = quality == "lossless" ? 100 : Int(quality) ?? 0
                let height = max(1, value / 2)
                let path = DemoPage.escape(entry.run.images[index].path)
                svg +=
                    "<rect x=\"\(labelWidth + index * column + 1)\" y=\"\(base - height)\" width=\"\(column - 2)\""
                    + " height=\"\(height)\" fill=\"\(colour)\""
                    + (quality == "lossless" ? " stroke=\"#1d2327\" stroke-dasharray=\"2 2\"" : "") + ">"
                    + "<title>\(path): \(DemoPage.escape(quality))</title></rect>"
            }
            svg +=
                "<text x=\"\(labelWidth + count * column + 4)\" y=\"\(base - 46)\" fill=\"#5f6b73\">100</text>"
                + "<text x=\"\(labelWidth + count * column + 4)\" y=\"\(base)\" fill=\"#5f6b73\">0</text>\n"
        }
        svg += "</svg>"
        return svg
    }
}
