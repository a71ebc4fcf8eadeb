// Apple-only (UIKit): compiled where `canImport(UIKit)` holds; on Linux this file is empty, and
// `make portability` type-checks it against Tests/StandIns/UIKit. A translator only: every
// decision (memory hit, placeholder, fade, reuse, late completions) is ImageLoadStateMachine's.
#if canImport(UIKit)
    import CoreGraphics
    public import Foundation
    public import UIKit
    public import WebPBridge

    extension UIImageView {
        /// This view's image loading: `imageView.wb.setImage(with: url, pipeline: pipeline)`.
        public var wb: ImageViewLoading { ImageViewLoading(view: self) }
    }

    /// Loads images into a `UIImageView` through a pipeline, in the shape
    /// Nuke and Kingfisher users know: a placeholder while loading, a failure
    /// image, a memory-cache hit shown at once with no fade, and a cell's
    /// previous load cancelled when it is reused for another item.
    ///
    /// ```swift
    /// cell.photoView.wb.setImage(with: item.url, pipeline: pipeline, placeholder: UIImage(named: "grey"))
    /// ```
    @MainActor
    public struct ImageViewLoading {
        let view: UIImageView

        /// Shows `url`'s image (or, `nil`, the placeholder), cancelling the
        /// load of whatever the view showed before.
        /// - Parameters:
        ///   - targetSize: the size to decode at; `nil` (the default): the
        ///     view's bounds are not read, the image is decoded whole.
        ///   - fadeDuration: seconds an arriving image fades in over the
        ///     placeholder; 0: no fade.
        public func setImage(
            with url: URL?, pipeline: ImagePipeline, placeholder: UIImage? = nil, failureImage: UIImage? = nil,
            targetSize: ImageRequest.TargetSize? = nil, fadeDuration: TimeInterval = 0.25
        ) {
            setImage(
                with: url.map { ImageRequest(url: $0, targetSize: targetSize) }, pipeline: pipeline,
                placeholder: placeholder, failureImage: failureImage, fadeDuration: fadeDuration)
        }

        /// Shows `request`'s image, as ``setImage(with:pipeline:placeholder:failureImage:targetSize:fadeDuration:)``.
        public func setImage(
            with request: ImageRequest?, pipeline: ImagePipeline, placeholder: UIImage? = nil,
            failureImage: UIImage? = nil, fadeDuration: TimeInterval = 0.25
        ) {
            let options = ImageLoadStateMachine.Options(
                showsPlaceholder: placeholder != nil, showsFailureImage: failureImage != nil,
                fadesIn: fadeDuration > 0)
            let controller = controller(pipeline: pipeline, options: options)
            controller.onDisplay = { [weak view] effect in
                guard let view else { return }
                switch effect {
                case .clear: view.image = nil
                case .showPlaceholder: view.image = placeholder
                case .showFailure: view.image = failureImage
                case .showImage(let image, let transition):
                    let shown = image.makeUIImage(scale: view.traitCollection.displayScale)
                    if transition == .fade {
                        UIView.transition(
                            with: view, duration: fadeDuration, options: .transitionCrossDissolve,
                            animations: { view.image = shown })
                    } else {
                        view.image = shown
                    }
                case .startLoad, .cancelLoad: break
                }
            }
            controller.setRequest(request)
        }

        /// Cancels the load in flight (e.g. in `prepareForReuse`, or when
        /// the cell leaves the screen); what is shown stays.
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
