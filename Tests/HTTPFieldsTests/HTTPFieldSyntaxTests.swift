import TestTraits
import Testing

@testable import HTTPFields

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
}
