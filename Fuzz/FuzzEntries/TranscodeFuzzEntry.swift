public import Foundation
import WebPBridge

/// `fuzz-transcode`: the bridge's `Transcoder` for a WebView without WebP,
/// and for a consumer that shows JPEG only (so animations and transparent
/// images take the other branches).
public enum TranscodeFuzzEntry {
    private static let consumers: [Transcoder.Capabilities] = [Transcoder.withoutWebP, [.jpeg], [.png]]

    /// Transcodes `data` for each consumer. Any outcome but a result or an
    /// ``ImageCodecError`` is a finding; so is a result the consumer cannot show.
    public static func run(_ data: Data) {
        let transcoder = Transcoder(codec: CImageCodec())
        for consumer in consumers {
            FuzzExpectation.typedCodecError {
                let output = try transcoder.transcode(data, for: consumer)
                FuzzExpectation.require(
                    consumer.contains(output.format), "transcoded to \(output.format), which the consumer cannot show")
                FuzzExpectation.require(
                    ImageFormat.sniffIfImage(output.data) != nil || !output.isTranscoded,
                    "transcoded output is not a recognisable image")
            }
        }
    }
}
