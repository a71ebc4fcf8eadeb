import Foundation
import TestSupport
import TestTraits
import Testing

@testable import WebPBridge

@Suite("GIF decoding of generated files", .timeLimit(.suiteBound), .offTheGlobalExecutor)
struct GIFDecoderTests {
    /// Black, white, red, green.
    static let palette: [UInt8] = [0, 0, 0, 255, 255, 255, 255, 0, 0, 0, 255, 0]

    private func pixel(_ image: Image, _ x: Int, _ y: Int) -> [UInt8] {
        let offset = (y * image.width + x) * 4
        return Array(image.pixels[offset..<(offset + 4)])
    }

    private func animation(_ fixture: GIFFixture) throws -> AnimatedImage {
        guard case .animated(let animation) = try GIFDecoder().decode(Data(fixture.bytes)) else {
            Issue.record("expected an animation")
            throw CancellationError()
        }
        return animation
    }

    @Test("a one-frame GIF is a still image, opaque without transparency")
    func still() throws {
        let fixture = GIFFixture(
            width: 2, height: 2, colors: Self.palette,
            frames: [.init(width: 2, height: 2, indices: [0, 1, 2, 3])], netscapeLoops: nil)
        let decoded = try GIFDecoder().decode(Data(fixture.bytes))
        guard case .still(let image) = decoded else {
            Issue.record("expected a still image")
            return
        }
        #expect(image.pixels == [0, 0, 0, 255, 255, 255, 255, 255, 255, 0, 0, 255, 0, 255, 0, 255])
        #expect(!image.hasAlpha)
        #expect(
            try GIFDecoder.readHeader(Data(fixture.bytes))
                == GIFHeader(width: 2, height: 2, frameCount: 1, loopCount: 1, hasAlpha: false))
    }

    @Test("interlaced rows land in display order")
    func interlaced() throws {
        let indices = (0..<10).flatMap { row in [UInt8](repeating: UInt8(row % 4), count: 3) }
        let fixture = GIFFixture(
            width: 3, height: 10, colors: Self.palette,
            frames: [.init(width: 3, height: 10, indices: indices, interlaced: true)], netscapeLoops: nil)
        let image = try GIFDecoder().decode(Data(fixture.bytes)).firstFrame
        for row in 0..<10 {
            let colour = Int(row % 4) * 3
            #expect(
                pixel(image, 1, row) == [Self.palette[colour], Self.palette[colour + 1], Self.palette[colour + 2], 255])
        }
    }

    @Test("disposal: keep, background (to transparent) and previous; local colour tables; transparency")
    func disposal() throws {
        let fixture = GIFFixture(
            width: 4, height: 4, colors: Self.palette,
            frames: [
                .init(
                    width: 4, height: 4, indices: [UInt8](repeating: 1, count: 16), delayCentiseconds: 20, disposal: 1),
                // Red square, restored afterwards.
                .init(x: 0, y: 0, width: 2, height: 2, indices: [2, 2, 2, 2], disposal: 3),
                // Green from a local table, index 0 transparent; cleared afterwards.
                .init(
                    x: 2, y: 2, width: 2, height: 2, indices: [0, 1, 1, 1], disposal: 2, transparentIndex: 0,
                    localColors: [9, 9, 9, 0, 255, 0]),
                .init(x: 0, y: 3, width: 1, height: 1, indices: [3], delayCentiseconds: 0, disposal: 0),
            ],
            netscapeLoops: 0)
        let animation = try animation(fixture)
        #expect(animation.frames.count == 4)
        #expect(animation.loopCount == 0)
        #expect(animation.frames.map(\.durationMilliseconds) == [200, 100, 100, 100])
        let f = animation.frames.map(\.image)
        #expect(pixel(f[1], 0, 0) == [255, 0, 0, 255])
        #expect(pixel(f[2], 0, 0) == [255, 255, 255, 255], "frame 1 restored to previous")
        #expect(pixel(f[2], 2, 2) == [255, 255, 255, 255], "transparent index shows what was below")
        #expect(pixel(f[2], 3, 3) == [0, 255, 0, 255])
        #expect(pixel(f[3], 3, 3) == [0, 0, 0, 0], "frame 2 disposed to transparent")
        #expect(pixel(f[3], 0, 3) == [0, 255, 0, 255])
        #expect(f.allSatisfy { $0.hasAlpha }, "the file declares transparency")
    }

    @Test("loop counts follow browsers", arguments: [(nil, 1), (0, 0), (1, 2), (65_535, 65_536)] as [(Int?, Int)])
    func loops(netscape: Int?, expected: Int) throws {
        let frame = GIFFixture.Frame(width: 1, height: 1, indices: [1])
        let fixture = GIFFixture(
            width: 1, height: 1, colors: Self.palette, frames: [frame, frame], netscapeLoops: netscape)
        #expect(try animation(fixture).loopCount == expected)
        #expect(try GIFDecoder.readHeader(Data(fixture.bytes)).loopCount == expected)
    }

    @Test("delays of 10 ms or less show for 100 ms", arguments: [(0, 100), (1, 100), (2, 20), (7, 70), (150, 1500)])
    func delays(centiseconds: Int, milliseconds: Int) throws {
        let frame = GIFFixture.Frame(width: 1, height: 1, indices: [1], delayCentiseconds: centiseconds)
        let fixture = GIFFixture(width: 1, height: 1, colors: Self.palette, frames: [frame, frame], netscapeLoops: 0)
        #expect(try animation(fixture).frames.map(\.durationMilliseconds) == [milliseconds, milliseconds])
    }

    @Test("a frame past the screen is clipped; an empty canvas area stays transparent")
    func clipped() throws {
        let fixture = GIFFixture(
            width: 3, height: 3, colors: Self.palette,
            frames: [.init(x: 2, y: 2, width: 2, height: 2, indices: [2, 2, 2, 2])], netscapeLoops: nil)
        let image = try GIFDecoder().decode(Data(fixture.bytes)).firstFrame
        #expect(image.width == 3 && image.height == 3)
        #expect(pixel(image, 2, 2) == [255, 0, 0, 255])
        #expect(pixel(image, 0, 0) == [0, 0, 0, 0])
        #expect(image.hasAlpha)
    }

    @Test("limits: screen, frame size, frame extent, frame count")
    func limits() throws {
        let small = DecodingLimits(maxPixelsPerFrame: 100, maxFrames: 2)
        let frame = GIFFixture.Frame(width: 1, height: 1, indices: [1])
        let cases: [GIFFixture] = [
            GIFFixture(width: 11, height: 10, colors: Self.palette, frames: [frame], netscapeLoops: nil),
            GIFFixture(
                width: 10, height: 10, colors: Self.palette,
                frames: [.init(width: 101, height: 1, indices: [UInt8](repeating: 1, count: 101))], netscapeLoops: nil),
            GIFFixture(
                width: 10, height: 10, colors: Self.palette,
                frames: [.init(x: 60_000, y: 60_000, width: 1, height: 1, indices: [1])], netscapeLoops: nil),
            GIFFixture(width: 10, height: 10, colors: Self.palette, frames: [frame, frame, frame], netscapeLoops: 0),
        ]
        for fixture in cases {
            let error = #expect(throws: ImageCodecError.self) {
                try GIFDecoder(limits: small).decode(Data(fixture.bytes))
            }
            #expect(error?.kind == .limitExceeded)
        }
    }

    @Test("a missing trailer after a whole frame is accepted; data ending inside a frame is truncated")
    func truncation() throws {
        var fixture = GIFFixture(
            width: 8, height: 8, colors: Self.palette,
            frames: [.init(width: 8, height: 8, indices: [UInt8](repeating: 2, count: 64))], netscapeLoops: nil)
        fixture.writesTrailer = false
        let bytes = fixture.bytes
        #expect(try GIFDecoder().decode(Data(bytes)).firstFrame.width == 8)
        let error = #expect(throws: ImageCodecError.self) {
            try GIFDecoder().decode(Data(bytes.prefix(bytes.count - 6)))
        }
        #expect(error?.kind == .truncated)
        let headerError = #expect(throws: ImageCodecError.self) { try GIFDecoder().decode(Data(bytes.prefix(9))) }
        #expect(headerError?.kind == .truncated)
    }

    @Test("not a GIF, or no image at all, gives a typed error")
    func notAGIF() {
        let error = #expect(throws: ImageCodecError.self) { try GIFDecoder().decode(Data("hello, world".utf8)) }
        #expect(error?.kind == .unknownFormat)
        let empty = GIFFixture(width: 1, height: 1, colors: Self.palette, frames: [], netscapeLoops: nil)
        let emptyError = #expect(throws: ImageCodecError.self) { try GIFDecoder().decode(Data(empty.bytes)) }
        #expect(emptyError?.kind == .corrupt)
    }
}

