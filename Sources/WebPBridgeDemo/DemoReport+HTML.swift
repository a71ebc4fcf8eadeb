package import Foundation
import ImageCodecs

extension DemoReport {
    /// Writes the HTML report to `url`, with every original and delivered
    /// image as a file in a folder beside it (`<name>-files/`), so the page
    /// stays small and the images open at full size.
    ///
    /// - Returns: the folder of images.
    @discardableResult
    package func writeHTML(to url: URL) throws -> URL {
        let folderName = url.deletingPathExtension().lastPathComponent + "-files"
        let folder = url.deletingLastPathComponent().appendingPathComponent(folderName)
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var files: [(original: String, delivered: String)] = []
        for (index, image) in images.enumerated() {
            let stem =
                String(format: "%02d-", index + 1) + (image.path.split(separator: "/").last.map(String.init) ?? "image")
            let base = (stem as NSString).deletingPathExtension
            let originalName = "\(base)-original.\(Self.fileExtension(image.original, fallback: "bin"))"
            let deliveredName = "\(base)-delivered.\(Self.fileExtension(image.delivered, fallback: "bin"))"
            try image.original.write(to: folder.appendingPathComponent(originalName))
            try image.delivered.write(to: folder.appendingPathComponent(deliveredName))
            files.append((folderName + "/" + originalName, folderName + "/" + deliveredName))
        }
        try Data(html(files: files).utf8).write(to: url)
        return folder
    }

