import FuzzEntries

/// libFuzzer's entry point: one input through `ProcessingFuzzEntry`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    ProcessingFuzzEntry.run(FuzzDriver.data(bytes, count))
    return 0
}

/// `fuzz-processing`: libFuzzer in a fuzzing build, a replayer of input files otherwise.
@main
enum FuzzProcessing {
    static func main() {
        FuzzDriver.main(fuzzTestOneInput, entry: ProcessingFuzzEntry.run)
    }
}
