package import Foundation
import WebPBridge

extension DemoReport {
    /// Writes the HTML report to `url`, with every original and every
    /// client's delivered image as a file in a folder beside it
    /// (`<name>-files/`), so the page stays small and the images open at
    /// full size.
    ///
    /// - Returns: the folder of images.
    @discardableResult
    package func writeHTML(to url: URL) throws -> URL {
        let folderName = url.deletingPathExtension().lastPathComponent + "-files"
        let folder = url.deletingLastPathComponent().appendingPathComponent(folderName)
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var files: [ImageFiles] = []
        for (index, path) in (clients.first?.images.map(\.path) ?? []).enumerated() {
            let stem =
                String(format: "%02d-", index + 1) + (path.split(separator: "/").last.map(String.init) ?? "image")
            let base = (stem as NSString).deletingPathExtension
            func write(_ data: Data, _ suffix: String) throws -> String {
                let name = "\(base)-\(suffix).\(Self.fileExtension(data, fallback: "bin"))"
                try data.write(to: folder.appendingPathComponent(name))
                return folderName + "/" + name
            }
            let original = try write(clients[0].images[index].original, "original")
            let delivered = try clients.map { try write($0.images[index].delivered, $0.profile.name) }
            files.append(ImageFiles(original: original, delivered: delivered))
        }
        try Data(html(files: files).utf8).write(to: url)
        return folder
    }

    /// The relative paths of one image's files: the original, and what
    /// each client got, in ``clients`` order.
    struct ImageFiles {
        var original: String
        var delivered: [String]
    }

