public import Foundation

/// Decodes GIF (87a and 89a) with giflib, from memory.
///
/// Frames are composited as browsers do: the canvas starts transparent (the
/// background colour index is ignored); each frame draws its non-transparent
/// pixels; then its disposal method applies — none/unspecified keeps it,
/// `DISPOSE_BACKGROUND` clears its rectangle to transparent,
/// `DISPOSE_PREVIOUS` restores what was there before. Local colour tables
/// override the global one; interlaced frames are de-interlaced.
///
/// Timing and looping follow browsers: a delay of 10 ms or less (including
/// none) is shown for 100 ms. Without a NETSCAPE2.0 extension an animation
/// plays once (`loopCount` 1); a NETSCAPE2.0 loop value of 0 plays forever
/// (`loopCount` 0); a value N > 0 repeats N times after the first play
/// (`loopCount` N + 1), as gif2webp and browsers read it.
///
/// Limits: the logical screen, each frame's size, each frame's far corner
/// (`left + width` × `top + height`, the canvas a decoder that grows it to fit
/// would allocate) and the running frame count are checked against
/// ``DecodingLimits`` as each descriptor is read, before any pixel buffer
/// exists, so decompression bombs fail fast with `.limitExceeded`. A frame
/// that is within the limits but extends past the logical screen is clipped
/// to it, as browsers do.
///
/// A file that ends after a complete frame without its trailer is accepted;
/// one that ends inside a frame is `.truncated`.
///
/// Thread-safety: a value type with no shared state; use it from any thread.
public struct GIFDecoder: Sendable {
    /// The limits checked before decoding.
    public var limits: DecodingLimits

    /// Creates a decoder.
    public init(limits: DecodingLimits = .default) {
        self.limits = limits
    }

    /// Decodes `data`: ``DecodedImage/still(_:)`` for one frame,
    /// ``DecodedImage/animated(_:)`` for more.
    ///
    /// ``Image/hasAlpha`` is `true` when the file declares a transparent index
    /// or a frame leaves part of the canvas transparent.
    ///
    /// - Throws: ``ImageCodecError`` — `.limitExceeded` beyond the limits,
    ///   `.truncated` or `.corrupt` (with giflib's message) for damaged files.
    public func decode(_ data: Data) throws(ImageCodecError) -> DecodedImage {
        try limits.checkInput(byteCount: data.count, format: .gif)
        return try data.withByteBuffer { bytes throws(ImageCodecError) in
            try decode(UnsafeRawBufferPointer(bytes))
        }
    }

    /// Reads the screen size, frame count, loop count and whether any frame
    /// declares transparency, skipping the compressed pixels undecoded.
    ///
    /// - Throws: ``ImageCodecError`` when the structure is damaged.
    public static func readHeader(_ data: Data) throws(ImageCodecError) -> GIFHeader {
        try data.withByteBuffer { bytes throws(ImageCodecError) in
            let file = try GIFFile(reading: UnsafeRawBufferPointer(bytes))
            let screen = file.screenSize
            var frameCount = 0
            var loopValue: Int?
            var hasAlpha = false
            var extent = (width: screen.width, height: screen.height)
            walk: while true {
                switch try file.nextRecord() {
                case .image:
                    let rect = try file.imageDescriptor().rect
                    extent.width = max(extent.width, rect.x + rect.width)
                    extent.height = max(extent.height, rect.y + rect.height)
                    try file.skipImageData()
                    frameCount += 1
                case .extension:
                    let (code, blocks) = try file.readExtension()
                    if code == GIFFile.graphicsControlCode, let control = GraphicsControl(blocks) {
                        hasAlpha = hasAlpha || control.transparentIndex != nil
                    } else if code == GIFFile.applicationCode, let value = netscapeLoopValue(blocks) {
                        loopValue = value
                    }
                case .terminator:
                    break walk
                }
            }
            return GIFHeader(
                width: screen.width, height: screen.height, frameCount: frameCount,
                loopCount: loopCount(netscapeValue: loopValue), hasAlpha: hasAlpha, frameExtent: extent)
        }
    }

    // MARK: Decoding

