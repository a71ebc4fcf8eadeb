/// A benchmark that cannot run as asked: bad arguments or unreadable files.
struct BenchmarkError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
