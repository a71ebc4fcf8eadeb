// Apple platforms only: an app's code, shown in docs/apple-setup.md. Not part of the package (no
// target builds it); `make portability` type-checks it against the SDK stand-ins in Tests/StandIns.
import Foundation
import SwiftUI
import WebPBridge
import WebPBridgeUI

/// One photo of a feed in SwiftUI: decoded at the size it is shown (300×200 points on the
/// screen's scale), faded in when it arrives, shown at once with no placeholder flash when the
/// memory cache has it (a list scrolled back), cancelled when the row scrolls away.
struct FeedPhoto: View {
    let url: URL
    let pipeline: ImagePipeline
    let placeholder: SwiftUI.Image

    var body: some View {
        WebPImage(url: url, pipeline: pipeline, targetSize: .init(width: 300, height: 200, scale: 3)) { image in
            image
        } placeholder: {
            placeholder
        } failure: {
            placeholder
        }
    }
}