    private func decode(_ bytes: UnsafeRawBufferPointer) throws(ImageCodecError) -> DecodedImage {
        var frames: [AnimatedImage.Frame] = []
        var declaresTransparency = false
        let screen = try forEachFrame(bytes) { frame, declared throws(ImageCodecError) in
            frames.append(frame)
            declaresTransparency = declared
            return true
        }
        guard !frames.isEmpty else { throw ImageCodecError.corrupt(.gif, "the file holds no image") }
        for index in frames.indices {
            frames[index].image.hasAlpha = declaresTransparency || !frames[index].image.isOpaque
        }
        if frames.count == 1 { return .still(frames[0].image) }
        return .animated(
            AnimatedImage(
                canvasWidth: screen.width, canvasHeight: screen.height, frames: frames, loopCount: screen.loopCount))
    }

    /// Decodes the frames one at a time, handing each composited canvas to
    /// `body` (with whether any frame so far declares transparency) before
    /// the next is decoded, until `body` returns `false`. Only the canvas,
    /// one frame's layer and the frame handed over are held at once.
    ///
    /// - Returns: the logical screen size and the loop count (read up to
    ///   where decoding stopped).
    func forEachFrame(
        _ bytes: UnsafeRawBufferPointer,
        _ body: (AnimatedImage.Frame, _ declaresTransparency: Bool) throws(ImageCodecError) -> Bool
    ) throws(ImageCodecError) -> (width: Int, height: Int, loopCount: Int) {
        let file = try GIFFile(reading: bytes)
        let (width, height) = file.screenSize
        try limits.checkFrame(width: width, height: height, format: .gif)
        var canvas = CompositingCanvas(width: width, height: height)
        var frameCount = 0
        var control = GraphicsControl()
        var loopValue: Int?
        var declaresTransparency = false

        walk: while true {
            switch try file.nextRecord() {
            case .image:
                if let rect = file.peekImageRect() {
                    try checkLimits(of: rect, frameNumber: frameCount + 1, width: width, height: height)
                }
                let descriptor = try file.imageDescriptor()
                try checkLimits(of: descriptor.rect, frameNumber: frameCount + 1, width: width, height: height)
                guard let colors = descriptor.colors else {
                    throw ImageCodecError.corrupt(.gif, "frame \(frameCount) has no colour table")
                }
                declaresTransparency = declaresTransparency || control.transparentIndex != nil
                let visible = descriptor.rect.clamped(toWidth: width, height: height)
                let saved = control.disposal == .previous && !visible.isEmpty ? canvas.copy(visible) : []
                let layer = try readFrame(
                    file, descriptor, colors: colors, transparentIndex: control.transparentIndex, visible: visible)
                if !visible.isEmpty {
                    layer.withUnsafeBufferPointer { canvas.blendOver(visible, with: $0) }
                }
                frameCount += 1
                var shown = canvas.image(hasAlpha: true)
                shown.hasAlpha = declaresTransparency || !shown.isOpaque
                guard
                    try body(
                        .init(image: shown, durationMilliseconds: control.durationMilliseconds), declaresTransparency)
                else { break walk }
                if !visible.isEmpty {
                    switch control.disposal {
                    case .keep: break
                    case .background: canvas.clear(visible)
                    case .previous: saved.withUnsafeBufferPointer { canvas.replace(visible, with: $0) }
                    }
                }
                control = GraphicsControl()
            case .extension:
                let (code, blocks) = try file.readExtension()
                if code == GIFFile.graphicsControlCode, let parsed = GraphicsControl(blocks) {
                    control = parsed
                } else if code == GIFFile.applicationCode, let value = Self.netscapeLoopValue(blocks) {
                    loopValue = value
                }
            case .terminator:
                break walk
            }
        }
        return (width, height, Self.loopCount(netscapeValue: loopValue))
    }

