import Foundation
import WebPBridge

/// `webp-bridge info FILE [--json]`: what an image file is, from its headers.
struct InfoCommand: BridgeCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show an image's format, size, alpha, frames and loop count.",
        usage: ["FILE... [--json]"],
        discussion: """
            The format is read from the bytes, never from the file name. With --json, each file is one
            JSON object on its own line with exactly the keys format, width, height, alpha, frames,
            loopCount and bytes.
            """,
        arguments: [("FILE", "An image file (WebP, JPEG, PNG, APNG or GIF).")],
        options: [.flag("--json", help: "Print one JSON object per file.")])

    var files: [String]
    var json: Bool

    init(parsed: ParsedArguments) throws(UsageError) {
        guard !parsed.positionals.isEmpty else { throw UsageError("missing FILE") }
        files = parsed.positionals
        json = parsed.flag("--json")
    }

    func run(io: CommandIO) async throws {
        if files.count == 1 {
            io.print(try Self.describe(files[0], json: json))
            return
        }
        var failures = 0
        for file in files {
            do {
                io.print(try Self.describe(file, json: json))
            } catch {
                failures += 1
                io.printError("error: \(error)")
            }
        }
        if failures > 0 {
            throw CommandFailure("\(failures) of \(files.count) files could not be read")
        }
    }

    static func describe(_ file: String, json: Bool) throws -> String {
        let data = try InputFile.read(file)
        let info: ImageInfo
        do {
            info = try ImageInfo(data)
        } catch {
            throw CommandFailure("\(file): \(error)")
        }
        return json ? Self.json(info) : Self.text(info, file: file)
    }

    static func json(_ info: ImageInfo) -> String {
        "{\"format\":\"\(info.format.rawValue)\",\"width\":\(info.width),\"height\":\(info.height),"
            + "\"alpha\":\(info.alpha),\"frames\":\(info.frames),\"loopCount\":\(info.loopCount),"
            + "\"bytes\":\(info.bytes)}"
    }

    static func text(_ info: ImageInfo, file: String) -> String {
        var parts = ["\(info.format) \(info.width)x\(info.height)", info.alpha ? "alpha" : "no alpha"]
        if info.frames > 1 {
            parts.append("\(info.frames) frames")
            parts.append(info.loopCount == 0 ? "loops forever" : "loop count \(info.loopCount)")
        }
        parts.append("\(info.bytes.formattedBytes)")
        return "\(file): " + parts.joined(separator: ", ")
    }
}
