import Foundation
import HTTPServer
import ImageOrigin
import TestSupport
import WebPBridge

/// A folder of generated images for origin tests, and helpers to call the
/// handler without sockets.
final class OriginFixture: Sendable {
    let parent: TemporaryDirectory
    let root: URL

    init() throws {
        parent = try TemporaryDirectory(prefix: "origin")
        root = parent.file("root")
        let fileManager = FileManager.default
        try fileManager.createDirectory(at: root.appendingPathComponent("sub dir"), withIntermediateDirectories: true)
        try JPEGEncoder(options: .init(quality: 90)).encode(SyntheticImages.photo(width: 800, height: 600))
            .write(to: root.appendingPathComponent("photo.jpg"))
        try JPEGEncoder().encode(SyntheticImages.photo(width: 300, height: 600, seed: 5))
            .write(to: root.appendingPathComponent("sub dir/tall.jpg"))
        try PNGEncoder().encode(SyntheticImages.photo(width: 200, height: 100, alpha: true))
            .write(to: root.appendingPathComponent("logo.png"))
        try JPEGEncoder(options: .init(quality: 3)).encode(Self.noise(width: 320, height: 240))
            .write(to: root.appendingPathComponent("blocky.jpg"))
        try WebPEncoder().encode(SyntheticImages.animation(width: 120, height: 80, frameCount: 4))
            .write(to: root.appendingPathComponent("anim.webp"))
        let photo = try Data(contentsOf: root.appendingPathComponent("photo.jpg"))
        try photo.prefix(photo.count / 3).write(to: root.appendingPathComponent("broken.jpg"))
        try Data("just text".utf8).write(to: root.appendingPathComponent("notes.txt"))
        try Data("secret".utf8).write(to: parent.file("secret.txt"))
        try fileManager.createSymbolicLink(
            atPath: root.appendingPathComponent("escape.jpg").path, withDestinationPath: parent.file("secret.txt").path)
        try fileManager.createSymbolicLink(
            atPath: root.appendingPathComponent("inside.jpg").path,
            withDestinationPath: root.appendingPathComponent("photo.jpg").path)
    }

    /// Deterministic noise: at JPEG quality 3 it becomes hard-edged blocks,
    /// which a WebP at quality 75 spends more bytes on than the JPEG did.
    static func noise(width: Int, height: Int) -> Image {
        var state: UInt32 = 12_345
        let pixels = (0..<(width * height * 4)).map { index -> UInt8 in
            if index % 4 == 3 { return 255 }
            state = state &* 1_103_515_245 &+ 12_345
            return UInt8(truncatingIfNeeded: state >> 16)
        }
        return Image(width: width, height: height, pixels: pixels, hasAlpha: false)
    }

    func origin(_ configure: (inout ImageOrigin.Configuration) -> Void = { _ in }) throws -> ImageOrigin {
        var configuration = ImageOrigin.Configuration(root: root.path)
        configure(&configuration)
        return try ImageOrigin(configuration: configuration)
    }

    func data(_ name: String) throws -> Data { try Data(contentsOf: root.appendingPathComponent(name)) }
}

extension ImageOrigin {
    /// Sends a request straight to the handler.
    func get(_ target: String, method: HTTPMethod = .get, headers: HTTPFieldList = [:]) async -> HTTPResponse {
        await handle(HTTPRequest(method: method, target: target, headers: headers))
    }
}
