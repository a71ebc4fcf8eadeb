import Foundation
import TestTraits
import Testing

@testable import WebPBridge

@Suite(.timeLimit(.suiteBound))
struct HTTPDateTests {
    @Test(arguments: [
        (0.0, "Thu, 01 Jan 1970 00:00:00 GMT"),
        (784_111_777, "Sun, 06 Nov 1994 08:49:37 GMT"),
        (951_782_400, "Tue, 29 Feb 2000 00:00:00 GMT"),
        (1_798_761_599.9, "Thu, 31 Dec 2026 23:59:59 GMT"),
        (-1, "Wed, 31 Dec 1969 23:59:59 GMT"),
        (253_402_300_799, "Fri, 31 Dec 9999 23:59:59 GMT"),
    ])
    func formatsIMFFixdate(seconds: Double, text: String) {
        #expect(HTTPDate.format(Date(timeIntervalSince1970: seconds)) == text)
    }

    @Test(arguments: [
        ("Sun, 06 Nov 1994 08:49:37 GMT", 784_111_777.0),
        ("Sunday, 06-Nov-94 08:49:37 GMT", 784_111_777),
        ("Sun Nov  6 08:49:37 1994", 784_111_777),
        ("Thu, 01 Jan 2015 00:00:00 GMT", 1_420_070_400),
        ("Monday, 01-Jan-07 00:00:00 GMT", 1_167_609_600),
        ("sun, 06 NOV 1994 08:49:37 GMT", 784_111_777),
    ])
    func parsesAllThreeForms(text: String, seconds: Double) {
        #expect(HTTPDate.parse(text) == Date(timeIntervalSince1970: seconds))
    }

    @Test(arguments: [
        "", "0", "-1", "yesterday", "Sun, 06 Nov 1994 25:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 08:49:37 UTC", "Sun 06 Nov 1994 08:49:37 GMT", "Sun, 31 Feb 1994 08:49:37 GMT",
        "Sun, 29 Feb 1900 00:00:00 GMT", "Sun, 06 Nov 94 08:49:37 GMT", "Sun, 06 Nov 1994 8:49:37 GMT",
        "Sun, 999 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-994 08:49:37 GMT",
    ])
    func refusesAnythingElse(text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }

    @Test func roundTripsEveryDayOverFourThousandYears() {
        // Day numbers and civil dates agree in both directions, leap days included.
        var mismatches: [Int] = []
        for day in -800_000...800_000 {
            let (year, month, dayOfMonth) = HTTPDate.civilDate(fromDayNumber: day)
            if HTTPDate.dayNumber(year: year, month: month, day: dayOfMonth) != day { mismatches.append(day) }
            if day % 97 == 0, (1900...9999).contains(year) {
                let date = Date(timeIntervalSince1970: TimeInterval(day * 86_400 + 45_296))
                if HTTPDate.parse(HTTPDate.format(date)) != date { mismatches.append(day) }
            }
        }
        #expect(mismatches.isEmpty, "first mismatches: \(mismatches.prefix(5))")
    }
}
