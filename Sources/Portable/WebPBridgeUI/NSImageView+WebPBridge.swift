// Apple-only (AppKit): compiled on macOS (`canImport(AppKit)` without UIKit); on Linux this file is
// empty, and `make portability` type-checks it against Tests/StandIns/AppKit. A translator only:
// every decision is ImageLoadStateMachine's.
#if canImport(AppKit) && !canImport(UIKit)
    public import AppKit
    import Foundation
    public import WebPBridge

    extension NSImageView {
        /// This view's image loading: `imageView.wb.setImage(with: url, pipeline: pipeline)`.
        public var wb: ImageViewLoading { ImageViewLoading(view: self) }
    }

    /// Loads images into an `NSImageView` through a pipeline: a placeholder
    /// while loading, a failure image, a memory-cache hit shown at once, the
    /// previous load cancelled on reuse (a table cell). Images are set
    /// without a fade, and an animation shows its first frame
    /// (``WebPBridge/DecodedImage/makeNSImage()``).
    @MainActor
    public struct ImageViewLoading {
        let view: NSImageView

        /// Shows `url`'s image (or, `nil`, the placeholder), cancelling the
        /// load of whatever the view showed before.
        public func setImage(
            with url: URL?, pipeline: ImagePipeline, placeholder: NSImage? = nil, failureImage: NSImage? = nil,
            targetSize: ImageRequest.TargetSize? = nil
        ) {
            let options = ImageLoadStateMachine.Options(
                showsPlaceholder: placeholder != nil, showsFailureImage: failureImage != nil, fadesIn: false)
            let controller = controller(pipeline: pipeline, options: options)
            controller.onDisplay = { [weak view] effect in
                guard let view else { return }
                switch effect {
                case .clear: view.image = nil
                case .showPlaceholder: view.image = placeholder
                case .showFailure: view.image = failureImage
                case .showImage(let image, _): view.image = image.makeNSImage()
                case .startLoad, .cancelLoad: break
                }
            }
            controller.setRequest(url.map { ImageRequest(url: $0, targetSize: targetSize) })
        }

        /// Cancels the load in flight; what is shown stays.
        public func cancel() {
            loadController?.cancel()
        }

        private var loadController: ImageLoadController? { ViewLoadController.current(of: view) }

        private func controller(pipeline: ImagePipeline, options: ImageLoadStateMachine.Options)
            -> ImageLoadController
        {
            ViewLoadController.controller(of: view, pipeline: pipeline, options: options)
        }
    }
#endif
