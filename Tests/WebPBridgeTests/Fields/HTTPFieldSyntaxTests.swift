import TestTraits
import Testing

@testable import WebPBridge

/// The byte rules a server applies to every request head: a bridged
/// `String` takes the generic path, a native one its contiguous bytes, with
/// the same answers.
@Suite(.timeLimit(.suiteBound))
struct HTTPFieldSyntaxTests {
    @Test(arguments: [
        ("/photo.jpg?imageView2/2/w/750/format/webp", true), ("*", true), ("http://a.test/x?y=%20", true),
        ("/caf\u{E9}.jpg", true), ("", true), ("/a b", false), ("/a\tb", false), ("/a\u{7F}", false),
        ("/a\r\nHost: evil", false), ("/a\u{0}", false),
    ])
    func targetsWithSpacesOrControlBytesAreInvalid(target: String, valid: Bool) {
        #expect(HTTPFieldSyntax.isValidTarget(target) == valid)
        // A long target crosses any stride the check might take.
        let long = String(repeating: "/segment", count: 64) + target
        #expect(HTTPFieldSyntax.isValidTarget(long) == valid)
    }

    @Test(arguments: [
        ("Accept", "image/webp,*/*;q=0.8", true), ("X-Tab", "a\tb", true), ("Bad Name", "x", false),
        ("X-Obs", "caf\u{E9}", true), ("X-CR", "a\rb", false), ("X-NUL", "a\u{0}", false), ("", "x", false),
    ])
    func fieldLinesFollowRFC9110(name: String, value: String, valid: Bool) {
        #expect(HTTPFieldSyntax.isValidField(name: name, value: value) == valid)
        #expect((HTTPFieldSyntax.isToken(name) && HTTPFieldSyntax.isValidValue(value)) == valid)
    }

    /// The checks take sixteen bytes at a time: a byte at any position of a
    /// long target or value, inside a chunk or in the tail, decides alike.
    @Test func everyPositionOfALongTargetOrValueIsChecked() {
        let length = 40
        for position in 0..<length {
            func with(_ byte: UInt8) -> String {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                bytes[position] = byte
                return String(decoding: bytes, as: UTF8.self)
            }
            for bad: UInt8 in [0x00, 0x0D, 0x0A, 0x1F, 0x7F] {
                #expect(!HTTPFieldSyntax.isValidValue(with(bad)), "value, \(bad) at \(position)")
                #expect(!HTTPFieldSyntax.isValidTarget(with(bad)), "target, \(bad) at \(position)")
            }
            #expect(HTTPFieldSyntax.isValidValue(with(0x09)) && !HTTPFieldSyntax.isValidTarget(with(0x09)))
            #expect(HTTPFieldSyntax.isValidValue(with(0x20)) && !HTTPFieldSyntax.isValidTarget(with(0x20)))
            #expect(HTTPFieldSyntax.isValidValue(with(0x7E)) && HTTPFieldSyntax.isValidTarget(with(0x7E)))
        }
    }
}
