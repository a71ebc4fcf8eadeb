import TestTraits
import Testing
import WebPBridge

/// The one rule for the size of an oriented photo fitted to a box
/// (issue 28): the table of ``OrientedFitCase`` through ``ImageGeometry``,
/// and through the exact function `ImageIOCodec.decodeStill` calls. The same
/// rows go through the Linux JPEG decoder in ImageCodecsTests.
@Suite(.timeLimit(.suiteBound))
struct ImageGeometryTests {
    @Test(arguments: OrientedFitCase.all)
    func uprightFittingSize(_ row: OrientedFitCase) {
        let size = ImageGeometry.uprightFittingSize(
            storedWidth: row.stored.width, storedHeight: row.stored.height, orientation: row.orientation,
            maxWidth: row.box.width, maxHeight: row.box.height)
        #expect(size.width == row.upright.width && size.height == row.upright.height, "got \(size)")
    }

    /// What ImageIOCodec asks ImageIO for: a thumbnail turned upright whose
    /// longer side is `thumbnailMaxPixelSize` (the whole image when `nil`).
    /// ImageIO keeps the aspect ratio; modelled here with the same rounding
    /// as ``ImageGeometry/fittingSize(width:height:maxWidth:maxHeight:)``
    /// (ImageIO's own rounding of the shorter side is not observable here).
    @Test(arguments: OrientedFitCase.all)
    func theImageIOThumbnailRequest(_ row: OrientedFitCase) {
        let maxSide = ImageGeometry.thumbnailMaxPixelSize(
            storedWidth: row.stored.width, storedHeight: row.stored.height, orientation: row.orientation,
            maxWidth: row.box.width, maxHeight: row.box.height)
        let swaps = row.orientation.swapsDimensions
        let upright = swaps ? (row.stored.height, row.stored.width) : (row.stored.width, row.stored.height)
        let shrinks = row.upright.width < upright.0 || row.upright.height < upright.1
        #expect(maxSide == (shrinks ? max(row.upright.width, row.upright.height) : nil))
        let thumbnail = ImageGeometry.fittingSize(
            width: upright.0, height: upright.1, maxWidth: maxSide, maxHeight: maxSide)
        #expect(thumbnail.width == row.upright.width && thumbnail.height == row.upright.height, "got \(thumbnail)")
    }

    /// The issue's photo: ImageIOCodec asked for a 300-pixel longer side
    /// (the stored image fitted, 225×300 once turned); it now asks for 400.
    @Test func theIssuesPhotoAsksImageIOForFourHundred() {
        let before = Self.storedFitMaxSide(width: 4032, height: 3024, maxWidth: 300, maxHeight: 400)
        #expect(before == 300)
        let after = ImageGeometry.thumbnailMaxPixelSize(
            storedWidth: 4032, storedHeight: 3024, orientation: .right, maxWidth: 300, maxHeight: 400)
        #expect(after == 400)
    }

    /// ImageIOCodec's formula before issue 28 (ImageIOCodec.swift:45-48 at 75055be), kept to show the
    /// difference: the stored size fitted, orientation ignored.
    static func storedFitMaxSide(width: Int, height: Int, maxWidth: Int?, maxHeight: Int?) -> Int? {
        let scale = min(1, Double(maxWidth ?? width) / Double(width), Double(maxHeight ?? height) / Double(height))
        return scale < 1 ? max(1, Int((Double(max(width, height)) * scale).rounded(.down))) : nil
    }

    @Test func orientationValues() {
        #expect((1...8).map { ImageOrientation(exifValue: $0).rawValue } == Array(1...8))
        for invalid in [nil, 0, 9, -1, 65_535] as [Int?] {
            #expect(ImageOrientation(exifValue: invalid) == .up, "\(String(describing: invalid))")
        }
        #expect(ImageOrientation.allCases.filter(\.swapsDimensions).map(\.rawValue) == [5, 6, 7, 8])
    }
}
