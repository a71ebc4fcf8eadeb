import TestTraits

/// Random but valid URLs around a rule's host: look-alike hosts, every kind
/// of path and query, ports, user info and fragments.
enum URLGenerator {
    static func url(around host: String, pathBase: String = "", using generator: inout SeededGenerator) -> String {
        var url = generator.pick(["http", "https", "HTTP", "ftp"]) + "://"
        if generator.chance(10) { url += generator.pick(["user@", "u:p@", "\(host)@"]) }
        url += generator.pick([
            host, host, host, host.uppercased(), "cdn.\(host)", "\(host).evil.example", "evil.example", "x\(host)",
        ])
        if generator.chance(15) { url += generator.pick([":80", ":443", ":8080"]) }
        if generator.chance(10) { url += "/\(host)" }
        if generator.chance(80) { url += pathBase }
        let segments = Int(generator.next() % 4)
        for _ in 0..<segments {
            url += "/" + generator.pick(["a", "img", "2024", "%E5%9B%BE", "dir%20x", "a.jpg", "webp", "unsafe", "x_y"])
        }
        url += "/" + generator.pick(["photo", "P", "%E7%85%A7", "a.b", "-", "image"])
        url += generator.pick([
            ".jpg", ".JPG", ".jpeg", ".png", ".PNG", ".gif", ".webp", ".txt", "", ".jpg-thumb", ".JPG-WebPiOSW750",
            ".jpgx", ".png!w300", ".html",
        ])
        if generator.chance(60) {
            url +=
                "?"
                + generator.pick([
                    "", "v=1", "a=1&a=1", "&&", "imageView2/1/w/200", "imageView2/0/format/jpg",
                    "imageMogr2/format/webp",
                    "x-oss-process=image/resize,w_100", "w=300", "fm=png", "e=1&token=a:b", "q-sign-algorithm=sha1",
                    "Signature=x&OSSAccessKeyId=y", "s=abc", "img=a.jpg", "imageInfo", "watermark/2/text/aGk=",
                ])
        }
        if generator.chance(15) { url += "#" + generator.pick(["", "top", "x.jpg"]) }
        return url
    }
}
