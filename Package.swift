// swift-tools-version:6.0
import PackageDescription

/// Settings every Swift target shares: Swift 6 strict concurrency plus the
/// upcoming features that keep imports and existentials explicit.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

/// Two sides share this manifest:
/// - the portable products an app adds (rewriting, client policy, HTML
///   rewriting, the pipeline, the bridge core, the URL protocol, the web-view
///   bridge): pure Swift and Foundation, built by an Apple SDK alone, with
///   ImageIO and URLSession there;
/// - the Linux side: the C image codecs, libcurl, libmicrohttpd and what is
///   built on them (the origin, the proxy, the CLI, the demo, benchmarks,
///   fuzzers and most tests).
/// An Apple build never sees the Linux side. On Linux,
/// `WEBP_BRIDGE_MANIFEST_PLATFORM=apple` evaluates the manifest as an Apple
/// build would: `make portability` checks that view.
#if os(Linux)
    let linuxSide = Context.environment["WEBP_BRIDGE_MANIFEST_PLATFORM"] != "apple"
#else
    let linuxSide = false
#endif

/// On Linux the pipeline decodes with the C codecs and fetches with libcurl;
/// on Apple platforms with ImageIO and URLSession (guarded by `canImport`).
let platformAdapters: [Target.Dependency] = linuxSide ? ["ImageCodecs", "CCurl"] : []

/// What TestSupport's `Linux/` folder (the helpers over the C codecs, the server and child
/// processes) needs; the Apple view leaves that folder out.
let linuxTestSupport: [Target.Dependency] = linuxSide ? ["ImageCodecs", "HTTPServer"] : []

let portableProducts: [Product] = [
    .library(name: "ImageCoding", targets: ["ImageCoding"]),
    .library(name: "URLRewriting", targets: ["URLRewriting"]),
    .library(name: "HTMLRewriting", targets: ["HTMLRewriting"]),
    .library(name: "HTTPFields", targets: ["HTTPFields"]),
    .library(name: "ImagePipeline", targets: ["ImagePipeline"]),
    .library(name: "ImageDelivery", targets: ["ImageDelivery"]),
    .library(name: "WebPURLProtocol", targets: ["WebPURLProtocol"]),
    .library(name: "WebViewBridge", targets: ["WebViewBridge"]),
]

let linuxProducts: [Product] = [
    .executable(name: "webp-bridge", targets: ["webp-bridge"]),
    .library(name: "ImageCodecs", targets: ["ImageCodecs"]),
    .library(name: "HTTPServer", targets: ["HTTPServer"]),
    .library(name: "ImageOrigin", targets: ["ImageOrigin"]),
    .library(name: "BridgeProxy", targets: ["BridgeProxy"]),
]

let portableTargets: [Target] = [
    // The project's lock (a pthread mutex on Linux, os_unfair_lock on Apple platforms), its worker
    // threads, and WorkQueue, the bounded queue that decoding, transcoding and prefetching share.
    .target(
        name: "ConcurrencySupport",
        swiftSettings: swiftSettings),
    // Image types, format sniffing, decoding limits, the codec protocol and the Transcoder's
    // decisions; ImageIOCodec on Apple platforms.
    .target(
        name: "ImageCoding",
        swiftSettings: swiftSettings),
    // HTTP semantics (Cache-Control, Accept, ETag, Via, Vary, hop-by-hop fields, dates).
    .target(
        name: "HTTPFields",
        swiftSettings: swiftSettings),
    .target(
        name: "URLRewriting",
        dependencies: ["HTTPFields"],
        swiftSettings: swiftSettings),
    // A streaming HTML rewriter: image URLs to their variants, every other byte as written (pure Swift).
    .target(
        name: "HTMLRewriting",
        dependencies: ["URLRewriting"],
        swiftSettings: swiftSettings),
    // The cost-bounded LRU behind the pipeline's and the origin's memory caches.
    .target(
        name: "CacheSupport",
        swiftSettings: swiftSettings),
    .target(
        name: "ImagePipeline",
        dependencies: ["ConcurrencySupport", "ImageCoding", "URLRewriting", "HTTPFields", "CacheSupport"]
            + platformAdapters,
        swiftSettings: swiftSettings),
    // The image path both bridges adapt: client policy, claim, fetch, bounded transcode, delivery.
    .target(
        name: "ImageDelivery",
        dependencies: ["ConcurrencySupport", "ImageCoding", "ImagePipeline", "URLRewriting", "HTTPFields"],
        swiftSettings: swiftSettings),
    .target(
        name: "WebPURLProtocol",
        dependencies: [
            "ConcurrencySupport", "HTTPFields", "ImageDelivery", "ImagePipeline", "URLRewriting", "ImageCoding",
        ],
        swiftSettings: swiftSettings),
    // A WKWebView's custom scheme answered from the image path: the portable decisions, and the
    // WKURLSchemeHandler adapter (compiled where WebKit exists).
    .target(
        name: "WebViewBridge",
        dependencies: ["HTTPFields", "ImageDelivery", "ImagePipeline", "URLRewriting"],
        swiftSettings: swiftSettings),
    // Test helpers that build everywhere: the off-the-global-executor trait, a seeded generator.
    .target(
        name: "TestTraits",
        dependencies: ["ConcurrencySupport"],
        path: "Tests/Helpers/TestTraits",
        swiftSettings: swiftSettings),
    // The one module of test doubles and fixtures (re-exports TestTraits): the scripted DataLoading,
    // client profiles, the raw HTTP client and upstream build everywhere; `Linux/` (helpers over the
    // C codecs, the server and child processes) only where the manifest adds the Linux side.
    .target(
        name: "TestSupport",
        dependencies: ["TestTraits", "ConcurrencySupport", "HTTPFields", "ImagePipeline"]
            + linuxTestSupport,
        exclude: linuxSide ? [] : ["Linux"],
        swiftSettings: swiftSettings),
]

