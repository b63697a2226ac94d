import FoundationEssentials

/// The API's timestamps: ISO-8601 in UTC with a `Z`.
///
/// Formatting is done by hand with integer milliseconds because `Date.ISO8601FormatStyle` truncates
/// the binary fraction (`.103` would come out as `.102`), and the server promises exact bytes.
public enum WireTimestamp {
    /// `2015-02-25T01:10:38.103Z`: the form Parse (and so the StudentLocation API) uses.
    public static func milliseconds(_ date: Date) -> String {
        format(date, fractionDigits: 3)
    }

    /// `2015-05-10T16:48:30.760460Z`: the form the session endpoint uses.
    public static func microseconds(_ date: Date) -> String {
        format(date, fractionDigits: 6)
    }

    /// Parses any ISO-8601 UTC timestamp, with or without fractional seconds.
    public static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingWhitespace()
        if let date = parseUTC(trimmed) { return date }
        if let date = try? withFraction.parse(trimmed) { return date }
        return try? withoutFraction.parse(trimmed)
    }

    /// `YYYY-MM-DDTHH:MM:SS[.fraction]Z`, read by hand: the form every server writes, and the
    /// format styles' first use is slow for a short-lived client.
    static func parseUTC(_ text: String) -> Date? {
        // The text's own UTF-8, not a copy: 20,000 timestamps are read per 10,000-location refresh.
        var text = text
        return text.withUTF8(parseUTC(bytes:))
    }

    private static func parseUTC(bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        guard bytes.count >= 20, bytes.last == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for index in range {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int64(digit)
            }
            return value
        }
        guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var fraction = 0.0
        if bytes.count > 20 {
            // Digits past the 18th are read for validity only: they would overflow the Int64, and a
            // Double holds no more anyway.
            let significant = min(bytes.count - 21, 18)
            guard bytes[19] == UInt8(ascii: "."), bytes.count > 21, let digits = number(20..<(20 + significant)),
                bytes[(20 + significant)..<(bytes.count - 1)].allSatisfy({ $0 &- UInt8(ascii: "0") < 10 })
            else {
                return nil
            }
            fraction = Double(digits) / pow10(significant)
        } else if bytes[19] != UInt8(ascii: "Z") {
            return nil
        }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        let seconds = Double(days * 86_400 + hour * 3600 + minute * 60 + second) + fraction
        return Date(timeIntervalSince1970: seconds)
    }

    private static func pow10(_ exponent: Int) -> Double {
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    /// Howard Hinnant's `days_from_civil`.
    private static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Rounds a date to the precision the wire carries, so a stored date compares equal to a parsed one.
    public static func roundedToMilliseconds(_ date: Date) -> Date {
        let millis = (date.timeIntervalSince1970 * 1000).rounded()
        return Date(timeIntervalSince1970: millis / 1000)
    }

    private static let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let withoutFraction = Date.ISO8601FormatStyle()

    private static func format(_ date: Date, fractionDigits: Int) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20 + fractionDigits)
        write(date, fractionDigits: fractionDigits, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func write(_ date: Date, fractionDigits: Int, into output: inout [UInt8]) {
        var scale: Int64 = 1
        for _ in 0..<fractionDigits { scale *= 10 }
        let ticks = Int64((date.timeIntervalSince1970 * Double(scale)).rounded())
        let (seconds, fraction) = floorDivide(ticks, scale)
        let (days, secondOfDay) = floorDivide(seconds, 86_400)
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        pad(year, 4, into: &output)
        output.append(UInt8(ascii: "-"))
        pad(month, 2, into: &output)
        output.append(UInt8(ascii: "-"))
        pad(day, 2, into: &output)
        output.append(UInt8(ascii: "T"))
        pad(secondOfDay / 3600, 2, into: &output)
        output.append(UInt8(ascii: ":"))
        pad((secondOfDay % 3600) / 60, 2, into: &output)
        output.append(UInt8(ascii: ":"))
        pad(secondOfDay % 60, 2, into: &output)
        output.append(UInt8(ascii: "."))
        pad(fraction, fractionDigits, into: &output)
        output.append(UInt8(ascii: "Z"))
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let quotient = value >= 0 ? value / divisor : (value - divisor + 1) / divisor
        return (quotient, value - quotient * divisor)
    }

    /// Howard Hinnant's `civil_from_days`: proleptic Gregorian date of a day count since 1970-01-01.
    private static func civilDate(daysSinceEpoch: Int64) -> (Int64, Int64, Int64) {
        let z = daysSinceEpoch + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    /// The decimal digits of `value`, zero-padded on the left to `width`.
    private static func pad(_ value: Int64, _ width: Int, into output: inout [UInt8]) {
        let digits = String(value).utf8
        output.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: max(0, width - digits.count)))
        output.append(contentsOf: digits)
    }
}
