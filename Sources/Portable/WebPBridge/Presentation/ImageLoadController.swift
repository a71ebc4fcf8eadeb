/// Runs an ``ImageLoadStateMachine`` for one view: performs its load effects
/// on the pipeline (a progressive load per request, cancelled when the
/// machine says so) and hands the display effects to the view, which only
/// draws them. The Apple views (WebPBridgeUI) each own one.
///
/// Main-actor isolated, as the views are; every event reaches the machine on
/// the main actor, so no late event can race a newer request.
@MainActor
public final class ImageLoadController {
    public let pipeline: ImagePipeline
    /// The machine, for inspection.
    public private(set) var machine: ImageLoadStateMachine
    /// Draws a display effect: ``ImageLoadStateMachine/Effect/clear``,
    /// `showPlaceholder`, `showImage` or `showFailure`.
    public var onDisplay: @MainActor (ImageLoadStateMachine.Effect) -> Void
    private var load: (id: ImageLoadStateMachine.LoadID, task: Task<Void, Never>)? {
        didSet { runningTask.withLock { $0 = load?.task } }
    }
    /// The load's task again, outside the main actor, for `deinit` (which is
    /// nonisolated on every Swift 6 compiler this package supports).
    private nonisolated let runningTask = Lock<Task<Void, Never>?>(nil)

    /// A controller for a view presenting with `options`; `onDisplay` draws.
    public init(
        pipeline: ImagePipeline, options: ImageLoadStateMachine.Options = .init(),
        onDisplay: @escaping @MainActor (ImageLoadStateMachine.Effect) -> Void = { _ in }
    ) {
        self.pipeline = pipeline
        self.machine = ImageLoadStateMachine(options: options)
        self.onDisplay = onDisplay
    }

    /// Shows `request` (or nothing): a memory-cache image at once, else the
    /// placeholder and a load. The same request again does nothing unless
    /// its load was cancelled or failed.
    public func setRequest(_ request: ImageRequest?) {
        let hit = request.flatMap { pipeline.cachedImage(for: $0)?.image }
        perform(machine.handle(.setRequest(request, memoryHit: hit)))
    }

    /// Stops the load in flight (the view disappeared); what is shown stays.
    public func cancel() { perform(machine.handle(.cancel)) }

    /// Stops everything for good (the view is going away).
    public func viewGone() { perform(machine.handle(.viewGone)) }

    deinit {
        runningTask.withLock { $0?.cancel() }
    }

    /// Whether a load is in flight.
    public var isLoading: Bool { load != nil }

    private func perform(_ effects: [ImageLoadStateMachine.Effect]) {
        for effect in effects {
            switch effect {
            case .startLoad(let id, let request): start(id, request)
            case .cancelLoad(let id):
                if load?.id == id {
                    load?.task.cancel()
                    load = nil
                }
            case .clear, .showPlaceholder, .showImage, .showFailure: onDisplay(effect)
            }
        }
    }

    private func start(_ id: ImageLoadStateMachine.LoadID, _ request: ImageRequest) {
        let images = pipeline.images(for: request)
        let task = Task { [weak self] in
            var finished = false
            do {
                for try await response in images {
                    finished = response.isFinal
                    self?.receive(response.isFinal ? .succeeded(id, response.image) : .partial(id, response.image))
                    if finished { break }
                }
                if !finished { self?.receive(.failed(id, isCancellation: Task.isCancelled)) }
            } catch {
                let isCancellation = (error as? ImagePipelineError)?.isCancellation ?? false
                self?.receive(.failed(id, isCancellation: isCancellation || Task.isCancelled))
            }
        }
        load = (id, task)
    }

    private func receive(_ event: ImageLoadStateMachine.Event) {
        switch event {
        case .succeeded(let id, _), .failed(let id, _):
            if load?.id == id { load = nil }
        default: break
        }
        perform(machine.handle(event))
    }
}
