import Foundation
import ImageOrigin

/// The demo's origin: the image origin over the built site — its pages,
/// stylesheet and script served as they are, its images with variants,
/// styles and `Accept` negotiation — what a news site's web server and image
/// CDN answer, from one server, so a bridge in front of it has pages to pass
/// through.
package enum DemoSiteOrigin {
    /// The style the demo's origin defines, as the original app's bucket did.
    package static let styleName = "WebPiOSW750"
    /// Its body.
    static let styleBody = "imageView2/2/w/750/format/webp"

    /// An origin serving the site built in `root` (`/` is its `index.html`),
    /// with the `WebPiOSW750` style and, for a plain image URL, AVIF or WebP
    /// to clients whose `Accept` names them (`--auto-format`).
    /// - Throws: when the style sheet or the root folder is refused.
    static func make(root: URL) throws -> ImageOrigin {
        let styles = try StyleSheet(
            json: Data(#"{"separator": "-", "styles": {"\#(styleName)": "\#(styleBody)"}}"#.utf8))
        return try ImageOrigin(configuration: .init(root: root.path, styles: styles, autoFormat: true))
    }

    /// The tuned origin over the same site: what `webp-bridge origin
    /// --auto-format --quality auto --client-hints --save-data` answers —
    /// the smallest format each client accepts equally and the quality
    /// chosen per image; sizes from the client's hints; less for
    /// `Save-Data: on`.
    /// `target` is the `--quality auto` target (default ``ImageTransformer/QualityMode/defaultTarget``).
    static func tunedConfiguration(
        root: URL, target: Double = ImageTransformer.QualityMode.defaultTarget
    ) -> ImageOrigin.Configuration {
        var configuration = ImageOrigin.Configuration(root: root.path, autoFormat: true)
        configuration.transformer.qualityMode = .auto(target: target)
        configuration.clientHints = true
        configuration.saveData = true
        return configuration
    }
}
