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

/// The Linux adapters compiled into the core there (the C codecs and the libcurl loader, in
/// `Sources/Linux/Codecs` and `Sources/Linux/Curl`), as the ImageIO codec and the URLSession loader
/// are on Apple platforms; an Apple build never sees them.
let linuxAdapterSources = linuxSide ? ["Linux/Codecs", "Linux/Curl"] : []
/// The core's target folder is `Sources` (so that it can take in `Linux/Codecs` and `Linux/Curl`):
/// every other module's folder is excluded from it by name.
let otherModuleFolders = [
    "Portable/WebPURLProtocol", "Portable/WebViewBridge", "Portable/WebPBridgeUI", "Linux/C", "Linux/HTTPServer",
    "Linux/ImageOrigin", "Linux/BridgeProxy", "Linux/WebPBridgeDemo", "Linux/WebPBridgeCLI", "Linux/webp-bridge",
]
let linuxAdapterLibraries: [Target.Dependency] =
    linuxSide ? ["CWebP", "CTurboJPEG", "CSPNG", "CGIF", "CAVIF", "CCurl"] : []

/// What an app adds: the core, the two adapters for consumers that cannot decode WebP, and the
/// Apple views (empty on Linux).
let portableProducts: [Product] = [
    .library(name: "WebPBridge", targets: ["WebPBridge"]),
    .library(name: "WebPURLProtocol", targets: ["WebPURLProtocol"]),
    .library(name: "WebViewBridge", targets: ["WebViewBridge"]),
    .library(name: "WebPBridgeUI", targets: ["WebPBridgeUI"]),
]

/// What a publisher runs on Linux.
let linuxProducts: [Product] = [
    .executable(name: "webp-bridge", targets: ["webp-bridge"]),
    .library(name: "HTTPServer", targets: ["HTTPServer"]),
    .library(name: "ImageOrigin", targets: ["ImageOrigin"]),
    .library(name: "BridgeProxy", targets: ["BridgeProxy"]),
]

let portableTargets: [Target] = [
    // The core (Sources/Portable/WebPBridge): concurrency (lock, worker threads, the bounded WorkQueue),
    // image types and the codec protocol, HTTP field semantics, URL rewriting and client policy, the
    // streaming HTML rewriter, the cost-bounded caches, the pipeline and the bridge core. On Apple
    // platforms it decodes with ImageIO and fetches with URLSession; on Linux the C codecs and libcurl
    // (Sources/Linux/Codecs, Sources/Linux/Curl) are compiled in.
    .target(
        name: "WebPBridge",
        dependencies: linuxAdapterLibraries,
        path: "Sources",
        exclude: otherModuleFolders + (linuxSide ? [] : ["Linux/Codecs", "Linux/Curl"]),
        sources: ["Portable/WebPBridge"] + linuxAdapterSources,
        swiftSettings: swiftSettings),
    // A URLProtocol answering image requests from the bridge core, for URLSession clients.
    .target(
        name: "WebPURLProtocol",
        dependencies: ["WebPBridge"],
        path: "Sources/Portable/WebPURLProtocol",
        swiftSettings: swiftSettings),
    // A WKWebView's custom scheme answered from the bridge core: the portable decisions, and the
    // WKURLSchemeHandler adapter (compiled where WebKit exists).
    .target(
        name: "WebViewBridge",
        dependencies: ["WebPBridge"],
        path: "Sources/Portable/WebViewBridge",
        swiftSettings: swiftSettings),
    // The Apple views (SwiftUI, UIImageView, NSImageView), the platform-image conversion and the
    // NWPathMonitor feed: Apple-only adapters over the core's Presentation decisions; every file sits
    // under `#if canImport(…)`, so on Linux the module is empty.
    .target(
        name: "WebPBridgeUI",
        dependencies: ["WebPBridge"],
        path: "Sources/Portable/WebPBridgeUI",
        swiftSettings: swiftSettings),
    // Test helpers that build everywhere: the off-the-global-executor trait, a seeded generator.
    .target(
        name: "TestTraits",
        dependencies: ["WebPBridge"],
        path: "Tests/Helpers/TestTraits",
        swiftSettings: swiftSettings),
    // The one module of test doubles and fixtures (re-exports TestTraits): the scripted DataLoading,
    // client profiles, the raw HTTP client and upstream build everywhere; `Linux/` (helpers over the
    // C codecs, the server and child processes) only where the manifest adds the Linux side.
    .target(
        name: "TestSupport",
        dependencies: ["TestTraits", "WebPBridge"] + (linuxSide ? ["HTTPServer"] : []),
        path: "Tests/Helpers/TestSupport",
        exclude: linuxSide ? [] : ["Linux"],
        swiftSettings: swiftSettings),
]

