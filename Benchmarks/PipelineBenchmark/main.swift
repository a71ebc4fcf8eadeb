// `make bench-pipeline`: ImagePipeline against a live ImageOrigin on
// loopback — memory hits, disk hits, network + decode — next to the codec
// alone on the same bytes, in one run. A benchmark, not a test.
import Foundation

let options: Options
do {
    options = try Options(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("pipeline-benchmark: \(error)\n\(Options.usage)\n".utf8))
    exit(2)
}

do {
    exit(try await PipelineBenchmark.run(options) ? 0 : 1)
} catch {
    FileHandle.standardError.write(Data("pipeline-benchmark: \(error)\n".utf8))
    exit(1)
}
