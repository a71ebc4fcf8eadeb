import Foundation
import WebPBridge

/// Where a command's rewrite rules come from — `--config FILE`, or
/// `--preset NAME --host HOST` — with `--width`/`--quality` overrides:
/// parsed and validated once for `rewrite`, `fetch` and `proxy`.
struct RewriteSource: Sendable {
    enum Origin: Sendable {
        case file(String)
        case preset(RewriteConfiguration, ClientPolicy)
    }

    let origin: Origin
    /// `--width`, `--quality`, `--formats` (each fixed, or `auto` to leave it to the CDN).
    let overrides: RewriteOverrides
    /// `--gif`: the preset's rule converts GIFs too.
    let convertsGIF: Bool

    /// The options every rule-taking command declares, declared here only;
    /// each such command lists the presets in its discussion (``presetList``).
    static let options: [OptionSpec] = [
        .option("--config", value: "FILE", help: "JSON rewrite rules (see docs/rewrite.md)."),
        .option("--preset", value: "NAME", help: "One rule for --host in a CDN's dialect (see below)."),
        .option("--host", value: "HOST", help: "The host the preset applies to (img.example.com, *.example.com)."),
        .option(
            "--width", value: "W",
            help: "Width to ask for in pixels (1-16383), or auto[:W] from client hints (CDNs that document it);"
                + " overrides the rules'."),
        .option(
            "--quality", value: "Q",
            help: "WebP quality (1-100), or auto[:best|good|eco|low] chosen by the CDN (where documented);"
                + " overrides the rules'."),
        .option(
            "--formats", value: "LIST",
            help: "Variants to offer, preferred first: webp (default), avif,webp, or auto (the CDN chooses by"
                + " Accept); overrides the rules'."),
        .flag("--gif", help: "The preset's rule converts GIFs to animated WebP too (CDNs that document it)."),
    ]

    /// The usage of ``options`` where rules are required (`rewrite`, `fetch`).
    static let requiredUsage =
        "(--config FILE | --preset NAME --host HOST) [--width W] [--quality Q] [--formats LIST] [--gif]"

    /// `Presets: qiniu, qiniu-legacy, …`, for a command's discussion.
    static var presetList: String { "Presets: " + RewritePreset.all.map(\.name).joined(separator: ", ") + "." }

    /// The rules from `--config`/`--preset`, or `nil` when neither they nor
    /// `--host` are given (commands for which rules are optional).
    static func ifGiven(_ parsed: ParsedArguments) throws(UsageError) -> RewriteSource? {
        if parsed.string("--config") == nil, parsed.string("--preset") == nil, parsed.string("--host") == nil {
            return nil
        }
        return try RewriteSource(parsed: parsed)
    }

    init(parsed: ParsedArguments) throws(UsageError) {
        overrides = try Self.overrides(parsed)
        convertsGIF = parsed.flag("--gif")
        let width = overrides.width
        let config = parsed.string("--config")
        let preset = parsed.string("--preset")
        let host = parsed.string("--host")
        switch (config, preset, host) {
        case (nil, nil, nil):
            throw UsageError("give --config FILE, or --preset NAME with --host HOST")
        case (_?, _?, _):
            throw UsageError("--config and --preset cannot be combined")
        case (_?, nil, _?):
            throw UsageError("--host goes with --preset; a configuration file lists its own hosts")
        case (nil, _?, nil):
            throw UsageError("--preset needs --host HOST")
        case (nil, nil, _?):
            throw UsageError("--host needs --preset NAME")
        case (let file?, nil, nil):
            guard !convertsGIF else { throw UsageError("--gif goes with --preset; a configuration file says \"gif\"") }
            origin = .file(file)
        case (nil, let name?, let host?):
            do {
                let configuration = try RewritePreset.configuration(
                    named: name, host: host, overrides, convertsGIF: convertsGIF)
                // The preset exists: configuration(named:) threw otherwise.
                let policy = RewritePreset.named(name).map(ClientPolicy.init(preset:)) ?? .standard
                origin = .preset(configuration, policy)
            } catch  where error.field == "width" && width == nil && overrides.widthFromClient != true {
                throw UsageError("preset '\(name)' needs --width W (the screen width in pixels, e.g. 750)")
            } catch  where error.field == "hosts" {
                throw UsageError("--host '\(host)' is not a host name or *.domain pattern")
            } catch {
                throw UsageError(error.description)
            }
        }
    }

