import Foundation
import OnTheMapModels
import OnTheMapTestSupport
import Testing

@Suite("ISO-8601 timestamps on the wire", .ownThreads)
struct WireTimestampTests {
    @Test(arguments: [
        ("2015-02-25T01:10:38.103Z", 1_424_826_638.103),
        ("1970-01-01T00:00:00.000Z", 0),
        ("2000-02-29T23:59:59.999Z", 951_868_799.999),
        ("1969-12-31T23:59:59.500Z", -0.5),
        ("2038-01-19T03:14:08.000Z", 2_147_483_648),
    ])
    func millisecondsAreExact(expected: String, seconds: Double) {
        #expect(WireTimestamp.milliseconds(Date(timeIntervalSince1970: seconds)) == expected)
    }

    @Test func microsecondsForSessions() {
        #expect(
            WireTimestamp.microseconds(Date(timeIntervalSince1970: 1_431_276_510.760460))
                == "2015-05-10T16:48:30.760460Z")
    }

    @Test(arguments: ["2015-05-10T16:48:30.760460Z", "2015-05-10T16:48:30.760Z", "2015-05-10T16:48:30Z", " 2015-05-10T16:48:30Z "])
    func parsesWithAndWithoutFraction(text: String) throws {
        let date = try #require(WireTimestamp.parse(text))
        #expect(abs(date.timeIntervalSince1970 - 1_431_276_510) < 1)
    }

    @Test func handParsingAgreesWithTheFormatStyle() throws {
        for text in ["2015-02-25T01:10:38.103Z", "2000-02-29T23:59:59.999Z", "1969-12-31T23:59:59.500Z", "2038-01-19T03:14:08Z", "2015-05-10T16:48:30.760460Z"] {
            let date = try #require(WireTimestamp.parse(text))
            let reference = try Date.ISO8601FormatStyle(includingFractionalSeconds: text.contains(".")).parse(text)
            #expect(abs(date.timeIntervalSince1970 - reference.timeIntervalSince1970) < 0.001, "\(text)")
        }
    }

    @Test func aLongFractionIsReadWithoutOverflow() throws {
        let date = try #require(WireTimestamp.parse("2015-02-25T01:10:38.1234567890123456789012345Z"))
        #expect(abs(date.timeIntervalSince1970 - 1_424_826_638.123) < 0.001)
    }

    @Test(arguments: ["", "yesterday", "2015-13-40T99:00:00Z"])
    func rejectsGarbage(text: String) {
        #expect(WireTimestamp.parse(text) == nil)
    }
}