    /// The report page; `files` are the relative paths of each image's two files.
    func html(files: [(original: String, delivered: String)]) -> String {
        let totals = totals
        let escape = DemoPage.escape
        var cards = ""
        for (index, image) in images.enumerated() {
            let saved = Self.percentSaved(image.wireBytes, of: image.originalBytes)
            let size = { (size: (width: Int, height: Int)?) in size.map { "\($0.width)×\($0.height)" } ?? "?" }
            let quality = image.ssim.map { "SSIM \(Self.fixed($0, 3))" } ?? "SSIM –"
            let grade =
                image.failure != nil
                ? "bad" : (image.ssim ?? 1) >= 0.95 ? "good" : (image.ssim ?? 1) >= 0.9 ? "fair" : "bad"
            cards += """
                <figure class="pair">
                  <div class="shots">
                    <a href="\(escape(files[index].original))"><img src="\(escape(files[index].original))" \
                alt="original" loading="lazy"></a>
                    <a href="\(escape(files[index].delivered))"><img src="\(escape(files[index].delivered))" \
                alt="delivered" loading="lazy"></a>
                  </div>
                  <figcaption>
                    <b>\(escape(image.path))</b>
                    <span class="badge \(saved >= 50 ? "good" : saved > 0 ? "fair" : "none")">\(Self.fixed(saved, 1))% \
                saved</span>
                    <span class="badge \(grade)">\(quality)</span><br>
                    original \(Self.kilobytes(image.originalBytes)) · \(escape(image.originalType)) \
                · \(size(image.originalSize))
                    → on the wire \(Self.kilobytes(image.wireBytes))
                    → delivered \(Self.kilobytes(image.deliveredBytes)) · \(escape(image.deliveredType)) \
                · \(size(image.deliveredSize))
                    \(image.failure.map { "<br><span class=\"badge bad\">\(escape($0))</span>" } ?? "")
                  </figcaption>
                </figure>

                """
        }
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>webp-bridge demo — \(Self.fixed(totals.savedPercent, 1))% of image bytes saved</title>
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
            .gallery { display: grid; grid-template-columns: repeat(auto-fill, minmax(520px, 1fr)); gap: 16px; }
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
            <p class="sub">\(totals.count) images loaded as an iOS WebView that cannot decode WebP would, \
            through <code>\(escape(bridgeURL))</code>, \
            and directly from the origin <code>\(escape(originURL))</code>.</p>
            <div class="stats">
              <div class="stat hero"><b>\(Self.fixed(totals.savedPercent, 1))%</b><span>of image bytes saved</span>\
            </div>
              <div class="stat"><b>\(Self.humanBytes(totals.originalBytes))</b><span>loaded directly</span></div>
              <div class="stat"><b>\(Self.humanBytes(totals.wireBytes))</b><span>on the wire through the bridge</span>\
            </div>
              <div class="stat"><b>\(Self.humanBytes(totals.deliveredBytes))</b><span>handed to the WebView \
            (\(Self.fixed(totals.deliveredSavedPercent, 1))% saved)</span></div>
              <div class="stat"><b>\(Self.fixed(totals.meanSSIM ?? 0, 3))</b><span>mean SSIM \
            (min \(Self.fixed(totals.minSSIM ?? 0, 3)))</span></div>
              <div class="stat"><b>\(Self.seconds(bridgeTime))</b><span>page and images via the bridge</span></div>
            </div>
            <section>
              <h2>Bytes per image</h2>
              <p class="legend"><span style="background:#b8c0c8"></span>loaded directly<span \
            style="background:#1f8a5b"></span>on the wire through the bridge<span style="background:#7fb3e0">\
            </span>handed to the WebView after transcoding</p>
              <p class="note">The bridge fetches the WebP variant over the network and transcodes it next to the \
            WebView (in-process or over loopback), so the network pays the green bar; \
            the blue one never leaves the device.</p>
            \(barChart())
            </section>
            <section>
              <h2>Every image: original (left) and delivered (right)</h2>
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

    /// A horizontal bar chart of each image's bytes, original behind
    /// delivered, as inline SVG.
    func barChart() -> String {
        let rowHeight = 16
        let labelWidth = 190
        let chartWidth = 900
        let largest = max(1, images.map { max($0.originalBytes, $0.wireBytes, $0.deliveredBytes) }.max() ?? 1)
        let height = images.count * rowHeight + 24
        var svg =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(labelWidth + chartWidth + 150) \(height)\""
            + " width=\"100%\" role=\"img\" aria-label=\"bytes per image\""
            + " font-family=\"system-ui, sans-serif\" font-size=\"11\">\n"
        for (index, image) in images.enumerated() {
            let y = index * rowHeight
            let original = Double(image.originalBytes) / Double(largest) * Double(chartWidth)
            let wire = Double(image.wireBytes) / Double(largest) * Double(chartWidth)
            let delivered = Double(image.deliveredBytes) / Double(largest) * Double(chartWidth)
            let name = DemoPage.escape(image.path.split(separator: "/").last.map(String.init) ?? image.path)
            svg += "<text x=\"\(labelWidth - 6)\" y=\"\(y + 12)\" text-anchor=\"end\" fill=\"#3a444b\">\(name)</text>"
            svg +=
                "<rect x=\"\(labelWidth)\" y=\"\(y + 2)\" width=\"\(Self.fixed(original, 1))\""
                + " height=\"\(rowHeight - 4)\" rx=\"2\" fill=\"#b8c0c8\">"
                + "<title>\(name): \(Self.kilobytes(image.originalBytes)) directly</title></rect>"
            svg +=
                "<rect x=\"\(labelWidth)\" y=\"\(y + 3)\" width=\"\(Self.fixed(max(delivered, 1), 1))\""
                + " height=\"\(rowHeight - 6)\" rx=\"2\" fill=\"#7fb3e0\">"
                + "<title>\(name): \(Self.kilobytes(image.deliveredBytes)) handed to the WebView</title></rect>"
            svg +=
                "<rect x=\"\(labelWidth)\" y=\"\(y + 5)\" width=\"\(Self.fixed(max(wire, 1), 1))\""
                + " height=\"\(rowHeight - 10)\" rx=\"2\" fill=\"#1f8a5b\">"
                + "<title>\(name): \(Self.kilobytes(image.wireBytes)) on the wire through the bridge</title></rect>"
            svg +=
                "<text x=\"\(labelWidth + Int(max(original, delivered)) + 6)\" y=\"\(y + 12)\" fill=\"#5f6b73\">"
                + "\(Self.kilobytes(image.wireBytes)) of \(Self.kilobytes(image.originalBytes))</text>\n"
        }
        let axisY = images.count * rowHeight + 14
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
