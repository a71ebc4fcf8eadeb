// swift-tools-version:6.0
import PackageDescription

/// Settings every Swift target shares: Swift 6 strict concurrency plus the
/// upcoming features that keep imports and existentials explicit.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "WebPBridge",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "webp-bridge", targets: ["webp-bridge"]),
        .library(name: "ImageCodecs", targets: ["ImageCodecs"]),
    ],
    targets: [
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
        .systemLibrary(
            name: "CGIF",
            providers: [.apt(["libgif-dev"]), .brew(["giflib"])]),

        .target(
            name: "ImageCodecs",
            dependencies: ["CWebP", "CTurboJPEG", "CSPNG", "CGIF"],
            swiftSettings: swiftSettings),
        .target(
            name: "WebPBridgeCLI",
            dependencies: ["ImageCodecs"],
            swiftSettings: swiftSettings),
        .executableTarget(
            name: "webp-bridge",
            dependencies: ["WebPBridgeCLI"],
            swiftSettings: swiftSettings),
        .target(
            name: "TestSupport",
            dependencies: ["ImageCodecs"],
            swiftSettings: swiftSettings),

        .testTarget(
            name: "ImageCodecsTests",
            dependencies: ["ImageCodecs", "TestSupport"],
            exclude: ["Scripts"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "WebPBridgeCLITests",
            dependencies: ["WebPBridgeCLI", "ImageCodecs", "TestSupport"],
            swiftSettings: swiftSettings),
    ],
    swiftLanguageModes: [.v6]
)
