public import Foundation

/// Which redirect hops the pipeline follows, asked before each one.
///
/// Loaders never follow redirects themselves (``DataLoading``): the pipeline
/// follows them, one hop at a time, up to ``maxHops``, and fetches a hop only
/// when ``allows(_:)`` says so. A hop it refuses is not fetched at all; the
/// fetch fails with an ``ImagePipelineError`` whose
/// ``ImagePipelineError/refusedRedirect`` says where it pointed. So the one
/// decision about where the pipeline may go lives here, injected through
/// ``ImagePipeline/Configuration/redirectPolicy`` — the bridge proxy builds
/// its policy from the same rules that route its requests.
///
/// A `Sendable` value: its rule is a pure `@Sendable` function of the hop's
/// absolute URL.
public struct RedirectPolicy: Sendable, CustomStringConvertible {
    /// The most hops followed for one fetch; one more fails the fetch.
    /// Default 5.
    public var maxHops: Int
    /// Names the rule, for messages and for a component that needs a
    /// pipeline following its own rules to check that it does (the bridge
    /// proxy compares it). Two policies with the same name must allow the
    /// same hops.
    public let name: String
    private let rule: @Sendable (URL) -> Bool

    /// Creates a policy.
    /// - Parameters:
    ///   - name: What the rule allows, in a few words (`"any http or https URL"`).
    ///   - maxHops: The most hops followed for one fetch (0: none).
    ///   - allows: Whether a hop to this absolute URL may be fetched. Only
    ///     `http` and `https` URLs are ever offered.
    public init(name: String, maxHops: Int = 5, allows: @escaping @Sendable (URL) -> Bool) {
        self.name = name
        self.maxHops = max(0, maxHops)
        self.rule = allows
    }

    /// Any `http` or `https` URL, up to five hops: what URLSession does for
    /// an app. The default of ``ImagePipeline/Configuration``.
    public static let anyHTTP = RedirectPolicy(name: "any http or https URL") { _ in true }

    /// No hop at all: a redirect fails the fetch.
    public static let never = RedirectPolicy(name: "no redirects", maxHops: 0) { _ in false }

    /// Whether the pipeline may fetch `url`, a hop's resolved `Location`:
    /// an `http` or `https` URL the rule allows.
    public func allows(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
            return false
        }
        return rule(url)
    }

    /// ``name``, with the hop bound.
    public var description: String { "\(name), at most \(maxHops) hops" }
}
