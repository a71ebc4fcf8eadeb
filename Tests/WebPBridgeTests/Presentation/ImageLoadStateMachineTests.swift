import Foundation
import TestTraits
import Testing
import WebPBridge

/// The image-view state machine's table: each row names a situation, the
/// events that lead to it, the last event, and the effects and display that
/// event must give. Loads are named by the order they were started (0, 1…),
/// images by a letter.
@Suite(.timeLimit(.suiteBound))
struct ImageLoadStateMachineTests {
    typealias Machine = ImageLoadStateMachine

    /// An event, with loads named by their start order.
    enum Step: Sendable, CustomStringConvertible {
        case set(String?, hit: String? = nil)
        case partial(Int, String)
        case succeed(Int, String)
        case fail(Int)
        case cancelledByPipeline(Int)
        case cancel
        case gone

        var description: String {
            switch self {
            case .set(let url, let hit): "set(\(url ?? "nil")\(hit.map { ", hit \($0)" } ?? ""))"
            case .partial(let load, let image): "partial(\(load), \(image))"
            case .succeed(let load, let image): "succeed(\(load), \(image))"
            case .fail(let load): "fail(\(load))"
            case .cancelledByPipeline(let load): "cancelled(\(load))"
            case .cancel: "cancel"
            case .gone: "gone"
            }
        }
    }

