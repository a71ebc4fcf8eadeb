import BridgeProxy
import Foundation
import WebPBridge
import WebPURLProtocol

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `webp-bridge fetch`: one URL through a URLSession with the bridge's
/// URL protocol installed — exactly as a WebView's request would go.
struct FetchCommand: BridgeCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Load one image URL through the in-process bridge and report what happened.",
        usage: [
            "URL " + RewriteSource.requiredUsage
                + " [--user-agent UA] [--accept A] [--no-transform] [--if-none-match TAG] [--cache-dir DIR]"
                + " [-o FILE] [--json]"
        ],
        discussion: """
            The request goes through a URLSession with the bridge's URLProtocol installed: a URL a rule
            rewrites, from a client the policy says cannot decode WebP (the legacy default: a User-Agent
            containing AppleWebKit), is fetched as the WebP variant and delivered as JPEG, PNG or APNG;
            a client that accepts image/webp gets the WebP. Reports the URL fetched upstream, the content
            type delivered, the bytes on the wire, the cache outcome (memory, disk, network, revalidated),
            whether the original was used instead of a failed variant, how the image path answered
            (webp, transcoded, untouched, fallback, not-modified, original: the variant would not
            decode, was too large or may not be transformed; passed-through: not claimed) and the
            ETag. --no-transform sends Cache-Control: no-transform (the bridge keeps the original);
            --if-none-match TAG sends a conditional request (304 when TAG is the delivered ETag).
            With --json, one object with the keys requestedURL, fetchedURL, status, delivery,
            contentType, wireBytes, cache, fallback, etag, bytes.
            Run it twice with the same --cache-dir to see the disk cache answer. Redirects are followed
            only to URL's own host and port and to the hosts the rules name (ports 80/443), at most 5;
            any other ends the fetch (exit 1) with the redirect's target, which is not fetched.

            \(RewriteSource.presetList)
            """,
        arguments: [("URL", "The image URL, as the page or app has it.")],
        options: RewriteSource.options + [
            .option("--user-agent", value: "UA", help: "The client's User-Agent (default: an iOS WebView's)."),
            .option("--accept", value: "A", help: "The client's Accept header (default: no WebP)."),
            .flag("--no-transform", help: "Send Cache-Control: no-transform: the original, untouched."),
            .option("--if-none-match", value: "TAG", help: "Send If-None-Match: TAG (an ETag from an earlier fetch)."),
            .option("--cache-dir", value: "DIR", help: "Disk cache folder, kept between runs (default: none)."),
            .option("--output", "-o", value: "FILE", help: "Write the delivered body to FILE."),
            .flag("--json", help: "Print one JSON object instead of text."),
        ])

    /// What an iOS WebView sends: AppleWebKit, and no WebP in Accept.
    static let webViewUserAgent =
        "Mozilla/5.0 (iPhone; CPU iPhone OS 13_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148"
    static let webViewAccept = "image/png,image/svg+xml,image/*;q=0.8,video/*;q=0.8,*/*;q=0.5"

    let url: URL
    let source: RewriteSource
    let userAgent: String
    let accept: String
    let cacheDirectory: String?
    let output: String?
    let json: Bool
    let noTransform: Bool
    let ifNoneMatch: String?

    init(parsed: ParsedArguments) throws(UsageError) {
        try parsed.requirePositionals(1...1, describing: "URL")
        guard let url = URL(string: parsed.positionals[0]), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", url.host != nil
        else { throw UsageError("'\(parsed.positionals[0])' is not an http or https URL") }
        self.url = url
        source = try RewriteSource(parsed: parsed)
        userAgent = parsed.string("--user-agent") ?? Self.webViewUserAgent
        accept = parsed.string("--accept") ?? Self.webViewAccept
        cacheDirectory = parsed.string("--cache-dir")
        output = parsed.string("--output")
        json = parsed.flag("--json")
        noTransform = parsed.flag("--no-transform")
        ifNoneMatch = parsed.string("--if-none-match")
        if let ifNoneMatch, !ifNoneMatch.allSatisfy({ $0.isASCII && $0 != "\r" && $0 != "\n" }) {
            throw UsageError("--if-none-match '\(ifNoneMatch)' is not a field value (ASCII, one line)")
        }
    }

    func run(io: CommandIO) async throws {
        let rewriter = try source.makeRewriter()
        var dataCache: (any DataCaching)?
        if let cacheDirectory {
            do {
                dataCache = try DiskCache(folder: URL(fileURLWithPath: cacheDirectory, isDirectory: true))
            } catch {
                throw CommandFailure("--cache-dir \(cacheDirectory): \(error)")
            }
        }
        let policy = redirectPolicy(rewriter: rewriter)
        let pipeline = ImagePipeline(
            configuration: .init(
                rewriter: rewriter, dataLoader: DataLoaders.platformDefault, dataCache: dataCache,
                redirectPolicy: policy))
        let registration = WebPBridgeURLProtocol.register(
            .init(pipeline: pipeline, policy: try source.makeClientPolicy()))
        defer { WebPBridgeURLProtocol.unregister(registration) }

        // What the URL protocol does not claim, URLSession fetches itself: within the same policy.
        let session = URLSession(
            configuration: WebPBridgeURLProtocol.sessionConfiguration(base: .ephemeral),
            delegate: RedirectGuard(policy: policy), delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: url, timeoutInterval: 60)
        request.setValue(userAgent, forHTTPHeaderField: "User-Agent")
        request.setValue(accept, forHTTPHeaderField: "Accept")
        if noTransform { request.setValue("no-transform", forHTTPHeaderField: "Cache-Control") }
        if let ifNoneMatch { request.setValue(ifNoneMatch, forHTTPHeaderField: "If-None-Match") }
        let (body, response): (Data, URLResponse)
        do {
            (body, response) = try await session.data(for: request)
        } catch {
            throw CommandFailure("\(url.absoluteString): \((error as NSError).localizedDescription)")
        }
        guard let http = response as? HTTPURLResponse else {
            throw CommandFailure("\(url.absoluteString): no HTTP response")
        }
        if (300...399).contains(http.statusCode), let location = http.value(forHTTPHeaderField: "Location") {
            throw CommandFailure(
                "\(url.absoluteString): redirected (HTTP \(http.statusCode)) to \(location), which is outside "
                    + "the URL's host and the rules' hosts: not followed")
        }
        guard http.statusCode == 200 || (http.statusCode == 304 && ifNoneMatch != nil) else {
            throw CommandFailure("\(url.absoluteString): no image could be delivered (HTTP \(http.statusCode))")
        }
        let report = Report(requested: url, response: http, body: body)
        if let output { try InputFile.write(body, to: output) }
        io.print(json ? report.json : report.text)
    }

    /// Hops the bridge follows: to the requested URL's own host and port,
    /// and to the hosts the rules name on their scheme's default port — the
    /// proxy's forward-mode rules, decided by the same router.
    func redirectPolicy(rewriter: Rewriter) -> RedirectPolicy {
        let host = url.host.map { $0.contains(":") && !$0.hasPrefix("[") ? "[\($0)]" : $0 } ?? ""
        let port = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
        return BridgeProxy.Configuration.Mode.forward(allowedHosts: ["\(host):\(port)"])
            .redirectPolicy(rewriter: rewriter)
    }

    /// What the bridge did, from its diagnostic headers (absent when it
    /// passed the request through untouched).
    struct Report {
        var requestedURL: String
        var fetchedURL: String
        var status: Int
        var delivery: String
        var etag: String?
        var contentType: String
        var wireBytes: Int
        var cache: String
        var fallback: Bool
        var bytes: Int

        init(requested: URL, response: HTTPURLResponse, body: Data) {
            typealias Header = WebPBridgeURLProtocol.DiagnosticHeader
            let header = { (name: String) in response.value(forHTTPHeaderField: name) }
            requestedURL = requested.absoluteString
            fetchedURL = header(Header.fetchedURL) ?? requested.absoluteString
            status = response.statusCode
            delivery = header(Header.delivery) ?? "passed-through"
            etag = header("ETag")
            contentType =
                header("Content-Type") ?? (ImageFormat.sniffIfImage(body)?.mimeType ?? "application/octet-stream")
            wireBytes = header(Header.wireBytes).flatMap(Int.init) ?? body.count
            cache = header(Header.source) ?? "network"
            fallback = header(Header.fallback) == "1"
            bytes = body.count
        }

        var json: String {
            func quoted(_ text: String) -> String {
                let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
                    of: "\"", with: "\\\"")
                return "\"\(escaped)\""
            }
            return "{\"requestedURL\":\(quoted(requestedURL)),\"fetchedURL\":\(quoted(fetchedURL)),"
                + "\"status\":\(status),\"delivery\":\(quoted(delivery)),"
                + "\"contentType\":\(quoted(contentType)),\"wireBytes\":\(wireBytes),\"cache\":\(quoted(cache)),"
                + "\"fallback\":\(fallback),\"etag\":\(etag.map(quoted) ?? "null"),\"bytes\":\(bytes)}"
        }

        var text: String {
            [
                "requested:  \(requestedURL)",
                "fetched:    \(fetchedURL)\(fallback ? " (fallback: the variant failed)" : "")",
                "status:     \(status) (\(delivery))",
                "delivered:  \(status == 304 ? "nothing (not modified)" : "\(contentType), \(bytes.formattedBytes)")",
                "wire:       \(wireBytes.formattedBytes) (\(cache))",
                "etag:       \(etag ?? "-")",
            ].joined(separator: "\n")
        }
    }
}
