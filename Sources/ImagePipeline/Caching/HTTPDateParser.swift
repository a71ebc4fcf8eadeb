import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Parses HTTP dates (`Expires`), in the preferred IMF-fixdate form
/// (`Sun, 06 Nov 1994 08:49:37 GMT`) and the two obsolete ones that
/// RFC 9110 says a recipient must still accept (RFC 850 and asctime).
/// By hand, with fixed English names: no locale, no shared formatter.
enum HTTPDateParser {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// The date `text` names, or `nil` when it is not an HTTP date.
    static func parse(_ text: String) -> Date? {
        let fields = text.split(separator: " ", omittingEmptySubsequences: true).map { String($0) }
        switch fields.count {
        case 6:  // Sun, 06 Nov 1994 08:49:37 GMT
            guard fields[5] == "GMT" else { return nil }
            return date(day: fields[1], month: fields[2], year: fields[3], time: fields[4])
        case 4:  // Sunday, 06-Nov-94 08:49:37 GMT
            guard fields[3] == "GMT" else { return nil }
            let parts = fields[1].split(separator: "-").map { String($0) }
            guard parts.count == 3, let shortYear = Int(parts[2]) else { return nil }
            // RFC 9110 §5.6.7: a two-digit year more than 50 years ahead is in the past century.
            let year = parts[2].count == 2 ? (shortYear < 70 ? 2000 + shortYear : 1900 + shortYear) : shortYear
            return date(day: parts[0], month: parts[1], year: String(year), time: fields[2])
        case 5:  // Sun Nov  6 08:49:37 1994
            return date(day: fields[2], month: fields[1], year: fields[4], time: fields[3])
        default:
            return nil
        }
    }

    private static func date(day: String, month: String, year: String, time: String) -> Date? {
        guard let day = Int(day), (1...31).contains(day),
            let month = months.firstIndex(of: month.lowercased()),
            let year = Int(year), (1900...9999).contains(year)
        else { return nil }
        let clock = time.split(separator: ":")
        guard clock.count == 3, let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
    }
}
