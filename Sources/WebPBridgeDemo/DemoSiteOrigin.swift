import Foundation
package import HTTPServer
import ImageOrigin

/// The demo's origin: the image origin for everything under `/images/`
/// (variants, styles, `Accept` negotiation) and the site's own HTML, CSS and
/// JavaScript for the rest — what a news site's web server and image CDN
/// answer together, so a bridge in front of it has pages to pass through.
package struct DemoSiteOrigin: HTTPHandler {
    /// The style the demo's origin defines, as the original app's bucket did.
    package static let styleName = "WebPiOSW750"
    /// Its body.
    static let styleBody = "imageView2/2/w/750/format/webp"

    let root: URL
    let images: ImageOrigin

    /// An origin serving the site built in `root`, with the `WebPiOSW750`
    /// style and WebP for clients whose `Accept` lists it (`--auto-webp`).
    init(root: URL) throws {
        self.root = root
        let styles = try StyleSheet(
            json: Data(#"{"separator": "-", "styles": {"\#(Self.styleName)": "\#(Self.styleBody)"}}"#.utf8))
        images = try ImageOrigin(configuration: .init(root: root.path, styles: styles, autoWebP: true))
    }

    /// The text files the site has, by path, with their media types.
    private static let pages: [String: (file: String, type: String)] = [
        "/": ("index.html", "text/html; charset=utf-8"),
        "/index.html": ("index.html", "text/html; charset=utf-8"),
        "/static/site.css": ("static/site.css", "text/css; charset=utf-8"),
        "/static/site.js": ("static/site.js", "text/javascript; charset=utf-8"),
    ]

    package func handle(_ request: HTTPRequest) async -> HTTPResponse {
        if let page = Self.pages[request.path] {
            guard request.method == .get || request.method == .head else {
                return .text(.methodNotAllowed, "only GET and HEAD are served", headers: ["Allow": "GET, HEAD"])
            }
            return .file(
                path: root.appendingPathComponent(page.file).path, contentType: page.type,
                headers: ["Cache-Control": "no-cache"])
        }
        return await images.handle(request)
    }
}
