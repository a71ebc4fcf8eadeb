import Synchronization

/// Parsed processing requests by their text, so that the fop of a popular
/// variant URL (`imageView2/2/w/750/format/webp`) is parsed once rather than
/// on every request. Only valid fops are kept; bounded in entries and
/// forgotten all at once when full, so random fops cannot grow it.
///
/// Thread-safe: one `Mutex` guards the entries.
final class PipelineMemory: Sendable {
    private let capacity: Int
    private let pipelines = Mutex<[String: ProcessingPipeline]>([:])

    init(capacity: Int = 1024) { self.capacity = capacity }

    /// Pipelines remembered now.
    var count: Int { pipelines.withLock { $0.count } }

    /// The pipeline `fop` describes.
    /// - Throws: ``ProcessingError`` from ``ProcessingParser/parse(_:)``.
    func pipeline(for fop: String) throws(ProcessingError) -> ProcessingPipeline {
        if let known = pipelines.withLock({ $0[fop] }) { return known }
        let parsed = try ProcessingParser.parse(fop)
        pipelines.withLock { pipelines in
            if pipelines.count >= capacity { pipelines.removeAll(keepingCapacity: true) }
            pipelines[fop] = parsed
        }
        return parsed
    }
}
