import Foundation

/// A list file of two tab-separated columns per line (empty lines skipped).
struct TabList {
    var rows: [(first: String, second: String)]

    init(path: String) throws {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
        else { throw BenchmarkError("cannot read \(path)") }
        rows = try text.split(separator: "\n").map { line in
            let columns = line.split(separator: "\t", maxSplits: 1)
            guard columns.count == 2 else { throw BenchmarkError("\(path): not two columns: \(line)") }
            return (String(columns[0]), String(columns[1]))
        }
    }
}
