/// What an image view shows and loads, decided in one place: a pure state
/// machine that a view (SwiftUI, `UIImageView`, `NSImageView`) owns. The view
/// reports what happened (``Event``); the machine answers with what to do
/// (``Effect``): start or cancel a load, show the placeholder, an image
/// (faded in or not) or the failure image. The Apple views only translate
/// those effects; every decision is here and tested on Linux.
///
/// The rules, in short (docs/apple.md has the whole table):
/// - a request whose image is in the memory cache is shown at once with no
///   fade and no placeholder, so a list scrolled back shows no flash;
/// - otherwise the placeholder is shown and a load starts; its final image
///   fades in (when ``Options/fadesIn``), unless a progressive partial is
///   already on screen;
/// - setting the request a view already shows or loads does nothing (a
///   SwiftUI body run again, a cell configured twice);
/// - a new request cancels the load of the old one, and anything the old
///   load still reports is ignored (cell reuse): each load has a
///   ``LoadID`` and events of any other load are dropped;
/// - cancelling (the view disappears) keeps what is shown; setting the same
///   request again resumes it.
///
/// The machine holds one request and one load at most, whatever the events:
/// its memory is constant.
public struct ImageLoadStateMachine: Sendable {
    /// How the view presents its loads.
    public struct Options: Sendable, Hashable {
        /// Whether the view has placeholder content to show while loading
        /// (otherwise it shows nothing).
        public var showsPlaceholder: Bool
        /// Whether the view has failure content to show when a load fails
        /// (otherwise the placeholder, or nothing, stays).
        public var showsFailureImage: Bool
        /// Whether an image that arrives after a placeholder fades in.
        public var fadesIn: Bool

        /// Options; by default a placeholder, a failure image and a fade.
        public init(showsPlaceholder: Bool = true, showsFailureImage: Bool = true, fadesIn: Bool = true) {
            self.showsPlaceholder = showsPlaceholder
            self.showsFailureImage = showsFailureImage
            self.fadesIn = fadesIn
        }
    }

    /// Names one load the machine started; events carry it back so that a
    /// replaced load's late events are told apart.
    public struct LoadID: Sendable, Hashable, CustomStringConvertible {
        let rawValue: UInt64

        public var description: String { "load \(rawValue)" }
    }

    /// What the view shows.
    public enum Display: Sendable, Hashable {
        /// Nothing (no request, or no placeholder while loading).
        case empty
        /// The placeholder.
        case placeholder
        /// A progressive partial image of the load in flight.
        case partial
        /// The final image.
        case image(isAnimated: Bool)
        /// The failure image.
        case failure
    }

    /// How an image replaces what was shown.
    public enum Transition: Sendable, Hashable {
        /// At once.
        case none
        /// Faded in over what was shown.
        case fade
    }

    /// What happened.
    public enum Event: Sendable {
        /// The view is given `request` (a new one, a cell reused for another
        /// item, the same one again), or none. `memoryHit` is the pipeline's
        /// memory-cache image for it, looked up synchronously
        /// (``ImagePipeline/cachedImage(for:)``), or `nil`.
        case setRequest(ImageRequest?, memoryHit: DecodedImage?)
        /// Load `id` produced a progressive partial image.
        case partial(LoadID, DecodedImage)
        /// Load `id` produced its final image.
        case succeeded(LoadID, DecodedImage)
        /// Load `id` ended without an image; `isCancellation` when it was
        /// cancelled rather than failed.
        case failed(LoadID, isCancellation: Bool)
        /// Stop loading (the view disappeared): what is shown stays.
        case cancel
        /// The view is going away: stop everything, show nothing more.
        case viewGone
    }

    /// What the view does.
    public enum Effect: Sendable, Equatable {
        /// Start loading `request` (progressively), reporting its events
        /// with `id`.
        case startLoad(LoadID, ImageRequest)
        /// Cancel load `id`.
        case cancelLoad(LoadID)
        /// Show nothing.
        case clear
        /// Show the placeholder.
        case showPlaceholder
        /// Show `image` (a partial or the final one) with `transition`.
        case showImage(DecodedImage, Transition)
        /// Show the failure image.
        case showFailure
    }

    public let options: Options
    /// The request the view shows or loads, if any.
    public private(set) var request: ImageRequest?
    /// What the view shows now.
    public private(set) var display: Display = .empty
    /// The load in flight, if any.
    public private(set) var loading: LoadID?
    private var nextLoad: UInt64 = 0

    /// A machine showing nothing.
    public init(options: Options = Options()) {
        self.options = options
    }

    /// Applies `event` and returns the effects, in the order to perform them.
    public mutating func handle(_ event: Event) -> [Effect] {
        switch event {
        case .setRequest(let newRequest, let memoryHit):
            return setRequest(newRequest, memoryHit: memoryHit)
        case .partial(let id, let image):
            guard id == loading else { return [] }
            display = .partial
            return [.showImage(image, .none)]
        case .succeeded(let id, let image):
            guard id == loading else { return [] }
            loading = nil
            let transition: Transition = options.fadesIn && display != .partial ? .fade : .none
            display = .image(isAnimated: image.frameCount > 1)
            return [.showImage(image, transition)]
        case .failed(let id, let isCancellation):
            guard id == loading else { return [] }
            loading = nil
            if isCancellation { return [] }
            if options.showsFailureImage {
                display = .failure
                return [.showFailure]
            }
            return rest()
        case .cancel:
            guard let id = loading else { return [] }
            loading = nil
            return [.cancelLoad(id)]
        case .viewGone:
            let effects: [Effect] = loading.map { [.cancelLoad($0)] } ?? []
            loading = nil
            request = nil
            display = .empty
            return effects
        }
    }

    private mutating func setRequest(_ newRequest: ImageRequest?, memoryHit: DecodedImage?) -> [Effect] {
        if let newRequest, newRequest == request {
            // The same request again: nothing to do while it loads or is shown.
            if loading != nil { return [] }
            if case .image = display { return [] }
        }
        var effects: [Effect] = []
        if let id = loading, newRequest != request || newRequest == nil {
            effects.append(.cancelLoad(id))
        }
        loading = nil
        let resuming = newRequest != nil && newRequest == request
        request = newRequest
        guard let newRequest else { return effects + rest() }
        if let memoryHit {
            display = .image(isAnimated: memoryHit.frameCount > 1)
            return effects + [.showImage(memoryHit, .none)]
        }
        // A resumed load keeps a partial on screen; anything else starts
        // from the placeholder.
        if !(resuming && display == .partial) { effects += rest() }
        let id = LoadID(rawValue: nextLoad)
        nextLoad &+= 1
        loading = id
        effects.append(.startLoad(id, newRequest))
        return effects
    }

    /// The placeholder (or nothing), unless it is already shown.
    private mutating func rest() -> [Effect] {
        let resting: Display = options.showsPlaceholder ? .placeholder : .empty
        if display == resting { return [] }
        display = resting
        return [options.showsPlaceholder ? .showPlaceholder : .clear]
    }
}
