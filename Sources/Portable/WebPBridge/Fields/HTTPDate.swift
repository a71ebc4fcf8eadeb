public import Foundation

/// HTTP dates (RFC 9110 §5.6.7), for `Date`, `Expires`, `Last-Modified` and
/// `If-Modified-Since`: written as IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`),
/// read in that form and in the two obsolete ones a recipient must still
/// accept (RFC 850 `Sunday, 06-Nov-94 08:49:37 GMT`, asctime
/// `Sun Nov  6 08:49:37 1994`).
///
/// By hand, in pure Swift: fixed English names, no locale, no formatter to
/// share between threads, no C time functions — the server, the pipeline
/// and an app on an Apple platform use the same code.
public enum HTTPDate {
    private static let days = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]  // 1970-01-01 was a Thursday
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let lowercasedMonths = months.map { $0.lowercased() }

    /// `date` as an IMF-fixdate, to the second (rounded down).
    public static func format(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let (dayNumber, secondOfDay) = seconds.floorDivided(by: 86_400)
        let (year, month, day) = civilDate(fromDayNumber: dayNumber)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let weekday = days[dayNumber.floorDivided(by: 7).remainder]
        return "\(weekday), \(two(day)) \(months[month - 1]) \(year) "
            + "\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60)) GMT"
    }

    /// The date `text` names, or `nil` when it is not an HTTP date in one
    /// of the three forms. Month names are matched case-insensitively; a
    /// two-digit RFC 850 year below 70 is in the 2000s.
    public static func parse(_ text: String) -> Date? {
        let fields = text.split(separator: " ", omittingEmptySubsequences: true)
        switch fields.count {
        case 6:  // Sun, 06 Nov 1994 08:49:37 GMT
            guard fields[5] == "GMT", fields[0].hasSuffix(",") else { return nil }
            return date(
                day: fields[1], month: fields[2], year: fields[3].count == 4 ? Int(fields[3]) : nil, time: fields[4])
        case 4:  // Sunday, 06-Nov-94 08:49:37 GMT
            guard fields[3] == "GMT", fields[0].hasSuffix(",") else { return nil }
            let parts = fields[1].split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[2].count == 2 || parts[2].count == 4, let written = Int(parts[2]) else {
                return nil
            }
            let year = parts[2].count == 2 ? (written < 70 ? 2000 + written : 1900 + written) : written
            return date(day: parts[0], month: parts[1], year: year, time: fields[2])
        case 5:  // Sun Nov  6 08:49:37 1994
            return date(
                day: fields[2], month: fields[1], year: fields[4].count == 4 ? Int(fields[4]) : nil, time: fields[3])
        default:
            return nil
        }
    }

    private static func date(day: Substring, month: Substring, year: Int?, time: Substring) -> Date? {
        guard day.count <= 2, let day = Int(day), let year, (1900...9999).contains(year),
            let monthIndex = lowercasedMonths.firstIndex(of: month.lowercased()),
            (1...daysIn(month: monthIndex + 1, year: year)).contains(day)
        else { return nil }
        let clock = time.split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
            let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        let dayNumber = dayNumber(year: year, month: monthIndex + 1, day: day)
        return Date(timeIntervalSince1970: TimeInterval(dayNumber * 86_400 + hour * 3600 + minute * 60 + second))
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (the
    /// days-from-civil algorithm: years counted from March, so the leap day
    /// comes last).
    static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        let marchYear = month <= 2 ? year - 1 : year
        let era = marchYear.floorDivided(by: 400).quotient
        let yearOfEra = marchYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The inverse of ``dayNumber(year:month:day:)``.
    static func civilDate(fromDayNumber dayNumber: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = dayNumber + 719_468
        let era = shifted.floorDivided(by: 146_097).quotient
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension Int {
    /// Quotient rounded towards minus infinity, and the matching non-negative remainder.
    fileprivate func floorDivided(by divisor: Int) -> (quotient: Int, remainder: Int) {
        let remainder = ((self % divisor) + divisor) % divisor
        return ((self - remainder) / divisor, remainder)
    }
}
