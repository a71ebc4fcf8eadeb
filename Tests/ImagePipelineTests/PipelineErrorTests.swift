import Foundation
import TestTraits
import Testing

@testable import WebPBridge

/// The one error type the pipeline's entry points throw, whatever failed inside.
@Suite(.timeLimit(.suiteBound))
struct PipelineErrorTests {
    @Test func internalFailuresBecomeOneTypedError() {
        let url = "http://img.test/a.jpg"
        let cancelled = ImagePipelineError(CancellationError(), url: url)
        #expect(cancelled.isCancellation && cancelled.url == url)
        #expect(cancelled.description == "\(url): cancelled")
        let full = ImagePipelineError(WorkQueue.Full(), url: url)
        #expect(full.isDecodeQueueFull && !full.isCancellation)
        let loading = ImagePipelineError(DataLoadingError(.timedOut, "timed out"), url: url)
        #expect(loading.loadingError?.kind == .timedOut)
        let http = ImagePipelineError.http(404, url: url)
        #expect(ImagePipelineError(http, url: "other").httpStatus == 404, "an ImagePipelineError passes as it is")
        struct Odd: Error {}
        #expect(ImagePipelineError(Odd(), url: url).description.contains("unexpected failure"))
    }
}
