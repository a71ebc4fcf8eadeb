// Apple platforms only: an app's code, shown in docs/apple-setup.md. Not part of the package (no
// target builds it); `make portability` type-checks it against the SDK stand-ins in Tests/StandIns.
import Foundation
import UIKit
import WebPBridge
import WebPBridgeUI

/// What a reused list cell does with its image view: a new URL cancels the load of the one the
/// cell showed before (a late answer for it is never drawn), a memory-cache hit is drawn at once
/// without a fade, and a cell leaving the screen stops its load.
@MainActor
struct PhotoCellImage {
    let imageView: UIImageView
    let pipeline: ImagePipeline
    let placeholder: UIImage
    let broken: UIImage

    /// `collectionView(_:cellForItemAt:)`: the row's photo, at the cell's size on a 3× screen.
    func show(_ url: URL?) {
        imageView.wb.setImage(
            with: url, pipeline: pipeline, placeholder: placeholder, failureImage: broken,
            targetSize: .init(width: 375, height: 250, scale: 3))
    }

    /// `prepareForReuse()` or `collectionView(_:didEndDisplaying:forItemAt:)`.
    func stop() {
        imageView.wb.cancel()
    }
}
