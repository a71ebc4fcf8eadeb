import FuzzEntries

/// libFuzzer's entry point: one input through `RewriteFuzzEntry`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    RewriteFuzzEntry.run(FuzzDriver.data(bytes, count))
    return 0
}

/// `fuzz-rewrite`: libFuzzer in a fuzzing build, a replayer of input files otherwise.
@main
enum FuzzRewrite {
    static func main() {
        FuzzDriver.main(fuzzTestOneInput, entry: RewriteFuzzEntry.run)
    }
}
