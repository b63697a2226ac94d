import Foundation
import OnTheMapModels
import OnTheMapTestSupport
import Testing

@Suite("Wire bodies and their exact bytes", .ownThreads)
struct WireFormatTests {
    @Test func errorBodyKeepsStatusFirst() {
        #expect(
            APIErrorBody(status: 403, error: "Account not found or invalid credentials.").wireJSON.serialized
                == #"{"status":403,"error":"Account not found or invalid credentials."}"#)
    }

    @Test func sessionResponseKeepsUdacityOrder() {
        let response = SessionResponse(
            account: .init(registered: true, key: "3903878747"),
            session: SessionInfo(id: "1457628510Sc18f2ad4cd3fb317fb8e028488694088", expiration: "2015-05-10T16:48:30.760460Z"))
        #expect(
            response.wireJSON.serialized
                == #"{"account":{"registered":true,"key":"3903878747"},"session":{"id":"1457628510Sc18f2ad4cd3fb317fb8e028488694088","expiration":"2015-05-10T16:48:30.760460Z"}}"#
        )
    }

    @Test func stringsAreEscapedLikeJSONEncoder() throws {
        let text = "quote\" backslash\\ slash/ newline\n tab\t nul\u{0} bell\u{7} é 東京 🗺"
        let serialized = WireJSON.string(text).serialized
        #expect(serialized == #""quote\" backslash\\ slash/ newline\n tab\t nul\u0000 bell\u0007 é 東京 🗺""#)
        #expect(try JSONDecoder().decode(String.self, from: Data(serialized.utf8)) == text)
    }

    @Test(arguments: [(12.0, "12"), (-86.5861037, "-86.5861037"), (0.1, "0.1"), (-0.0, "0"), (1e-7, "1e-07")])
    func numbersAreShortest(value: Double, expected: String) {
        #expect(WireJSON.number(value).serialized == expected)
    }

    @Test func userProfileDecodesBothShapes() throws {
        let top = #"{"first_name":"Ada","last_name":"Lovelace","nickname":"Ada","key":"42"}"#
        let wrapped = #"{"user":{"first_name":"Ada","last_name":"Lovelace","key":"42"}}"#
        let expected = UserProfile(firstName: "Ada", lastName: "Lovelace", nickname: "Ada", key: "42")
        #expect(try JSONDecoder().decode(UserProfile.self, from: Data(top.utf8)) == expected)
        var withoutNickname = expected
        withoutNickname.nickname = ""
        #expect(try JSONDecoder().decode(UserProfile.self, from: Data(wrapped.utf8)) == withoutNickname)
        // Strict: a key that is not text, or no first name, is an error.
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(UserProfile.self, from: Data(#"{"first_name":"A","last_name":"B","key":42}"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(UserProfile.self, from: Data(#"{"last_name":"B","key":"42"}"#.utf8))
        }
        #expect(expected.wireJSON.serialized == top)
    }

    @Test func xssiPrefixIsStrippedOnlyWhenPresent() {
        let body = Array(")]}'\n{}".utf8)
        #expect(Array(XSSIPrefix.strip(body)) == Array("{}".utf8))
        #expect(Array(XSSIPrefix.strip(Array("{}".utf8))) == Array("{}".utf8))
        #expect(Array(XSSIPrefix.strip(Array(")]}'".utf8))) == Array(")]}'".utf8))
    }

    @Test func secretsAreRedactedInDescriptions() throws {
        let login = LoginRequest.udacity(username: "ada@example.com", password: "hunter2")
        #expect(!"\(login)".contains("hunter2"))
        #expect(!"\(LoginRequest.facebook(accessToken: "EAAtoken"))".contains("EAAtoken"))
        #expect(!"\(SessionInfo(id: "1457628510Ssecret", expiration: "x"))".contains("secret"))
        #expect(
            try JSONText.of(login) == #"{"udacity":{"password":"hunter2","username":"ada@example.com"}}"#)
    }

    @Test func draftRoundTripsThroughTheWire() throws {
        let draft = StudentLocationDraft(
            uniqueKey: "1234", firstName: "John", lastName: "Doe", mapString: "Mountain View, CA",
            mediaURL: "https://udacity.com", latitude: 37.386052, longitude: -122.083851)
        #expect(
            try JSONText.of(draft)
                == #"{"firstName":"John","lastName":"Doe","latitude":37.386052,"longitude":-122.083851,"mapString":"Mountain View, CA","mediaURL":"https://udacity.com","uniqueKey":"1234"}"#
        )
        #expect(try JSONDecoder().decode(StudentLocationDraft.self, from: Data(try JSONText.of(draft).utf8)) == draft)
    }
}
