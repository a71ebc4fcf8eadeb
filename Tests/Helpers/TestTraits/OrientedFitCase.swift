public import Testing
public import WebPBridge

/// One row of the oriented-fit table (issue 28): a photo stored
/// `stored`, tagged `orientation`, fitted to `box`, comes out `upright`.
/// Shared by the table test of ``ImageGeometry`` (WebPBridgeTests, every
/// platform) and the same rows through the Linux JPEG decoder
/// (ImageCodecsTests), so both measure against one table.
public struct OrientedFitCase: Sendable, CustomTestStringConvertible {
    public let stored: (width: Int, height: Int)
    public let orientation: ImageOrientation
    public let box: (width: Int?, height: Int?)
    public let upright: (width: Int, height: Int)

    public var testDescription: String {
        "\(stored.width)x\(stored.height) tag \(orientation.rawValue) in"
            + " \(box.width.map(String.init) ?? "any")x\(box.height.map(String.init) ?? "any")"
            + " -> \(upright.width)x\(upright.height)"
    }

    /// The rows. The first four are the photo: 4032×3024 turned
    /// upright and fitted to 300×400 is 300×400 (ImageIOCodec made it
    /// 225×300 by fitting the stored image), not turned is 300×225.
    public static let all: [OrientedFitCase] = [
        .init((4032, 3024), .up, (300, 400), (300, 225)),
        .init((4032, 3024), .right, (300, 400), (300, 400)),
        .init((4032, 3024), .left, (300, 400), (300, 400)),
        .init((4032, 3024), .down, (300, 400), (300, 225)),
        .init((4032, 3024), .leftMirrored, (300, nil), (300, 400)),
        .init((4032, 3024), .rightMirrored, (nil, 100), (75, 100)),
        .init((4032, 3024), .upMirrored, (500, 500), (500, 375)),
        .init((3024, 4032), .right, (400, 300), (400, 300)),
        .init((640, 480), .right, (640, 480), (360, 480)),
        .init((640, 480), .right, (480, 640), (480, 640)),
        .init((640, 480), .left, (nil, nil), (480, 640)),
        .init((64, 32), .right, (100, 100), (32, 64)),
        .init((999, 1), .right, (10, 10), (1, 10)),
    ]

    init(
        _ stored: (Int, Int), _ orientation: ImageOrientation, _ box: (Int?, Int?), _ upright: (Int, Int)
    ) {
        self.stored = (stored.0, stored.1)
        self.orientation = orientation
        self.box = (box.0, box.1)
        self.upright = (upright.0, upright.1)
    }
}
