/// A quality the CDN chooses per image instead of one fixed number: what a
/// rule's `"quality": "auto"` (or `"auto:eco"`…) asks for. Only dialects
/// whose CDN documents it accept it (see ``RewriteRule/automaticQuality``).
public enum AutomaticQuality: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The CDN's own balance: Cloudinary `q_auto`, imgix `auto=compress`.
    case standard = "auto"
    /// Cloudinary `q_auto:best`.
    case best = "auto:best"
    /// Cloudinary `q_auto:good` (what `q_auto` means by default).
    case good = "auto:good"
    /// Cloudinary `q_auto:eco`.
    case eco = "auto:eco"
    /// Cloudinary `q_auto:low`.
    case low = "auto:low"

    /// `auto`, `auto:eco`…: the JSON and command-line spelling.
    public var description: String { rawValue }
}

/// How a rule asks for the variant's width, quality and format when some of
/// them are left to the CDN: what ``CompiledRule`` hands the dialects that
/// document such requests. Every other dialect refuses them at load.
struct AutomaticRequests: Sendable, Equatable {
    /// `quality: auto…`.
    var quality: AutomaticQuality?
    /// `formats: auto`: the CDN chooses the format by the `Accept` it is sent.
    var format = false
    /// `width: auto`: the CDN takes the width (and pixel ratio) from the
    /// client's hints; the rule's `width`, when set, is the fallback.
    var widthFromClient = false

    var isEmpty: Bool { quality == nil && !format && !widthFromClient }
}
