public import Foundation
import WebPBridge

/// `fuzz-decode`: sniffing and every decoder with the default limits, as the
/// bridge and the origin run them on bytes from the network.
public enum DecodeFuzzEntry {
    /// Sniffs `data`, decodes it in full, and decodes it again scaled to fit
    /// 64×64. Any outcome but a result or an ``ImageCodecError`` is a finding.
    public static func run(_ data: Data) {
        _ = ImageFormat.sniffIfImage(data)
        do {
            _ = try ImageFormat.sniff(data)
        } catch {
            // Unknown bytes: the typed error is the expected answer.
        }
        let decoder = ImageDecoder()
        FuzzExpectation.typedCodecError { _ = try decoder.decode(data) }
        FuzzExpectation.typedCodecError { _ = try decoder.decodeStill(data, fittingWidth: 64, height: 64) }
    }
}