    /// An effect, with loads and images named.
    enum Expected: Equatable, Sendable {
        case start(String)
        case cancelLoad(Int)
        case clear
        case placeholder
        case image(String, Machine.Transition)
        case failure
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var options = Machine.Options()
        var before: [Step] = []
        var step: Step
        var effects: [Expected]
        var display: Machine.Display
        var loading: Bool

        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(
            name: "a new request with nothing cached shows the placeholder and starts a load",
            step: .set("a"), effects: [.placeholder, .start("a")], display: .placeholder, loading: true),
        Row(
            name: "a memory-cache hit is shown at once: no placeholder, no fade, no load",
            step: .set("a", hit: "A"), effects: [.image("A", .none)], display: .image(isAnimated: false),
            loading: false),
        Row(
            name: "an animated memory hit is shown as an animation",
            step: .set("a", hit: "anim"), effects: [.image("anim", .none)], display: .image(isAnimated: true),
            loading: false),
        Row(
            name: "the final image fades in over the placeholder",
            before: [.set("a")], step: .succeed(0, "A"), effects: [.image("A", .fade)],
            display: .image(isAnimated: false), loading: false),
        Row(
            name: "with fading off the final image replaces the placeholder at once",
            options: .init(fadesIn: false), before: [.set("a")], step: .succeed(0, "A"),
            effects: [.image("A", .none)], display: .image(isAnimated: false), loading: false),
        Row(
            name: "a progressive partial replaces the placeholder at once",
            before: [.set("a")], step: .partial(0, "P"), effects: [.image("P", .none)], display: .partial,
            loading: true),
        Row(
            name: "the final image after a partial does not fade (no flash)",
            before: [.set("a"), .partial(0, "P")], step: .succeed(0, "A"), effects: [.image("A", .none)],
            display: .image(isAnimated: false), loading: false),
        Row(
            name: "an animated final image is shown as an animation",
            before: [.set("a")], step: .succeed(0, "anim"), effects: [.image("anim", .fade)],
            display: .image(isAnimated: true), loading: false),
        Row(
            name: "a failure shows the failure image",
            before: [.set("a")], step: .fail(0), effects: [.failure], display: .failure, loading: false),
        Row(
            name: "a failure after a partial shows the failure image",
            before: [.set("a"), .partial(0, "P")], step: .fail(0), effects: [.failure], display: .failure,
            loading: false),
        Row(
            name: "with no failure image a failure leaves the placeholder",
            options: .init(showsFailureImage: false), before: [.set("a")], step: .fail(0), effects: [],
            display: .placeholder, loading: false),
        Row(
            name: "with no failure image a failure after a partial goes back to the placeholder",
            options: .init(showsFailureImage: false), before: [.set("a"), .partial(0, "P")], step: .fail(0),
            effects: [.placeholder], display: .placeholder, loading: false),
        Row(
            name: "a load the pipeline cancelled leaves the placeholder and shows no failure",
            before: [.set("a")], step: .cancelledByPipeline(0), effects: [], display: .placeholder, loading: false),
        Row(
            name: "a reused cell cancels the old load and starts the new one",
            before: [.set("a")], step: .set("b"), effects: [.cancelLoad(0), .start("b")], display: .placeholder,
            loading: true),
        Row(
            name: "a reused cell that showed an image goes back to the placeholder",
            before: [.set("a"), .succeed(0, "A")], step: .set("b"), effects: [.placeholder, .start("b")],
            display: .placeholder, loading: true),
        Row(
            name: "a reused cell's memory hit replaces the old image with no fade",
            before: [.set("a"), .succeed(0, "A")], step: .set("b", hit: "B"), effects: [.image("B", .none)],
            display: .image(isAnimated: false), loading: false),
        Row(
            name: "a reused cell's memory hit cancels the old load",
            before: [.set("a")], step: .set("b", hit: "B"), effects: [.cancelLoad(0), .image("B", .none)],
            display: .image(isAnimated: false), loading: false),
        Row(
            name: "a late completion for a replaced request is ignored",
            before: [.set("a"), .set("b")], step: .succeed(0, "A"), effects: [], display: .placeholder,
            loading: true),
        Row(
            name: "a late partial for a replaced request is ignored",
            before: [.set("a"), .set("b")], step: .partial(0, "P"), effects: [], display: .placeholder,
            loading: true),
        Row(
            name: "a late failure for a replaced request is ignored",
            before: [.set("a"), .set("b")], step: .fail(0), effects: [], display: .placeholder, loading: true),
        Row(
            name: "the new request's completion after a replaced one is shown",
            before: [.set("a"), .set("b"), .succeed(0, "A")], step: .succeed(1, "B"), effects: [.image("B", .fade)],
            display: .image(isAnimated: false), loading: false),
        Row(
            name: "the same request again while it loads does nothing",
            before: [.set("a")], step: .set("a"), effects: [], display: .placeholder, loading: true),
        Row(
            name: "the same request again while its image is shown does nothing",
            before: [.set("a"), .succeed(0, "A")], step: .set("a", hit: "A"), effects: [],
            display: .image(isAnimated: false), loading: false),
        Row(
            name: "cancel (the view disappears) stops the load and keeps the placeholder",
            before: [.set("a")], step: .cancel, effects: [.cancelLoad(0)], display: .placeholder, loading: false),
        Row(
            name: "cancel with nothing loading does nothing",
            before: [.set("a"), .succeed(0, "A")], step: .cancel, effects: [], display: .image(isAnimated: false),
            loading: false),
        Row(
            name: "the same request after a cancel resumes the load under the placeholder",
            before: [.set("a"), .cancel], step: .set("a"), effects: [.start("a")], display: .placeholder,
            loading: true),
        Row(
            name: "the same request after a cancel mid-partial resumes and keeps the partial",
            before: [.set("a"), .partial(0, "P"), .cancel], step: .set("a"), effects: [.start("a")],
            display: .partial, loading: true),
        Row(
            name: "a cancelled load's late completion is ignored",
            before: [.set("a"), .cancel], step: .succeed(0, "A"), effects: [], display: .placeholder, loading: false),
        Row(
            name: "the same request after a failure retries from the placeholder",
            before: [.set("a"), .fail(0)], step: .set("a"), effects: [.placeholder, .start("a")],
            display: .placeholder, loading: true),
        Row(
            name: "no request shows the placeholder",
            before: [.set("a"), .succeed(0, "A")], step: .set(nil), effects: [.placeholder], display: .placeholder,
            loading: false),
        Row(
            name: "no request cancels the load in flight",
            before: [.set("a")], step: .set(nil), effects: [.cancelLoad(0)], display: .placeholder, loading: false),
        Row(
            name: "with no placeholder, loading shows nothing",
            options: .init(showsPlaceholder: false), step: .set("a"), effects: [.start("a")], display: .empty,
            loading: true),
        Row(
            name: "with no placeholder, a reused cell's old image is cleared",
            options: .init(showsPlaceholder: false), before: [.set("a"), .succeed(0, "A")], step: .set("b"),
            effects: [.clear, .start("b")], display: .empty, loading: true),
        Row(
            name: "the view going away cancels the load and shows nothing more",
            before: [.set("a")], step: .gone, effects: [.cancelLoad(0)], display: .empty, loading: false),
        Row(
            name: "after the view has gone, a late completion is ignored",
            before: [.set("a"), .gone], step: .succeed(0, "A"), effects: [], display: .empty, loading: false),
    ]

