// Apple-only (the Objective-C runtime): compiled where `canImport(ObjectiveC)` holds; on Linux this
// file is empty, and `make portability` type-checks it against Tests/StandIns/ObjectiveC. Where
// UIImageView.wb and NSImageView.wb keep a view's ImageLoadController.
#if canImport(ObjectiveC)
    import ObjectiveC
    import WebPBridge

    /// The ``ImageLoadController`` kept with a view (an associated object,
    /// released with the view), shared by the `UIImageView` and
    /// `NSImageView` adapters.
    @MainActor
    enum ViewLoadController {
        /// The controller `view` has now, if any.
        static func current(of view: AnyObject) -> ImageLoadController? {
            objc_getAssociatedObject(view, &associationKey) as? ImageLoadController
        }

        /// `view`'s controller for `pipeline` and `options`: the one it has,
        /// or a new one when the pipeline or the options changed, after the
        /// old one's load is cancelled.
        static func controller(
            of view: AnyObject, pipeline: ImagePipeline, options: ImageLoadStateMachine.Options
        ) -> ImageLoadController {
            if let existing = current(of: view), existing.pipeline === pipeline, existing.machine.options == options {
                return existing
            }
            current(of: view)?.viewGone()
            let controller = ImageLoadController(pipeline: pipeline, options: options)
            objc_setAssociatedObject(view, &associationKey, controller, .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
            return controller
        }
    }

    /// The associated-object key: its address is what counts.
    @MainActor private var associationKey: UInt8 = 0
#endif