@Suite(
    "GIF decoding of the corpus",
    .enabled(if: Corpus.isAvailable, Comment(rawValue: Corpus.unavailableReason)),
    .timeLimit(.suiteBound), .offTheGlobalExecutor)
struct GIFCorpusTests {
    /// Frame counts, sizes, loops and declared transparency as the files hold
    /// them (checked with Pillow and by walking the blocks; loops are the
    /// browser play count: NETSCAPE 0 = forever, none = once).
    @Test(
        "frame counts, sizes, loops and alpha",
        arguments: [
            ("chi.gif", 320, 240, 31, 0, true),
            ("different_transparency.gif", 100, 100, 2, 1, true),
            ("dispose_bgnd.gif", 100, 100, 5, 0, false),
            ("dispose_prev.gif", 100, 100, 5, 0, false),
            ("hopper.gif", 128, 128, 1, 1, false),
            ("iss634.gif", 245, 245, 42, 0, true),
            ("test.colors.gif", 807, 606, 1, 1, false),
        ])
    func structure(name: String, width: Int, height: Int, frames: Int, loops: Int, declaresAlpha: Bool) throws {
        let data = try Corpus.data("edge/\(name)")
        let header = try GIFDecoder.readHeader(data)
        #expect(
            header
                == GIFHeader(
                    width: width, height: height, frameCount: frames, loopCount: loops, hasAlpha: declaresAlpha))
        let decoded = try GIFDecoder().decode(data)
        #expect(decoded.frameCount == frames)
        #expect(decoded.firstFrame.width == width && decoded.firstFrame.height == height)
        if case .animated(let animation) = decoded {
            #expect(animation.loopCount == loops)
            #expect(animation.frames.allSatisfy { $0.image.hasAlpha == (declaresAlpha || !$0.image.isOpaque) })
        } else {
            #expect(frames == 1)
            #expect(decoded.firstFrame.hasAlpha == declaresAlpha)
        }
    }

    @Test("dispose_bgnd.gif clears each square to transparent; dispose_prev.gif restores the first frame")
    func disposalFiles() throws {
        func frames(_ name: String) throws -> [Image] {
            guard case .animated(let animation) = try GIFDecoder().decode(Corpus.data("edge/\(name)")) else {
                return []
            }
            return animation.frames.map(\.image)
        }
        func alpha(_ image: Image, _ x: Int, _ y: Int) -> UInt8 { image.pixels[(y * image.width + x) * 4 + 3] }
        let background = try frames("dispose_bgnd.gif")
        #expect(background.count == 5)
        // Frame 1 draws a 32×32 square at (5, 10), disposed to background before frame 2.
        #expect(alpha(background[1], 10, 15) == 255)
        #expect(alpha(background[2], 10, 15) == 0)
        #expect(!background[2].isOpaque)
        let previous = try frames("dispose_prev.gif")
        #expect(previous.count == 5)
        // With DISPOSE_PREVIOUS the square vanishes again, and the canvas is frame 0 outside frame 2's square.
        let first = previous[0]
        #expect(
            previous[2].pixels[(15 * 100 + 10) * 4..<(15 * 100 + 11) * 4]
                == first.pixels[(15 * 100 + 10) * 4..<(15 * 100 + 11) * 4])
        #expect(previous.allSatisfy { $0.isOpaque })
    }

    @Test("iss634.gif: the first frame's zero delay shows for 100 ms; later 60–70 ms delays are kept")
    func delays() throws {
        guard case .animated(let animation) = try GIFDecoder().decode(Corpus.data("edge/iss634.gif")) else {
            Issue.record("expected an animation")
            return
        }
        #expect(animation.frames[0].durationMilliseconds == 100)
        #expect(animation.frames[1].durationMilliseconds == 70)
        #expect(animation.frames[2].durationMilliseconds == 60)
        #expect(animation.frames.allSatisfy { $0.image.isOpaque }, "frame 0 covers the canvas; later frames only add")
    }

    @Test(
        "decompression bombs fail fast with limitExceeded",
        arguments: ["decompression_bomb.gif", "decompression_bomb_extents.gif"])
    func bombs(name: String) throws {
        let data = try Corpus.data("edge/\(name)")
        let error = #expect(throws: ImageCodecError.self) { try GIFDecoder().decode(data) }
        #expect(error?.kind == .limitExceeded)
        #expect(error?.format == .gif)
    }

    @Test("every prefix of chi.gif fails with a typed error or decodes, never crashes")
    func prefixes() throws {
        let data = try Corpus.data("edge/chi.gif")
        for length in stride(from: 0, to: data.count, by: 997) {
            do {
                _ = try GIFDecoder().decode(data.prefix(length))
            } catch {
                #expect([.truncated, .corrupt, .unknownFormat].contains(error.kind), "\(length): \(error)")
            }
        }
    }
}
