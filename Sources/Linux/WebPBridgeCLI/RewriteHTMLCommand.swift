import Foundation
import WebPBridge

/// `webp-bridge rewrite-html`: a page with its image URLs rewritten to their
/// variants, streamed from a file or standard input to standard output.
struct RewriteHTMLCommand: BridgeCommand {
    static let configuration = CommandConfiguration(
        commandName: "rewrite-html",
        abstract: "Rewrite the image URLs of an HTML page to their CDN's WebP variants.",
        usage: [RewriteSource.requiredUsage + " [--base URL] [--scheme NAME] [FILE]"],
        discussion: """
            Writes the page to standard output with the URLs of <img src srcset>, <picture><source
            srcset>, <link rel=preload as=image href imagesrcset> and CSS url(...) in style attributes
            and <style> replaced by their variants, with the same rules and cache keys as rewrite,
            fetch and proxy. Every other byte is kept as written: scripts, comments, data: URLs,
            other hosts, <meta property=og:image> (other sites' crawlers may not decode WebP).

            The page names the WebP variant, which every client of a static page can be given; with
            --formats avif,webp a bridge in front (proxy, URL protocol) answers AVIF clients asking for
            it with the AVIF variant instead.

            Relative URLs resolve against --base, then the page's first <base href>; without
            either they are kept. The page is read and written in 64 KiB chunks; a tag longer than
            64 KiB passes through untouched.

            \(RewriteSource.presetList)
            """,
        arguments: [("FILE", "The page; standard input when absent or '-'.")],
        options: RewriteSource.options + [
            .option("--base", value: "URL", help: "Resolve relative URLs against this http(s) URL (the page's)."),
            .option(
                "--scheme", value: "NAME",
                help: "Write each image URL the rules rewrite as its original in NAME-https://…"
                    + " (a web view's scheme handler fetches the variant)."),
        ])

    /// The size of each read.
    static let chunkBytes = 64 << 10

    let source: RewriteSource
    let base: URL?
    let scheme: WebViewScheme?
    let file: String?

    init(parsed: ParsedArguments) throws(UsageError) {
        try parsed.requirePositionals(0...1, describing: "FILE")
        source = try RewriteSource(parsed: parsed)
        if let text = parsed.string("--base") {
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                ["http", "https"].contains(scheme),
                let host = url.host, !host.isEmpty
            else {
                throw UsageError("--base '\(text)' is not an http:// or https:// URL with a host")
            }
            base = url
        } else {
            base = nil
        }
        if let name = parsed.string("--scheme") {
            do {
                scheme = try WebViewScheme(name: name)
            } catch {
                throw UsageError("--scheme: \(error.description)")
            }
        } else {
            scheme = nil
        }
        file = parsed.positionals.first.flatMap { $0 == "-" ? nil : $0 }
    }

    func run(io: CommandIO) async throws {
        let rewriter = HTMLRewriter(
            configuration: .init(rewriter: try source.makeRewriter(), baseURL: base, scheme: scheme))
        var stream = rewriter.makeStream()
        let read: () throws -> [UInt8]?
        if let file {
            let handle = try Self.open(file)
            read = {
                do {
                    let data = try handle.read(upToCount: Self.chunkBytes) ?? Data()
                    return data.isEmpty ? nil : [UInt8](data)
                } catch {
                    throw CommandFailure("\(file): cannot read (\((error as NSError).localizedDescription))")
                }
            }
        } else {
            guard !io.inputIsTerminal else {
                throw UsageError("missing FILE (give a file, or pipe the page on standard input)")
            }
            read = { io.readBytes(Self.chunkBytes) }
        }
        var output: [UInt8] = []
        while let chunk = try read() {
            stream.rewrite(chunk, appendingTo: &output)
            if !output.isEmpty {
                io.writeBytes(output)
                output.removeAll(keepingCapacity: true)
            }
        }
        let tail = stream.finish()
        if !tail.isEmpty { io.writeBytes(tail) }
    }

    private static func open(_ path: String) throws -> FileHandle {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CommandFailure("\(path): no such file")
        }
        guard !isDirectory.boolValue else { throw CommandFailure("\(path): is a directory") }
        do {
            return try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        } catch {
            throw CommandFailure("\(path): cannot read (\((error as NSError).localizedDescription))")
        }
    }
}
