/// The clients the tests speak as: each one's `User-Agent` and the `Accept`
/// it sends for an image and for a page, written once here. The strings are
/// those the clients send (WebKit names no `image/webp` in either `Accept`;
/// Chrome names AVIF and WebP), so the policy's rules — `Accept` for the
/// standard policy, `AppleWebKit` and `iPad` in the `User-Agent` for the
/// legacy one — see what they would see in the field.
public struct ClientProfile: Sendable, Hashable, CustomStringConvertible {
    /// A short name for test output.
    public var name: String
    /// The `User-Agent` field value.
    public var userAgent: String
    /// The `Accept` sent for an `<img>`.
    public var imageAccept: String
    /// The `Accept` sent for a page.
    public var pageAccept: String

    /// A profile; the accepts default to a client that names nothing (`*/*`).
    public init(name: String, userAgent: String, imageAccept: String = "*/*", pageAccept: String = "*/*") {
        self.name = name
        self.userAgent = userAgent
        self.imageAccept = imageAccept
        self.pageAccept = pageAccept
    }

    public var description: String { name }

    /// WebKit's image `Accept` (Safari before 14, WKWebView on iOS 13): no `image/webp`.
    public static let webKitImageAccept = "image/png,image/svg+xml,image/*;q=0.8,video/*;q=0.8,*/*;q=0.5"
    /// WebKit's page `Accept` (Safari, WKWebView, WebKitGTK): no `image/webp`.
    public static let webKitPageAccept = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"

    /// The iOS app's `WKWebView` on an iPhone (iOS 13.7): the client the
    /// bridge exists for.
    public static let iOSWebView = ClientProfile(
        name: "iOS WebView",
        userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 13_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko)"
            + " Mobile/15E148",
        imageAccept: webKitImageAccept, pageAccept: webKitPageAccept)

    /// The same web view on an iPad (a device class the legacy policy excludes).
    public static let iPadWebView = ClientProfile(
        name: "iPad WebView",
        userAgent:
            "Mozilla/5.0 (iPad; CPU OS 13_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
        imageAccept: webKitImageAccept, pageAccept: webKitPageAccept)

    /// Safari 14 on macOS.
    public static let macSafari = ClientProfile(
        name: "macOS Safari",
        userAgent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)"
            + " Version/14.1 Safari/605.1.15",
        imageAccept: webKitImageAccept, pageAccept: webKitPageAccept)

    /// WebKitGTK (GNOME Web) on Linux: a WebKit browser the tests can run.
    public static let linuxWebKit = ClientProfile(
        name: "WebKitGTK",
        userAgent: "Mozilla/5.0 (X11; Ubuntu; Linux x86_64) AppleWebKit/605.1.15 (KHTML, like Gecko)"
            + " Version/18.0 Safari/605.1.15",
        imageAccept: webKitImageAccept, pageAccept: webKitPageAccept)

    /// Chrome on Linux: AVIF and WebP named in both `Accept`s, and
    /// `AppleWebKit` in its `User-Agent` too.
    public static let chrome = ClientProfile(
        name: "Chrome",
        userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131 Safari/537.36",
        imageAccept: "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8",
        pageAccept: "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8")

    /// Chrome 80: WebP named, AVIF not yet.
    public static let chrome80 = ClientProfile(
        name: "Chrome 80",
        userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/80.0 Safari/537.36",
        imageAccept: "image/webp,image/apng,image/*,*/*;q=0.8",
        pageAccept: "text/html,application/xhtml+xml,application/xml;q=0.9,image/webp,image/apng,*/*;q=0.8")

    /// The news app's own networking (CFNetwork, no web view).
    public static let nativeApp = ClientProfile(name: "native app", userAgent: "NewsApp/3.1 CFNetwork")

    /// curl.
    public static let curl = ClientProfile(name: "curl", userAgent: "curl/8.0")

    /// Every profile above.
    public static let all: [ClientProfile] = [
        iOSWebView, iPadWebView, macSafari, linuxWebKit, chrome, chrome80, nativeApp, curl,
    ]
}