/// The tests an Apple build runs: those whose dependencies are all portable.
let portableTestTargets: [Target] = [
    // The core's suites, one folder per part (Coding, Rewriting, Concurrency, Caching, HTML, Fields).
    .testTarget(
        name: "WebPBridgeTests",
        dependencies: ["TestSupport", "TestTraits", "WebPBridge"],
        // HTML/Resources and Fields/Resources are read in place (by #filePath; e2e/nginx_classes.py reads
        // the Accept table too).
        exclude: ["HTML/Resources", "Fields/Resources"],
        resources: [.copy("Rewriting/Resources")],
        swiftSettings: swiftSettings)
]

let linuxTargets: [Target] = [
    // System libraries (Debian -dev packages; Homebrew on macOS), in Sources/Linux/C.
    .systemLibrary(
        name: "CWebP", path: "Sources/Linux/C/CWebP", pkgConfig: "libwebp",
        providers: [.apt(["libwebp-dev"]), .brew(["webp"])]),
    .systemLibrary(
        name: "CTurboJPEG", path: "Sources/Linux/C/CTurboJPEG", pkgConfig: "libturbojpeg",
        providers: [.apt(["libturbojpeg0-dev"]), .brew(["jpeg-turbo"])]),
    .systemLibrary(
        name: "CSPNG", path: "Sources/Linux/C/CSPNG", pkgConfig: "spng",
        providers: [.apt(["libspng-dev"]), .brew(["libspng"])]),
    // No pkgConfig: libavif.pc's cflags carry -DAVIF_DLL (a Windows dllimport switch), which SwiftPM
    // refuses with a warning on every build; the header and library are on the default paths.
    .systemLibrary(
        name: "CAVIF", path: "Sources/Linux/C/CAVIF",
        providers: [.apt(["libavif-dev"]), .brew(["libavif"])]),
    .systemLibrary(
        name: "CGIF", path: "Sources/Linux/C/CGIF",
        providers: [.apt(["libgif-dev"]), .brew(["giflib"])]),
    .systemLibrary(
        name: "CMicroHTTPD", path: "Sources/Linux/C/CMicroHTTPD", pkgConfig: "libmicrohttpd",
        providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]),
    .systemLibrary(
        name: "CCurl", path: "Sources/Linux/C/CCurl", pkgConfig: "libcurl",
        providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]),

    // The HTTP server on libmicrohttpd, the image origin, the bridging proxy.
    .target(
        name: "HTTPServer",
        dependencies: ["WebPBridge", "CMicroHTTPD"],
        path: "Sources/Linux/HTTPServer",
        swiftSettings: swiftSettings),
    .target(
        name: "ImageOrigin",
        dependencies: ["WebPBridge", "HTTPServer"],
        path: "Sources/Linux/ImageOrigin",
        swiftSettings: swiftSettings),
    .target(
        name: "BridgeProxy",
        dependencies: ["WebPBridge", "HTTPServer"],
        path: "Sources/Linux/BridgeProxy",
        swiftSettings: swiftSettings),
    // The `demo` command's sample site, servers, client and report; the CLI hands it its bridges.
    .target(
        name: "WebPBridgeDemo",
        dependencies: ["WebPBridge", "HTTPServer", "ImageOrigin", "BridgeProxy"],
        path: "Sources/Linux/WebPBridgeDemo",
        swiftSettings: swiftSettings),
    .target(
        name: "WebPBridgeCLI",
        dependencies: ["WebPBridge", "HTTPServer", "ImageOrigin", "WebPURLProtocol", "BridgeProxy", "WebPBridgeDemo"],
        path: "Sources/Linux/WebPBridgeCLI",
        swiftSettings: swiftSettings),
    .executableTarget(
        name: "webp-bridge",
        dependencies: ["WebPBridgeCLI"],
        path: "Sources/Linux/webp-bridge",
        swiftSettings: swiftSettings),
    // Benchmarks (run by `make bench-…`, never by tests).
    .executableTarget(
        name: "codecs-benchmark",
        dependencies: ["WebPBridge"],
        path: "Benchmarks/CodecsBenchmark",
        swiftSettings: swiftSettings),
    .executableTarget(
        name: "rewrite-benchmark",
        dependencies: ["WebPBridge", "TestSupport"],
        path: "Benchmarks/RewriteBenchmark",
        swiftSettings: swiftSettings),
    // Resident memory over a long run: a loader alone, or the whole pipeline.
    .executableTarget(
        name: "loader-memory",
        dependencies: ["WebPBridge", "HTTPServer", "ImageOrigin", "TestSupport"],
        path: "Benchmarks/LoaderMemory",
        swiftSettings: swiftSettings),
    .executableTarget(
        name: "pipeline-benchmark",
        dependencies: ["WebPBridge", "HTTPServer", "ImageOrigin", "TestSupport"],
        path: "Benchmarks/PipelineBenchmark",
        swiftSettings: swiftSettings),
    // `make bench-origin`: one server's load, the SSIM of its variants, the WebP settings sweep.
    .executableTarget(
        name: "origin-benchmark",
        dependencies: ["WebPBridge", "TestSupport"],
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
        dependencies: ["WebPBridge", "TestSupport"],
        path: "Tests/Helpers/CacheWriter",
        swiftSettings: swiftSettings),
    // A live image origin with injected faults, for the pipeline's and the URL protocol's tests; the AVIF
    // variant loader the proxy's and the URL protocol's AVIF tests share.
    .target(
        name: "PipelineTestSupport",
        dependencies: ["WebPBridge", "HTTPServer", "ImageOrigin", "TestSupport"],
        path: "Tests/Helpers/PipelineTestSupport",
        swiftSettings: swiftSettings),

    // Fuzzing (`make fuzz`): the entries each fuzz target calls, shared with the
    // crasher replay test, and one executable per target (libFuzzer when built
    // with -sanitize=fuzzer -D FUZZING, a replayer of input files otherwise). One
    // source file each, not main.swift, so SwiftPM passes -parse-as-library.
    .target(
        name: "FuzzEntries",
        dependencies: ["WebPBridge", "ImageOrigin", "HTTPServer"],
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
    .executableTarget(
        name: "fuzz-variant", dependencies: ["FuzzEntries"], path: "Fuzz/fuzz-variant",
        swiftSettings: swiftSettings),

    // The portability check (`make portability`, run by `make test`): the Apple view of the
    // manifest must reach no system library, no unguarded Linux import, no API above the floor.
    // A Linux-side tool (Foundation only), never a product, so it is not part of what it checks.
    .target(
        name: "PortabilityCheck",
        path: "Tools/PortabilityCheck",
        swiftSettings: swiftSettings),
    .executableTarget(
        name: "portability-check",
        dependencies: ["PortabilityCheck"],
        path: "Tools/portability-check",
        swiftSettings: swiftSettings),

    // Tests.
    .testTarget(
        name: "ImageCodecsTests",
        dependencies: ["WebPBridge", "TestSupport", "TestTraits"],
        exclude: ["Scripts"],
        swiftSettings: swiftSettings),
    .testTarget(
        name: "HTTPServerTests",
        dependencies: ["TestTraits", "WebPBridge", "HTTPServer", "TestSupport"],
        swiftSettings: swiftSettings),
    .testTarget(
        name: "ImageOriginTests",
        dependencies: ["ImageOrigin", "HTTPServer", "WebPBridge", "TestSupport", "TestTraits"],
        swiftSettings: swiftSettings),
    .testTarget(
        name: "ImagePipelineTests",
        dependencies: ["TestTraits", "WebPBridge", "ImageOrigin", "HTTPServer", "TestSupport", "PipelineTestSupport"],
        swiftSettings: swiftSettings),
    // The behaviour table of the image path: the core, the proxy and the URL protocol.
    .testTarget(
        name: "ImageDeliveryTests",
        dependencies: [
            "TestTraits", "WebPBridge", "BridgeProxy", "WebPURLProtocol", "WebViewBridge", "HTTPServer", "TestSupport",
        ],
        swiftSettings: swiftSettings),
    .testTarget(
        name: "WebPURLProtocolTests",
        dependencies: ["TestTraits", "WebPBridge", "WebPURLProtocol", "TestSupport", "PipelineTestSupport"],
        swiftSettings: swiftSettings),
    .testTarget(
        name: "BridgeProxyTests",
        dependencies: [
            "TestTraits", "WebPBridge", "BridgeProxy", "HTTPServer", "ImageOrigin", "TestSupport",
            "PipelineTestSupport",
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
            "WebPBridge", "WebPBridgeCLI", "WebPBridgeDemo", "ImageOrigin", "HTTPServer", "TestSupport", "TestTraits",
        ],
        swiftSettings: swiftSettings),
    .testTarget(
        name: "WebPBridgeDemoTests",
        dependencies: ["WebPBridgeDemo", "WebPBridge", "ImageOrigin", "TestSupport", "TestTraits"],
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
