import FuzzEntries

/// libFuzzer's entry point: one input through `HTMLFuzzEntry`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    HTMLFuzzEntry.run(FuzzDriver.data(bytes, count))
    return 0
}

/// `fuzz-html`: libFuzzer in a fuzzing build, a replayer of input files otherwise.
@main
enum FuzzHTML {
    static func main() {
        FuzzDriver.main(fuzzTestOneInput, entry: HTMLFuzzEntry.run)
    }
}
