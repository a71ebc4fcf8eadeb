import FuzzEntries

/// libFuzzer's entry point: one input through `RequestHeadFuzzEntry`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    RequestHeadFuzzEntry.run(FuzzDriver.data(bytes, count))
    return 0
}

/// `fuzz-request-head`: libFuzzer in a fuzzing build, a replayer of input files otherwise.
@main
enum FuzzRequestHead {
    static func main() {
        FuzzDriver.main(fuzzTestOneInput, entry: RequestHeadFuzzEntry.run)
    }
}