    /// `--width`, `--quality` and `--formats`, each a value or `auto…`.
    static func overrides(_ parsed: ParsedArguments) throws(UsageError) -> RewriteOverrides {
        var overrides = RewriteOverrides()
        if let width = parsed.string("--width"), width == "auto" || width.hasPrefix("auto:") {
            overrides.widthFromClient = true
            if width != "auto" {
                guard let fallback = Int(width.dropFirst("auto:".count)), (1...16_383).contains(fallback) else {
                    throw UsageError("--width: '\(width)' is not auto:W with W from 1 to 16383")
                }
                overrides.width = fallback
            }
        } else {
            overrides.width = try parsed.int("--width", in: 1...16_383)
        }
        if let quality = parsed.string("--quality"), quality.hasPrefix("auto") {
            guard let automatic = AutomaticQuality(rawValue: quality) else {
                let known = AutomaticQuality.allCases.map(\.rawValue).joined(separator: ", ")
                throw UsageError("--quality: '\(quality)' is not a number or one of \(known)")
            }
            overrides.automaticQuality = automatic
        } else {
            overrides.quality = try parsed.int("--quality", in: 1...100)
        }
        if parsed.string("--formats")?.trimmingCharacters(in: .whitespaces).lowercased() == "auto" {
            overrides.automaticFormat = true
        } else {
            overrides.formats = try parsed.string("--formats").map(Self.formats(from:))
        }
        return overrides
    }

    /// `avif,webp` → `[.avif, .webp]`: known names, each once, at least one.
    static func formats(from list: String) throws(UsageError) -> [VariantFormat] {
        var formats: [VariantFormat] = []
        for name in list.split(separator: ",", omittingEmptySubsequences: false) {
            let trimmed = name.trimmingCharacters(in: .whitespaces).lowercased()
            guard let format = VariantFormat(rawValue: trimmed) else {
                let known = VariantFormat.allCases.map(\.rawValue).joined(separator: ", ")
                throw UsageError("--formats: '\(trimmed)' is not a variant format (\(known))")
            }
            guard !formats.contains(format) else { throw UsageError("--formats: '\(trimmed)' is listed twice") }
            formats.append(format)
        }
        return formats
    }

    /// The compiled rules; a bad or unreadable file is a ``CommandFailure`` (exit 1).
    func makeRewriter() throws -> Rewriter {
        switch origin {
        case .file(let path):
            do {
                let configuration = try RewriteConfiguration(contentsOf: URL(fileURLWithPath: path))
                return try Rewriter(configuration: configuration.overriding(overrides))
            } catch {
                // Name the file, unless the message already does.
                let message = error.description
                throw CommandFailure(message.contains(path) ? message : "\(path): \(message)")
            }
        case .preset(let configuration, _):
            do {
                return try Rewriter(configuration: configuration)
            } catch {
                throw CommandFailure(error.description)
            }
        }
    }

    /// The client policy: the file's `client` section (``ClientPolicy/standard``
    /// without one), or the one the preset implies.
    func makeClientPolicy() throws -> ClientPolicy {
        switch origin {
        case .file(let path):
            do {
                let data = try Data(contentsOf: URL(fileURLWithPath: path))
                return try ClientPolicy(configurationJSON: data)
            } catch let error as RewriteConfigurationError {
                throw CommandFailure("\(path): \(error.description)")
            } catch {
                throw CommandFailure("\(path): \((error as NSError).localizedDescription)")
            }
        case .preset(_, let policy):
            return policy
        }
    }
}
