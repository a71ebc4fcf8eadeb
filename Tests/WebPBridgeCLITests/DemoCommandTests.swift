import Foundation
import TestSupport
import TestTraits
import Testing
import WebPBridge

@testable import WebPBridgeCLI
@testable import WebPBridgeDemo

@Suite("webp-bridge demo", .timeLimit(.suiteBound), .offTheGlobalExecutor)
struct DemoCommandTests {
    @Test(arguments: [
        (["demo", "--width", "0"], "option '--width' must be between 16 and 4096"),
        (["demo", "extra"], "unexpected argument 'extra'"),
        (["demo", "--colour"], "unknown option '--colour'"),
    ])
    func usageErrorsExitTwo(arguments: [String], message: String) async {
        let result = await CapturedIO.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func missingImagesFolderExitsOne() async throws {
        let folder = try TemporaryDirectory()
        let result = await CapturedIO.run(["demo", "--images", folder.file("nowhere").path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("is not a folder"))
    }

    @Test("without --images or the cache, the demo says how to get photos")
    func noPhotosSaysHow() throws {
        var command = try DemoCommand(parsed: ParsedArguments([], configuration: DemoCommand.configuration))
        command.cacheFolder = "/nonexistent/demo-cache"
        #expect {
            try command.photoFolder()
        } throws: { error in
            let message = (error as? CommandFailure)?.message ?? ""
            return message.contains("make demo-photos") && message.contains("--images DIR")
        }
    }

    /// The whole chain on loopback with a small site: the origin serves the
    /// page and images, the bridge (or its stand-in) sits in front, and the
    /// client loads and measures every image.
    @Test("servers and client on loopback: every image loads and measures", .timeLimit(.suiteBound))
    func liveChain() async throws {
        let photos = try DemoPhotos.folder(count: 2, sizes: [(480, 320)])
        let site = try TemporaryDirectory(prefix: "demo-site")
        let configuration = DemoSite.Configuration(articleCount: 4, photoWidths: 300...400)
        let manifest = try await DemoSite(configuration: configuration).build(photos: photos.url, into: site.url)
        let servers = try await DemoServers.start(
            site: site.url, width: 750, makeBridge: DemoCommand.makeBridge)
        do {
            #expect(servers.originURL.host == "127.0.0.1" && servers.bridgeURL.host == "127.0.0.1")
            #expect(servers.tunedOriginURL.host == "127.0.0.1")
            var client = DemoClient(
                bridge: servers.bridgeURL, origin: servers.originURL, clientBridges: servers.clientBridgeURLs,
                tunedOrigin: servers.tunedOriginURL)
            // The suite's bound ends a hang; a request's own limit must not end the test first.
            client.timeout = SuiteBound.seconds
            let report = try await client.run()
            #expect(report.clients.map(\.profile.name) == DemoClient.Profile.all.map(\.name))
            #expect(report.failures.isEmpty, "\(report.failures.map { "\($0.client.name) \($0.image.path)" })")
            #expect(report.pageBytes > 0)
            for run in report.clients {
                #expect(run.images.count == 4 + manifest.logoPaths.count + 2)
                for image in run.images {
                    #expect(image.deliveredBytes > 0 && image.originalBytes > 0)
                    #expect(image.wireBytes > 0, "\(image.path): the bridge says what it fetched")
                    #expect((image.ssim ?? 0) > 0.9, "\(run.profile.name) \(image.path): SSIM \(image.ssim ?? 0)")
                }
            }
            // Each client gets what it can show: the WebView a transcode, the others their variant.
            let types = Dictionary(
                uniqueKeysWithValues: report.clients.map { ($0.profile.name, Set($0.images.map(\.deliveredType))) })
            #expect(types["legacy-webview"]?.isDisjoint(with: ["image/webp", "image/avif"]) == true)
            #expect(types["webp"]?.contains("image/webp") == true && types["webp"]?.contains("image/avif") == false)
            #expect(types["avif"]?.contains("image/avif") == true, "the photos come as AVIF (and decode: SSIM above)")
            // The tuned origin's AVIF client gets each logo in the smaller of AVIF and WebP.
            let tuned = try #require(report.clients.first { $0.profile.name == "avif-tuned" })
            let bridged = try #require(report.clients.first { $0.profile.name == "avif" })
            for (mine, theirs) in zip(tuned.images, bridged.images) where mine.kind == .logo {
                #expect(
                    mine.wireBytes <= theirs.wireBytes,
                    "\(mine.path): \(mine.wireBytes) B, bridged \(theirs.wireBytes) B")
            }
            #expect(report.table.hasSuffix(report.summaryLine + "\n"))
        } catch {
            await servers.stop()
            throw error
        }
        await servers.stop()
    }
}
