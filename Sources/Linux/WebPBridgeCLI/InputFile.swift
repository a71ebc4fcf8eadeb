import Foundation

/// Reading input files with messages a user can act on.
enum InputFile {
    /// The largest file a command reads (the codecs' own limits are lower).
    static let maxBytes = 256 << 20

    static func read(_ path: String) throws -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CommandFailure("\(path): no such file")
        }
        guard !isDirectory.boolValue else { throw CommandFailure("\(path): is a directory") }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        guard size <= maxBytes else {
            throw CommandFailure("\(path): \(size.formattedBytes) is larger than the \(maxBytes.formattedBytes) limit")
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CommandFailure("\(path): cannot read (\((error as NSError).localizedDescription))")
        }
    }

    static func write(_ data: Data, to path: String) throws {
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw CommandFailure("\(path): cannot write (\((error as NSError).localizedDescription))")
        }
    }
}

extension Int {
    /// `1234567` → `"1,234,567 bytes"`.
    var formattedBytes: String {
        let digits = String(magnitude)
        var result = ""
        for (offset, character) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(character)
        }
        return (self < 0 ? "-" : "") + result + (self == 1 ? " byte" : " bytes")
    }
}
