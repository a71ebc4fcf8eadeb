import WebPBridge

/// Parsed processing requests by their text, so that the fop of a popular
/// variant URL (`imageView2/2/w/750/format/webp`) is parsed once rather than
/// on every request. Only valid fops are kept.
///
/// Bounded in bytes, the fop text included (an `LRUStore`: the least
/// recently used goes first); a fop longer than
/// `LRUStore.defaultMaxKeyBytes` (4 KiB) is parsed for every request and
/// never kept, so random fops cannot grow it.
///
/// Thread-safe: one `Lock` guards the entries.
final class PipelineMemory: Sendable {
    private let pipelines: Lock<LRUStore<ProcessingPipeline>>

    /// - Parameter capacityBytes: The most bytes held; see
    ///   ``ImageOrigin/MemoryBudget/pipelineMemoryBytes``.
    init(capacityBytes: Int) {
        pipelines = Lock(LRUStore(capacity: max(0, capacityBytes)))
    }

    /// The pipeline `fop` describes.
    /// - Throws: ``ProcessingError`` from ``ProcessingParser/parse(_:)``.
    func pipeline(for fop: String) throws(ProcessingError) -> ProcessingPipeline {
        if let known = pipelines.withLock({ $0.value(for: fop) }) { return known }
        let parsed = try ProcessingParser.parse(fop)
        let cost = 64 + parsed.steps.count * MemoryLayout<ImageOperation>.stride
        pipelines.withLock { _ = $0.insert(parsed, for: fop, cost: cost) }
        return parsed
    }

    /// Pipelines remembered now.
    var count: Int { pipelines.withLock { $0.count } }

    /// Bytes accounted now, fops included.
    var totalBytes: Int { pipelines.withLock { $0.totalCost } }
}
