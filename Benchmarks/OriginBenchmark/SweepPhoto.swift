import Foundation
import WebPBridge

/// One photo of a settings sweep: its bytes, decoded at full size, the size
/// its variant gets at the sweep's width, and the source resized to that
/// size (Lanczos 3), the reference every variant's SSIM is measured against.
struct SweepPhoto {
    let data: Data
    let full: Image
    let size: (width: Int, height: Int)
    let reference: Image

    /// Reads and decodes `path` and makes the reference at `width`.
    ///
    /// - Throws: ``BenchmarkError`` for an unreadable file; codec errors as they come.
    init(path: String, width: Int) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BenchmarkError("cannot read \(path)")
        }
        self.data = data
        full = try ImageDecoder().decodeStill(data)
        size = ImageResizer.fittingSize(width: full.width, height: full.height, maxWidth: width, maxHeight: nil)
        reference = try ImageResizer().resize(full, width: size.width, height: size.height)
    }
}
