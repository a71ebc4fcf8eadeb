import Foundation
import HTTPServer
import ImageOrigin
import TestSupport
import TestTraits
import Testing
import WebPBridge

/// The origin on a real socket (127.0.0.1, port 0), fetched by independent
/// clients: `curl` for HTTP and `dwebp` to decode what it served.
@Suite(
    .enabled(if: ExternalTool.available("curl", "dwebp"), "needs curl and dwebp (make deps installs them)"),
    .timeLimit(.suiteBound), .offTheGlobalExecutor)
struct LiveOriginTests {
    @Test func curlFetchesAVariantThatDwebpDecodesAtTheModesSize() async throws {
        let fixture = try OriginFixture()
        try await LoopbackServer.with(try fixture.origin()) { server in
            try await fetchAndDecode(fixture, base: server.baseURL.absoluteString)
        }
    }

    private func fetchAndDecode(_ fixture: OriginFixture, base: String) async throws {
        let output = fixture.parent.file("variant.webp")
        let curl = try await blocking {
            try ChildProcess.run(
                ExternalTool.path("curl")!,
                [
                    "-sS", "--max-time", "180", "-o", output.path, "-w", "%{http_code} %{content_type}",
                    "\(base)/photo.jpg?imageView2/1/w/200/h/120/format/webp",
                ],
                // Generous: while the whole suite runs, the server's tasks share two cores with it.
                timeout: 240)
        }
        #expect(curl.exitStatus == 0, "\(curl.stderr)")
        #expect(curl.stdout == "200 image/webp")
        let pam = fixture.parent.file("variant.pam")
        let dwebp = try await blocking {
            try ChildProcess.run(ExternalTool.path("dwebp")!, [output.path, "-pam", "-o", pam.path])
        }
        #expect(dwebp.exitStatus == 0, "\(dwebp.stderr)")
        let header = String(decoding: try Data(contentsOf: pam).prefix(40), as: UTF8.self)
        #expect(header.hasPrefix("P7\nWIDTH 200\nHEIGHT 120\n"), "mode 1 crops to exactly 200x120")

        // Garbage on the socket does not stop the server answering others.
        let garbage = try await blocking {
            try ChildProcess.run(
                ExternalTool.path("curl")!,
                [
                    "-sS", "--max-time", "60", "-X", "BR@KEN", "-o", "/dev/null", "-w", "%{http_code}",
                    "\(base)/photo.jpg",
                ], timeout: 120)
        }
        #expect(garbage.stdout.hasPrefix("4") || garbage.stdout.hasPrefix("5"), "\(garbage.stdout)")
        let after = try await blocking {
            try ChildProcess.run(
                ExternalTool.path("curl")!,
                ["-sS", "--max-time", "60", "-o", "/dev/null", "-w", "%{http_code}", "\(base)/healthz"], timeout: 120)
        }
        #expect(after.stdout == "200")
    }
}