/// The tests an Apple build runs: those whose dependencies are all portable.
let portableTestTargets: [Target] = [
    .testTarget(
        name: "ImageCodingTests",
        dependencies: ["TestTraits", "ImageCoding"],
        swiftSettings: swiftSettings),
    .testTarget(
        name: "URLRewritingTests",
        dependencies: ["TestTraits", "URLRewriting"],
        resources: [.copy("Resources")],
        swiftSettings: swiftSettings),
    .testTarget(
        name: "ConcurrencySupportTests",
        dependencies: ["TestTraits", "ConcurrencySupport"],
        swiftSettings: swiftSettings),
    .testTarget(
        name: "CacheSupportTests",
        dependencies: ["TestTraits", "CacheSupport"],
        swiftSettings: swiftSettings),
    .testTarget(
        name: "HTMLRewritingTests",
        dependencies: ["TestTraits", "HTMLRewriting", "URLRewriting"],
        exclude: ["Resources"],
        swiftSettings: swiftSettings),
    .testTarget(
        name: "HTTPFieldsTests",
        dependencies: ["TestTraits", "HTTPFields"],
        exclude: ["Resources"],  // read in place by AcceptClassTableTests; e2e/nginx_classes.py reads it too
        swiftSettings: swiftSettings),
]

let linuxTargets: [Target] = [
    // System libraries (Debian -dev packages; Homebrew on macOS).
    .systemLibrary(
        name: "CWebP", pkgConfig: "libwebp",
        providers: [.apt(["libwebp-dev"]), .brew(["webp"])]),
    .systemLibrary(
        name: "CTurboJPEG", pkgConfig: "libturbojpeg",
        providers: [.apt(["libturbojpeg0-dev"]), .brew(["jpeg-turbo"])]),
    .systemLibrary(
        name: "CSPNG", pkgConfig: "spng",
        providers: [.apt(["libspng-dev"]), .brew(["libspng"])]),
    // No pkgConfig: libavif.pc's cflags carry -DAVIF_DLL (a Windows dllimport switch), which SwiftPM
    // refuses with a warning on every build; the header and library are on the default paths.
    .systemLibrary(
        name: "CAVIF",
        providers: [.apt(["libavif-dev"]), .brew(["libavif"])]),
    .systemLibrary(
        name: "CGIF",
        providers: [.apt(["libgif-dev"]), .brew(["giflib"])]),
    .systemLibrary(
        name: "CMicroHTTPD", pkgConfig: "libmicrohttpd",
        providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]),
    .systemLibrary(
        name: "CCurl", pkgConfig: "libcurl",
        providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]),

    // Libraries, lowest first.
    // The C codecs: libwebp, TurboJPEG, libspng, giflib, libavif behind CImageCodec.
    .target(
        name: "ImageCodecs",
        dependencies: ["ConcurrencySupport", "ImageCoding", "CWebP", "CTurboJPEG", "CSPNG", "CGIF", "CAVIF"],
        swiftSettings: swiftSettings),
    .target(
        name: "HTTPServer",
        dependencies: ["ConcurrencySupport", "CMicroHTTPD", "HTTPFields"],
        swiftSettings: swiftSettings),
    .target(
        name: "ImageOrigin",
        dependencies: [
            "ConcurrencySupport", "HTTPServer", "HTTPFields", "CacheSupport", "ImageCodecs", "URLRewriting",
        ],
        swiftSettings: swiftSettings),
    .target(
        name: "BridgeProxy",
        dependencies: [
            "ConcurrencySupport", "HTTPServer", "HTTPFields", "ImageDelivery", "ImagePipeline", "URLRewriting",
            "ImageCodecs", "CacheSupport", "HTMLRewriting",
        ],
        swiftSettings: swiftSettings),
    // The `demo` command's sample site, servers, client and report; the CLI hands it its bridges.
    .target(
        name: "WebPBridgeDemo",
        dependencies: ["ImageCodecs", "HTTPServer", "ImageOrigin", "ImagePipeline", "BridgeProxy"],
        swiftSettings: swiftSettings),
    .target(
        name: "WebPBridgeCLI",
        dependencies: [
            "ConcurrencySupport",
            "ImageCodecs", "URLRewriting", "HTTPServer", "ImageOrigin", "ImagePipeline", "ImageDelivery",
            "WebPURLProtocol", "BridgeProxy", "WebPBridgeDemo", "HTMLRewriting",
        ],
        swiftSettings: swiftSettings),
    .executableTarget(
        name: "webp-bridge",
        dependencies: ["WebPBridgeCLI"],
        swiftSettings: swiftSettings),
    // Benchmarks (run by `make bench-…`, never by tests).
    .executableTarget(
        name: "codecs-benchmark",
        dependencies: ["ConcurrencySupport", "ImageCodecs"],
        path: "Benchmarks/CodecsBenchmark",
        swiftSettings: swiftSettings),
    .executableTarget(
        name: "rewrite-benchmark",
        dependencies: ["URLRewriting", "TestSupport"],
        path: "Benchmarks/RewriteBenchmark",
        swiftSettings: swiftSettings),
    // Resident memory over a long run: a loader alone, or the whole pipeline.
    .executableTarget(
        name: "loader-memory",
        dependencies: [
            "CacheSupport", "ConcurrencySupport", "ImagePipeline", "HTTPServer", "ImageOrigin", "ImageCodecs",
            "URLRewriting",
            "TestSupport",
        ],
        path: "Benchmarks/LoaderMemory",
        swiftSettings: swiftSettings),
    .executableTarget(
        name: "pipeline-benchmark",
        dependencies: [
            "ConcurrencySupport", "ImagePipeline", "HTTPServer", "ImageOrigin", "ImageCodecs", "URLRewriting",
            "TestSupport",
        ],
        path: "Benchmarks/PipelineBenchmark",
        swiftSettings: swiftSettings),
    // `make bench-origin`: one server's load, the SSIM of its variants, the WebP settings sweep.
    .executableTarget(
        name: "origin-benchmark",
        dependencies: ["ImageCodecs", "TestSupport"],
        path: "Benchmarks/OriginBenchmark",
        swiftSettings: swiftSettings),
    .executableTarget(
        name: "HTTPServerBenchmark",
        dependencies: ["HTTPServer"],
        path: "Benchmarks/HTTPServerBenchmark",
        swiftSettings: swiftSettings),

    // Test helpers: built with the tests, never shipped.
    // Writes disk cache entries until killed: the kill -9 test's child.
    .executableTarget(
        name: "cache-writer",
        dependencies: ["ImagePipeline", "TestSupport"],
        path: "Tests/Helpers/CacheWriter",
        swiftSettings: swiftSettings),
    // A live image origin with injected faults, for the pipeline's and the URL protocol's tests; the AVIF
    // variant loader the proxy's and the URL protocol's AVIF tests share.
    .target(
        name: "PipelineTestSupport",
        dependencies: [
            "ConcurrencySupport", "HTTPServer", "ImageOrigin", "ImagePipeline", "ImageCodecs", "URLRewriting",
            "TestSupport",
        ],
        path: "Tests/Helpers/PipelineTestSupport",
        swiftSettings: swiftSettings),

    // Fuzzing (`make fuzz`): the entries each fuzz target calls, shared with the
    // crasher replay test, and one executable per target (libFuzzer when built
    // with -sanitize=fuzzer -D FUZZING, a replayer of input files otherwise). One
    // source file each, not main.swift, so SwiftPM passes -parse-as-library.
    .target(
        name: "FuzzEntries",
        dependencies: ["ImageCodecs", "URLRewriting", "ImageDelivery", "ImageOrigin", "HTTPServer", "HTMLRewriting"],
        path: "Fuzz/FuzzEntries",
        swiftSettings: swiftSettings),
    .executableTarget(
        name: "fuzz-decode", dependencies: ["FuzzEntries"], path: "Fuzz/fuzz-decode",
        swiftSettings: swiftSettings),
    .executableTarget(
        name: "fuzz-transcode", dependencies: ["FuzzEntries"], path: "Fuzz/fuzz-transcode",
        swiftSettings: swiftSettings),
    .executableTarget(
        name: "fuzz-processing", dependencies: ["FuzzEntries"], path: "Fuzz/fuzz-processing",
        swiftSettings: swiftSettings),
    .executableTarget(
        name: "fuzz-rewrite", dependencies: ["FuzzEntries"], path: "Fuzz/fuzz-rewrite",
        swiftSettings: swiftSettings),
    .executableTarget(
        name: "fuzz-request-head", dependencies: ["FuzzEntries"], path: "Fuzz/fuzz-request-head",
        swiftSettings: swiftSettings),
    .executableTarget(
        name: "fuzz-html", dependencies: ["FuzzEntries"], path: "Fuzz/fuzz-html",
        swiftSettings: swiftSettings),

    // The portability check (`make portability`, run by `make test`): the Apple view of the
    // manifest must reach no system library, no unguarded Linux import, no API above the floor.
    // A Linux-side tool (Foundation only), never a product, so it is not part of what it checks.
    .target(
        name: "PortabilityCheck",
        swiftSettings: swiftSettings),
    .executableTarget(
        name: "portability-check",
        dependencies: ["PortabilityCheck"],
        swiftSettings: swiftSettings),

    // Tests.
    .testTarget(
        name: "ImageCodecsTests",
        dependencies: ["ImageCodecs", "TestSupport", "TestTraits"],
        exclude: ["Scripts"],
        swiftSettings: swiftSettings),
    .testTarget(
        name: "HTTPServerTests",
        dependencies: ["TestTraits", "CacheSupport", "ConcurrencySupport", "HTTPServer", "TestSupport"],
        swiftSettings: swiftSettings),
    .testTarget(
        name: "ImageOriginTests",
        dependencies: ["ImageOrigin", "HTTPServer", "HTTPFields", "ImageCodecs", "TestSupport", "TestTraits"],
        swiftSettings: swiftSettings),
    .testTarget(
        name: "ImagePipelineTests",
        dependencies: [
            "TestTraits",
            "ConcurrencySupport",
            "ImagePipeline", "ImageOrigin", "HTTPServer", "URLRewriting", "ImageCodecs",
            "TestSupport", "PipelineTestSupport",
        ],
        swiftSettings: swiftSettings),
    // The behaviour table of the image path: the core, the proxy and the URL protocol.
    .testTarget(
        name: "ImageDeliveryTests",
        dependencies: [
            "TestTraits", "ConcurrencySupport", "ImageDelivery", "BridgeProxy", "WebPURLProtocol", "WebViewBridge",
            "HTTPServer",
            "ImagePipeline", "URLRewriting", "ImageCodecs", "TestSupport",
        ],
        swiftSettings: swiftSettings),
    .testTarget(
        name: "WebPURLProtocolTests",
        dependencies: [
            "TestTraits",
            "ConcurrencySupport", "ImageDelivery", "WebPURLProtocol", "ImagePipeline", "URLRewriting", "ImageCodecs",
            "TestSupport", "PipelineTestSupport",
        ],
        swiftSettings: swiftSettings),
    .testTarget(
        name: "BridgeProxyTests",
        dependencies: [
            "TestTraits",
            "ConcurrencySupport", "BridgeProxy", "ImageDelivery", "HTTPServer", "HTTPFields", "ImagePipeline",
            "ImageOrigin",
            "URLRewriting", "ImageCodecs", "TestSupport", "PipelineTestSupport",
        ],
        swiftSettings: swiftSettings),
    // The test tree's own rules (every suite has a time limit), read from Tests/.
    .testTarget(
        name: "TestTreeTests",
        dependencies: ["TestTraits"],
        swiftSettings: swiftSettings),
    .testTarget(
        name: "WebPBridgeCLITests",
        dependencies: [
            "ConcurrencySupport", "WebPBridgeCLI", "WebPBridgeDemo", "ImageCodecs", "ImageOrigin", "HTTPServer",
            "TestSupport", "TestTraits",
        ],
        swiftSettings: swiftSettings),
    .testTarget(
        name: "WebPBridgeDemoTests",
        dependencies: ["WebPBridgeDemo", "ImageCodecs", "TestSupport", "TestTraits"],
        swiftSettings: swiftSettings),
    .testTarget(
        name: "FuzzRegressionTests",
        dependencies: ["FuzzEntries", "TestTraits"],
        swiftSettings: swiftSettings),
    .testTarget(
        name: "PortabilityCheckTests",
        dependencies: ["PortabilityCheck", "TestSupport", "TestTraits"],
        swiftSettings: swiftSettings),
]

let package = Package(
    name: "WebPBridge",
    // iOS 16 / macOS 13: Duration and ImageIO's AVIF decoding start there (Nuke's floor too).
    platforms: [.iOS(.v16), .macOS(.v13)],
    products: portableProducts + (linuxSide ? linuxProducts : []),
    targets: portableTargets + portableTestTargets + (linuxSide ? linuxTargets : []),
    swiftLanguageModes: [.v6]
)
