import FuzzEntries

/// libFuzzer's entry point: one input through `DecodeFuzzEntry`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    DecodeFuzzEntry.run(FuzzDriver.data(bytes, count))
    return 0
}

/// `fuzz-decode`: libFuzzer in a fuzzing build, a replayer of input files otherwise.
@main
enum FuzzDecode {
    static func main() {
        FuzzDriver.main(fuzzTestOneInput, entry: DecodeFuzzEntry.run)
    }
}