    @Test(arguments: rows)
    func row(_ row: Row) throws {
        var driver = Driver(options: row.options)
        for step in row.before { _ = try driver.apply(step) }
        let effects = try driver.apply(row.step)
        #expect(effects == row.effects, "after \(row.before) then \(row.step)")
        #expect(driver.machine.display == row.display)
        #expect((driver.machine.loading != nil) == row.loading)
    }

    /// However many requests a reused cell is given and however their
    /// loads end, at most one load is ever in flight (every started load is
    /// cancelled or ended before the next starts) and the machine's state
    /// stays one request and one load.
    @Test func aFloodOfReusedRequestsKeepsOneLoadInFlight() throws {
        var driver = Driver(options: .init())
        var inFlight = Set<Int>()
        var maxInFlight = 0
        var lateEffects = 0
        for index in 0..<50_000 {
            let effects = try driver.apply(.set("u\(index)"))
            if index % 3 == 0, index > 0 {
                // A late completion of the previous (replaced) load.
                lateEffects += try driver.apply(.succeed(driver.started.count - 2, "A")).count
            }
            for effect in effects {
                switch effect {
                case .start: inFlight.insert(driver.started.count - 1)
                case .cancelLoad(let load): inFlight.remove(load)
                default: break
                }
            }
            maxInFlight = max(maxInFlight, inFlight.count)
        }
        #expect(maxInFlight == 1)
        #expect(lateEffects == 0, "late completions of replaced loads drew nothing")
        #expect(driver.started.count == 50_000)
        #expect(driver.machine.request?.url.absoluteString == "https://img.example/u49999")
    }

    /// Runs a machine with steps in the table's names.
    struct Driver {
        var machine: Machine
        /// The ids of the loads started, in order.
        var started: [Machine.LoadID] = []
        var startedURLs: [String] = []

        init(options: Machine.Options) {
            machine = Machine(options: options)
        }

        mutating func apply(_ step: Step) throws -> [Expected] {
            let effects: [Machine.Effect]
            switch step {
            case .set(let name, let hit):
                effects = machine.handle(.setRequest(name.map(Self.request), memoryHit: hit.map(Self.image)))
            case .partial(let load, let image):
                effects = machine.handle(.partial(try id(load), Self.image(image)))
            case .succeed(let load, let image):
                effects = machine.handle(.succeeded(try id(load), Self.image(image)))
            case .fail(let load):
                effects = machine.handle(.failed(try id(load), isCancellation: false))
            case .cancelledByPipeline(let load):
                effects = machine.handle(.failed(try id(load), isCancellation: true))
            case .cancel:
                effects = machine.handle(.cancel)
            case .gone:
                effects = machine.handle(.viewGone)
            }
            return try effects.map { effect in
                switch effect {
                case .startLoad(let id, let request):
                    started.append(id)
                    return .start(request.url.lastPathComponent)
                case .cancelLoad(let id):
                    return .cancelLoad(try #require(started.lastIndex(of: id)))
                case .clear: return .clear
                case .showPlaceholder: return .placeholder
                case .showImage(let image, let transition): return .image(try Self.name(of: image), transition)
                case .showFailure: return .failure
                }
            }
        }

        private func id(_ load: Int) throws -> Machine.LoadID {
            try #require(started.indices.contains(load) ? started[load] : nil, "load \(load) was never started")
        }

        static func request(_ name: String) -> ImageRequest {
            ImageRequest(url: URL(string: "https://img.example/\(name)")!)
        }

        static let images: [String: DecodedImage] = [
            "A": .still(Image(width: 1, height: 1, filledWith: (255, 0, 0, 255))),
            "B": .still(Image(width: 1, height: 1, filledWith: (0, 255, 0, 255))),
            "P": .still(Image(width: 1, height: 1, filledWith: (0, 0, 0, 0))),
            "anim": .animated(
                AnimatedImage(
                    canvasWidth: 1, canvasHeight: 1,
                    frames: [
                        .init(image: Image(width: 1, height: 1, filledWith: (1, 1, 1, 255)), durationMilliseconds: 100),
                        .init(image: Image(width: 1, height: 1, filledWith: (2, 2, 2, 255)), durationMilliseconds: 50),
                    ], loopCount: 0)),
        ]

        static func image(_ name: String) -> DecodedImage { images[name]! }

        static func name(of image: DecodedImage) throws -> String {
            try #require(images.first { $0.value == image }?.key)
        }
    }
}
