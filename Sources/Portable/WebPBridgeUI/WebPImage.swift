// Apple-only (SwiftUI): compiled where `canImport(SwiftUI)` holds; on Linux this file is empty, and
// `make portability` type-checks it against Tests/StandIns/SwiftUI (once with UIKit, once with
// AppKit). A translator only: every decision is ImageLoadStateMachine's.
#if canImport(SwiftUI)
    import CoreGraphics
    public import Foundation
    public import SwiftUI
    public import WebPBridge

    /// A SwiftUI view that loads an image through a pipeline, in the shape
    /// of `AsyncImage` and Nuke's `LazyImage`: placeholder content while
    /// loading, failure content when no image can be had, an image already
    /// in the memory cache shown as soon as the view appears with no fade,
    /// the load cancelled when the view disappears and resumed when it
    /// reappears, a new URL replacing the old one's load.
    ///
    /// ```swift
    /// WebPImage(url: item.url, pipeline: pipeline) { image in
    ///     image.resizable().scaledToFill()
    /// } placeholder: {
    ///     Color.gray
    /// } failure: {
    ///     Image(systemName: "photo")
    /// }
    /// ```
    ///
    /// An animation shows its first frame (SwiftUI's `Image` does not
    /// animate); use `UIImageView`'s ``ImageViewLoading`` for animations.
    @MainActor
    public struct WebPImage<Content: View, Placeholder: View, Failure: View>: View {
        private let request: ImageRequest?
        private let pipeline: ImagePipeline
        private let fadesIn: Bool
        private let content: (SwiftUI.Image) -> Content
        private let placeholder: () -> Placeholder
        private let failure: () -> Failure
        @State private var shown: Shown = .placeholder
        @State private var loader = Loader()
        @Environment(\.displayScale) private var displayScale

        /// A view of `url`'s image (`nil`: the placeholder) from `pipeline`,
        /// decoded at `targetSize` when given; `fadesIn`: an image that
        /// arrives after the placeholder fades in.
        public init(
            url: URL?, pipeline: ImagePipeline, targetSize: ImageRequest.TargetSize? = nil, fadesIn: Bool = true,
            @ViewBuilder content: @escaping (SwiftUI.Image) -> Content,
            @ViewBuilder placeholder: @escaping () -> Placeholder, @ViewBuilder failure: @escaping () -> Failure
        ) {
            self.request = url.map { ImageRequest(url: $0, targetSize: targetSize) }
            self.pipeline = pipeline
            self.fadesIn = fadesIn
            self.content = content
            self.placeholder = placeholder
            self.failure = failure
        }

        public var body: some View {
            current
                .onAppear { load(request) }
                .onDisappear { loader.controller?.cancel() }
                .onChange(of: request) { load($0) }
        }

        @ViewBuilder private var current: some View {
            switch shown {
            case .placeholder: placeholder()
            case .failure: failure()
            case .image(let image): content(image).transition(.opacity)
            }
        }

        private func load(_ request: ImageRequest?) {
            let controller: ImageLoadController
            if let existing = loader.controller {
                controller = existing
            } else {
                controller = ImageLoadController(
                    pipeline: pipeline,
                    options: .init(showsPlaceholder: true, showsFailureImage: true, fadesIn: fadesIn))
                loader.controller = controller
            }
            let shown = $shown
            let scale = displayScale
            controller.onDisplay = { effect in
                switch effect {
                case .clear, .showPlaceholder: shown.wrappedValue = .placeholder
                case .showFailure: shown.wrappedValue = .failure
                case .showImage(let image, let transition):
                    // A frame CoreGraphics refuses is shown as a failure.
                    let next = image.makeCGImage().map { Shown.image(SwiftUI.Image(decorative: $0, scale: scale)) }
                    if transition == .fade {
                        withAnimation(.easeIn(duration: 0.25)) { shown.wrappedValue = next ?? .failure }
                    } else {
                        shown.wrappedValue = next ?? .failure
                    }
                case .startLoad, .cancelLoad: break
                }
            }
            controller.setRequest(request)
        }

        private enum Shown {
            case placeholder
            case image(SwiftUI.Image)
            case failure
        }

        /// Holds the controller across the view's updates.
        @MainActor private final class Loader {
            var controller: ImageLoadController?
        }
    }
#endif