    /// The report page.
    func html(files: [ImageFiles]) -> String {
        let escape = DemoPage.escape
        // Each tuned client against today's settings, then each animation's frames.
        let settingsLines = againstFixedLines + animationLines
        let size = { (size: (width: Int, height: Int)?) in size.map { "\($0.width)×\($0.height)" } ?? "?" }
        var cards = ""
        for (index, file) in files.enumerated() {
            let first = clients[0].images[index]
            var shots =
                "<a href=\"\(escape(file.original))\"><img src=\"\(escape(file.original))\" alt=\"original\""
                + " loading=\"lazy\"></a>"
            var lines =
                "original \(Self.kilobytes(first.originalBytes)) · \(escape(first.originalType))"
                + " · \(size(first.originalSize))"
            for (run, delivered) in zip(clients, file.delivered) {
                let image = run.images[index]
                let saved = Self.percentSaved(image.wireBytes, of: image.originalBytes)
                let quality =
                    (image.ssim.map { "SSIM \(Self.fixed($0, 3))" } ?? "SSIM –")
                    + (image.ssimulacra2.map { " · SSIMULACRA 2 \(Self.fixed($0, 1))" } ?? "")
                let grade =
                    image.failure != nil
                    ? "bad" : (image.ssim ?? 1) >= 0.95 ? "good" : (image.ssim ?? 1) >= 0.9 ? "fair" : "bad"
                shots +=
                    "<a href=\"\(escape(delivered))\"><img src=\"\(escape(delivered))\""
                    + " alt=\"\(escape(run.profile.label))\" loading=\"lazy\"></a>"
                lines +=
                    "<br>\(escape(run.profile.name)): on the wire \(Self.kilobytes(image.wireBytes))"
                    + " → delivered \(Self.kilobytes(image.deliveredBytes)) · \(escape(image.deliveredType))"
                    + " · \(size(image.deliveredSize))"
                    + " <span class=\"badge \(saved >= 50 ? "good" : saved > 0 ? "fair" : "none")\">"
                    + "\(Self.fixed(saved, 1))% saved</span> <span class=\"badge \(grade)\">\(quality)</span>"
                    + (image.failure.map { " <span class=\"badge bad\">\(escape($0))</span>" } ?? "")
            }
            cards += """
                <figure class="pair">
                  <div class="shots" style="grid-template-columns: repeat(\(1 + clients.count), 1fr)">\(shots)</div>
                  <figcaption><b>\(escape(first.path))</b><br>\(lines)</figcaption>
                </figure>

                """
        }
        var stats = ""
        for run in clients {
            let totals = run.totals
            stats += """
                  <div class="stat hero"><b>\(Self.fixed(totals.savedPercent, 1))%</b><span>saved for \
                \(escape(run.profile.label)): \(Self.humanBytes(totals.wireBytes)) on the wire, mean SSIM \
                \(Self.fixed(totals.meanSSIM ?? 0, 3)) (min \(Self.fixed(totals.minSSIM ?? 0, 3)))</span></div>

                """
        }
        let direct = clients.first?.totals
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>webp-bridge demo — \(escape(summaryLine))</title>
            <style>
            body { margin: 0; font: 15px/1.5 system-ui, "DejaVu Sans", sans-serif; color: #1d2327; \
            background: #f4f5f7; }
            main { max-width: 1200px; margin: 0 auto; padding: 24px; }
            h1 { font-size: 30px; margin: 0 0 4px; }
            .sub { color: #5f6b73; margin: 0 0 20px; }
            .stats { display: grid; grid-template-columns: repeat(auto-fit, minmax(170px, 1fr)); gap: 14px; \
            margin-bottom: 24px; }
            .stat { background: #fff; border-radius: 10px; padding: 14px 16px; box-shadow: 0 1px 3px rgba(0,0,0,.08); }
            .stat b { display: block; font-size: 28px; line-height: 1.2; }
            .stat span { color: #5f6b73; font-size: 13px; }
            .stat.hero b { color: #1f8a5b; font-size: 36px; }
            section { background: #fff; border-radius: 10px; padding: 18px; margin-bottom: 24px; \
            box-shadow: 0 1px 3px rgba(0,0,0,.08); }
            h2 { font-size: 19px; margin: 0 0 12px; }
            .gallery { display: grid; grid-template-columns: repeat(auto-fill, minmax(640px, 1fr)); gap: 16px; }
            .pair { margin: 0; background: #fafbfc; border: 1px solid #e3e6ea; border-radius: 8px; padding: 10px; }
            .shots { display: grid; grid-template-columns: 1fr 1fr; gap: 6px; }
            .shots img { width: 100%; height: 150px; object-fit: contain; \
            background: repeating-conic-gradient(#eee 0 25%, #fff 0 50%) 0 0 / 16px 16px; border-radius: 4px; \
            display: block; }
            figcaption { font-size: 13px; color: #3a444b; margin-top: 6px; }
            .badge { display: inline-block; border-radius: 999px; padding: 0 8px; font-size: 12px; font-weight: 600; \
            margin-left: 4px; }
            .good { background: #d7f3e3; color: #17603f; } .fair { background: #fdf0cf; color: #7a5600; }
            .bad { background: #fbd9d6; color: #8a1f15; } .none { background: #e7e9ec; color: #4a545b; }
            .legend span { display: inline-block; width: 12px; height: 12px; border-radius: 2px; margin: 0 4px 0 12px; \
            vertical-align: -1px; }
            .note { color: #5f6b73; font-size: 13px; }
            </style>
            </head>
            <body>
            <main>
            <h1>A news front page through the WebP bridge</h1>
            <p class="sub">\(direct?.count ?? 0) images loaded through <code>\(escape(bridgeURL))</code> \
            by \(clients.count) kinds of client, and directly from the origin <code>\(escape(originURL))</code>.</p>
            <div class="stats">
            \(stats)  <div class="stat"><b>\(Self.humanBytes(direct?.originalBytes ?? 0))</b><span>loaded directly\
            </span></div>
              <div class="stat"><b>\(Self.fixed(direct?.resizeSavedPercent ?? 0, 1))%</b><span>saved by resizing \
            alone (JPEG q90 / PNG at the delivered size); the format saves the rest</span></div>
            </div>
            <section>
              <h2>Bytes per image</h2>
              <p class="legend"><span style="background:#b8c0c8"></span>loaded directly\
            \(legend)</p>
              <p class="note">On the wire: what the bridge fetched over the network for each client (the AVIF or \
            WebP variant). For a client without WebP it transcodes the WebP variant next to it (in-process or over \
            loopback), so only the variant crosses the network.</p>
            \(barChart())
            </section>
            \(chosenQualities.isEmpty ? "" : """
              <section>
                <h2>Quality chosen per image</h2>
                <p class="note">The encoder quality the tuned origin chose for each image in page order (\
              <code>--quality auto</code>: the lowest whose SSIMULACRA 2 score reaches the target, never above \
              the fixed default); a dashed column is lossless, an empty slot an image served without a search.</p>
              \(qualityChart())
              </section>
              """)
            \(settingsLines.isEmpty ? "" : """
              <section>
                <h2>Against today's settings</h2>
                <p class="note">Each tuned client beside the bridged client that sends its <code>Accept</code> (the \
              fixed qualities), image by image, in bytes on the wire; then the frames each client was handed for \
              each animation.</p>
                <ul class="note">
              \(settingsLines.map { "    <li>\(escape($0))</li>\n" }.joined())  </ul>
              </section>
              """)
            <section>
              <h2>Every image: the original, then what each client got</h2>
              <p class="note">The images are files in the folder beside this report; \
            click one to open it at full size. SSIM compares the delivered image with the original scaled to the same \
            size (luma, both over white).</p>
              <div class="gallery">
            \(cards)  </div>
            </section>
            <p class="note">\(escape(summaryLine))</p>
            </main>
            </body>
            </html>

            """
    }

    /// The colour of each client's bars, in ``clients`` order.
    static let clientColours = ["#7fb3e0", "#1f8a5b", "#8e44ad", "#d35400", "#16a085", "#c0392b", "#2c3e50"]

    /// The chart's legend entries, one per client.
    var legend: String {
        clients.enumerated().map { index, run in
            "<span style=\"background:\(Self.clientColours[index % Self.clientColours.count])\"></span>"
                + "\(DemoPage.escape(run.profile.name)) on the wire"
        }.joined()
    }

    /// A horizontal bar chart of each image's bytes: the original behind,
    /// and one bar per client for what crossed the network, as inline SVG.
    func barChart() -> String {
        let paths = clients.first?.images ?? []
        let barHeight = 4
        let rowHeight = max(16, 6 + barHeight * clients.count)
        let labelWidth = 190
        let chartWidth = 900
        let largest = max(1, clients.flatMap(\.images).map { max($0.originalBytes, $0.wireBytes) }.max() ?? 1)
        let height = paths.count * rowHeight + 24
        let scale = { (bytes: Int) in Self.fixed(max(Double(bytes) / Double(largest) * Double(chartWidth), 1), 1) }
        var svg =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(labelWidth + chartWidth + 150) \(height)\""
            + " width=\"100%\" role=\"img\" aria-label=\"bytes per image\""
            + " font-family=\"system-ui, sans-serif\" font-size=\"11\">\n"
        for (index, first) in paths.enumerated() {
            let y = index * rowHeight
            let name = DemoPage.escape(first.path.split(separator: "/").last.map(String.init) ?? first.path)
            svg += "<text x=\"\(labelWidth - 6)\" y=\"\(y + 12)\" text-anchor=\"end\" fill=\"#3a444b\">\(name)</text>"
            svg +=
                "<rect x=\"\(labelWidth)\" y=\"\(y + 1)\" width=\"\(scale(first.originalBytes))\""
                + " height=\"\(rowHeight - 2)\" rx=\"2\" fill=\"#b8c0c8\">"
                + "<title>\(name): \(Self.kilobytes(first.originalBytes)) directly</title></rect>"
            for (client, run) in clients.enumerated() {
                let image = run.images[index]
                svg +=
                    "<rect x=\"\(labelWidth)\" y=\"\(y + 3 + client * barHeight)\" width=\"\(scale(image.wireBytes))\""
                    + " height=\"\(barHeight - 1)\" fill=\"\(Self.clientColours[client % Self.clientColours.count])\">"
                    + "<title>\(name): \(Self.kilobytes(image.wireBytes)) on the wire for"
                    + " \(DemoPage.escape(run.profile.name))</title></rect>"
            }
            svg +=
                "<text x=\"\(labelWidth + chartWidth + 6)\" y=\"\(y + 12)\" fill=\"#5f6b73\">"
                + "\(Self.kilobytes(first.originalBytes))</text>\n"
        }
        let axisY = paths.count * rowHeight + 14
        svg +=
            "<text x=\"\(labelWidth)\" y=\"\(axisY)\" fill=\"#5f6b73\">0</text>"
            + "<text x=\"\(labelWidth + chartWidth)\" y=\"\(axisY)\" text-anchor=\"end\" fill=\"#5f6b73\">"
            + "\(Self.kilobytes(largest))</text>\n"
        svg += "</svg>"
        return svg
    }

    /// The file extension for `data`'s sniffed format.
    static func fileExtension(_ data: Data, fallback: String) -> String {
        ImageFormat.sniffIfImage(data).map { $0 == .apng ? "png" : $0.fileExtension } ?? fallback
    }
}