    /// Checks a frame against the limits before its pixels are read.
    private func checkLimits(of rect: PixelRect, frameNumber: Int, width: Int, height: Int) throws(ImageCodecError) {
        try limits.checkFrame(width: rect.width, height: rect.height, format: .gif)
        if rect.x + rect.width > width || rect.y + rect.height > height {
            do {
                try limits.checkFrame(width: rect.x + rect.width, height: rect.y + rect.height, format: .gif)
            } catch {
                throw ImageCodecError(
                    .limitExceeded, format: .gif,
                    "GIF frame \(frameNumber) of \(rect.width)x\(rect.height) at (\(rect.x), \(rect.y))"
                        + " extends the \(width)x\(height) screen to \((rect.x + rect.width).formattedWithSeparators)"
                        + "x\((rect.y + rect.height).formattedWithSeparators), beyond the limit of"
                        + " \(limits.maxPixelsPerFrame.formattedWithSeparators) pixels per frame")
            }
        }
        try limits.checkAnimation(width: width, height: height, frames: frameNumber, format: .gif)
    }

    /// Reads all rows of the current frame; returns the RGBA pixels of its
    /// `visible` part, with transparent (and out-of-palette) indices at alpha 0.
    private func readFrame(
        _ file: GIFFile, _ descriptor: GIFFile.ImageDescriptor, colors: [UInt8], transparentIndex: Int?,
        visible: PixelRect
    ) throws(ImageCodecError) -> [UInt8] {
        let rect = descriptor.rect
        var layer = [UInt8](repeating: 0, count: max(visible.width * visible.height * 4, 0))
        var row = [UInt8](repeating: 0, count: rect.width)
        let colorCount = colors.count / 3
        let rowOrder: [(start: Int, step: Int)] =
            descriptor.interlaced ? [(0, 8), (4, 8), (2, 4), (1, 2)] : [(0, 1)]
        for pass in rowOrder {
            for y in stride(from: pass.start, to: rect.height, by: pass.step) {
                try row.withUnsafeMutableBufferPointer { buffer throws(ImageCodecError) in
                    try file.readRow(into: buffer)
                }
                let canvasY = rect.y + y
                guard canvasY >= visible.y, canvasY < visible.y + visible.height else { continue }
                let layerRow = (canvasY - visible.y) * visible.width * 4
                let firstColumn = visible.x - rect.x
                for column in 0..<visible.width {
                    let index = Int(row[firstColumn + column])
                    if index == transparentIndex || index >= colorCount { continue }
                    let to = layerRow + column * 4
                    layer[to] = colors[index * 3]
                    layer[to + 1] = colors[index * 3 + 1]
                    layer[to + 2] = colors[index * 3 + 2]
                    layer[to + 3] = 255
                }
            }
        }
        return layer
    }

    // MARK: Extensions

    /// The loop value of a NETSCAPE2.0 (or ANIMEXTS1.0) application extension.
    static func netscapeLoopValue(_ blocks: [[UInt8]]) -> Int? {
        guard blocks.count >= 2, blocks[0] == netscapeIdentifier || blocks[0] == animextsIdentifier,
            blocks[1].count >= 3, blocks[1][0] == 1
        else { return nil }
        return Int(blocks[1][1]) | Int(blocks[1][2]) << 8
    }

    /// The play count for a NETSCAPE2.0 loop value: ``AnimationTiming/playCount(_:declared:)``.
    static func loopCount(netscapeValue: Int?) -> Int {
        AnimationTiming.playCount(.gif, declared: netscapeValue)
    }

    private static let netscapeIdentifier = Array("NETSCAPE2.0".utf8)
    private static let animextsIdentifier = Array("ANIMEXTS1.0".utf8)

    /// The fields of a graphic control extension that affect the next image.
    struct GraphicsControl {
        enum Disposal { case keep, background, previous }
        var disposal: Disposal = .keep
        var delayCentiseconds = 0
        var transparentIndex: Int?

        init() {}

        /// Parses the extension's first sub-block; `nil` when it is too short.
        init?(_ blocks: [[UInt8]]) {
            guard let block = blocks.first, block.count >= 4 else { return nil }
            switch (block[0] >> 2) & 0x07 {
            case 2: disposal = .background
            case 3: disposal = .previous
            default: disposal = .keep
            }
            delayCentiseconds = Int(block[1]) | Int(block[2]) << 8
            transparentIndex = block[0] & 0x01 == 1 ? Int(block[3]) : nil
        }

        /// The delay as browsers show it (``AnimationTiming/displayedDuration(milliseconds:)``).
        var durationMilliseconds: Int {
            AnimationTiming.displayedDuration(milliseconds: delayCentiseconds * 10)
        }
    }
}
