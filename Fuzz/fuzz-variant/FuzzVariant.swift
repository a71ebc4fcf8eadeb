import FuzzEntries

/// libFuzzer's entry point: one input through `VariantFuzzEntry`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    VariantFuzzEntry.run(FuzzDriver.data(bytes, count))
    return 0
}

/// `fuzz-variant`: libFuzzer in a fuzzing build, a replayer of input files otherwise.
@main
enum FuzzVariant {
    static func main() {
        FuzzDriver.main(fuzzTestOneInput, entry: VariantFuzzEntry.run)
    }
}
