import Foundation
import HTTPServer
import WebPBridge

extension ImageOrigin {
    /// What the client hints do to one request's image, decided in one
    /// place (``ImageOrigin/clientHintSizing(for:sourceFormat:)``) from the
    /// request's fields (read by ``ClientHints``) and the origin's flags.
    struct HintedRequest {
        /// The hints as read.
        var hints: ClientHints
        /// The bucket and Save-Data they select.
        var sizing: ClientHints.Sizing
        /// The request fields the answer depends on, for `Vary`.
        var varyFields: [String]
    }

    /// The hints of `request` when the origin honours any and the source
    /// can be resized by them (a JPEG or PNG: animations and the other
    /// formats are left as they are); `nil` otherwise, and the answer is
    /// what it was without hints.
    func clientHintSizing(for request: HTTPRequest, sourceFormat: ImageFormat) -> HintedRequest? {
        guard configuration.clientHints || configuration.saveData, sourceFormat == .jpeg || sourceFormat == .png
        else { return nil }
        let hints = ClientHints(fields: request.headers)
        var varyFields: [String] = []
        if configuration.clientHints { varyFields += ClientHints.sizingFieldNames }
        if configuration.saveData { varyFields.append(ClientHints.saveDataFieldName) }
        return HintedRequest(
            hints: hints,
            sizing: hints.sizing(honouringWidth: configuration.clientHints, saveData: configuration.saveData),
            varyFields: varyFields)
    }

    /// The part of a ready answer's key the hints decide: the sizing and
    /// the CSS width `Content-DPR` is computed from (``cssWidth(of:)``);
    /// empty when no hint is honoured. Keyed by the target width and DPR
    /// instead, a request with `Viewport-Width` alone was answered the
    /// `Content-DPR` computed for one with `Width` and the same target
    /// (an adversarial review).
    func readyKeySuffix(for request: HTTPRequest) -> String {
        guard configuration.clientHints || configuration.saveData else { return "" }
        let hints = ClientHints(fields: request.headers)
        let sizing = hints.sizing(honouringWidth: configuration.clientHints, saveData: configuration.saveData)
        guard !sizing.isNone else { return "" }
        return "\u{0}\(sizing.key)|\(Self.cssWidth(of: hints).map { "\($0)" } ?? "-")"
    }

    /// The slot's CSS width the hints give: `Width` / the client's DPR (1
    /// unsent), or the viewport's width; `nil` without either.
    static func cssWidth(of hints: ClientHints) -> Double? {
        if let width = hints.width { return Double(width) / (hints.dpr ?? 1) }
        return hints.viewportWidth.map(Double.init)
    }

    /// `pipeline` made at most `maxWidth` device pixels wide, never
    /// enlarging (Qiniu's `imageView2/2/w/N` shrinks only): a URL's own
    /// width stays the most it gets, and a hint may only lower it. An empty
    /// pipeline (a plain URL) becomes that one step; a last step that is
    /// already `imageView2/2` gets the smaller width (still one step, so a
    /// JPEG's planar path stays open); any other pipeline gets the step
    /// appended.
    static func pipeline(_ pipeline: ProcessingPipeline, atMostWidth maxWidth: Int) -> ProcessingPipeline {
        var hinted = pipeline
        if case .imageView2(var view) = pipeline.steps.last, view.mode == 2 {
            view.width = min(view.width ?? maxWidth, maxWidth)
            hinted.steps[hinted.steps.count - 1] = .imageView2(view)
        } else {
            hinted.steps.append(.imageView2(ImageView2(mode: 2, width: maxWidth)))
        }
        return hinted
    }

    /// `Content-DPR` (draft-ietf-httpbis-client-hints-06 §3.1; removed in
    /// -07 and deprecated, MDN: https://developer.mozilla.org/docs/Web/HTTP/Headers/Content-DPR,
    /// but still the field a client reads to size an image a hint changed):
    /// "selected image width / (Width / DPR)": the slot's CSS width is
    /// `Width` / the client's DPR (1 unsent), or the viewport's width.
    /// Sent only where the hint changed the image's size (`servedWidth`
    /// differs from the width without hints); `nil` otherwise. Three
    /// decimals at most, as an `sf-decimal`.
    static func contentDPR(servedWidth: Int, unhintedWidth: Int, hints: ClientHints) -> String? {
        guard servedWidth != unhintedWidth, let cssWidth = cssWidth(of: hints) else { return nil }
        let ratio = (Double(servedWidth) / cssWidth * 1000).rounded() / 1000
        guard ratio > 0, ratio.isFinite else { return nil }
        var text = String(format: "%.3f", ratio)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text += "0" }
        return text
    }
}
