import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

@Suite(.timeLimit(.suiteBound), .offTheGlobalExecutor)
struct InfoCommandTests {
    @Test func jsonHasExactlyTheDocumentedKeys() async throws {
        let folder = try TemporaryDirectory()
        let file = folder.file("anim.webp")
        let data = try WebPEncoder().encode(
            SyntheticImages.animation(width: 40, height: 30, frameCount: 3, loopCount: 2))
        try data.write(to: file)
        let result = await CapturedIO.run(["info", file.path, "--json"])
        #expect(result.status == 0)
        let object = try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["format", "width", "height", "alpha", "frames", "loopCount", "bytes"])
        #expect(object["format"] as? String == "webp")
        #expect(object["width"] as? Int == 40 && object["height"] as? Int == 30)
        #expect(object["frames"] as? Int == 3 && object["loopCount"] as? Int == 2)
        #expect(object["alpha"] as? Bool == false)
        #expect(object["bytes"] as? Int == data.count)
    }

    @Test func textOutputNamesFormatSizeAndBytes() async throws {
        let folder = try TemporaryDirectory()
        let file = folder.file("photo.jpg")
        try JPEGEncoder().encode(SyntheticImages.photo(width: 64, height: 48)).write(to: file)
        let result = await CapturedIO.run(["info", file.path])
        #expect(result.stdout.hasPrefix("\(file.path): JPEG 64x48, no alpha, "))
        #expect(result.stdout.hasSuffix(" bytes\n"))
    }

    @Test func unreadableFilesExitOne() async throws {
        let folder = try TemporaryDirectory()
        try Data("GIF89a".utf8).write(to: folder.file("short.gif"))
        let result = await CapturedIO.run(["info", folder.file("short.gif").path])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: "))
        #expect(await CapturedIO.run(["info"]).status == 2)
    }
}
