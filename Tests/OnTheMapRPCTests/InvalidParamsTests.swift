import OnTheMapModels
import OnTheMapRPC
import OnTheMapTestSupport
import Testing

/// What the daemon's decoding refuses, and how it says so: -32602, the message, and `data.field`.
@Suite("Invalid params", .ownThreads)
struct InvalidParamsTests {
    private func refusal<Params: RPCRequestType>(
        _ type: Params.Type, _ json: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> RPCError {
        let params = try JSONText.parse(json)
        do {
            _ = try Params(params: params)
        } catch {
            #expect(error.code == RPCError.invalidParamsCode, sourceLocation: sourceLocation)
            return error
        }
        Issue.record("\(Params.method) accepted \(json)", sourceLocation: sourceLocation)
        return RPCError(code: 0, message: "")
    }

    @Test(arguments: [
        // Wrong JSON types name the param.
        (GeocodeParams.method, #"{"query":5}"#, "query", "query must be a string, not a number."),
        (GeocodeParams.method, #"{"query":"Lima","limit":"2"}"#, "limit", "limit must be a whole number between 1 and 50, not a string."),
        // A number, but no whole one: said as given (it said "not a number").
        (StudentsParams.method, #"{"limit":1.5}"#, "limit", "limit must be a whole number between 0 and 100000, not 1.5."),
        (StudentsParams.method, #"{"skip":1e30}"#, "skip", "skip must be a whole number between 0 and 2147483647, not 1e+30."),
        (GeocodeParams.method, #"{"query":"Lima","limit":51}"#, "limit", "limit must be between 1 and 50."),
        (GeocodeParams.method, #"{"query":"  "}"#, "query", "query is required."),
        (GeocodeParams.method, #"{"query":"Lima","verbose":true}"#, "verbose", "verbose is not a parameter of this method."),
        (GeocodeParams.method, #"["Lima"]"#, "params", "params must be named (a JSON object); positional params are not supported."),
        (LoginParams.method, #"{"username":"a"}"#, "password", "password is required."),
        (LoginParams.method, #"{"facebookAccessToken":"t","username":"a"}"#, "facebookAccessToken", "facebookAccessToken cannot be combined with username and password."),
        (StudentsParams.method, #"{"near":{"longitude":2}}"#, "near.latitude", "near.latitude is required."),
        (StudentsParams.method, #"{"near":{"latitude":1,"longitude":2,"km":3}}"#, "near.km", "near.km is not a parameter of near."),
        (StudentsParams.method, #"{"near":{"latitude":"1","longitude":2}}"#, "latitude", "latitude must be a number, not a string."),
        // The same radius as the map's (the CLI's --radius): below 0.1 km no pin is ever near.
        (StudentsParams.method, #"{"near":{"latitude":1,"longitude":2,"radiusKm":0.05}}"#, "radiusKm", "radiusKm must be between 0.1 and 20100."),
        (StudentsParams.method, #"{"limit":-1}"#, "limit", "limit must be between 0 and 100000."),
        (StudentsParams.method, #"{"refresh":"yes"}"#, "refresh", "refresh must be true or false, not a string."),
        (PostPinParams.method, #"{"mapString":"Lima","mediaURL":"https://x.example","latitude":1}"#, "longitude", "longitude is required when the other coordinate is given."),
        (PostPinParams.method, #"{"mapString":"Lima","mediaURL":"https://x.example","latitude":91,"longitude":1}"#, "latitude", "latitude must be between -90 and 90."),
        (PostPinParams.method, #"{"mediaURL":"https://x.example"}"#, "mapString", "mapString is required."),
        (SubscribeParams.method, #"{"events":["students","weather"]}"#, "events", "events may only hold students, session and status."),
        (SubscribeParams.method, #"{"events":"students"}"#, "events", "events must be an array of strings."),
        (ExportMapParams.method, #"{"format":"pdf"}"#, "format", "format must be \"html\" or \"svg\"."),
        (ExportMapParams.method, #"{"format":" "}"#, "format", "format is required."),
        (ExportMapParams.method, #"{}"#, "format", "format is required."),
        (MapParams.method, #"{"width":9}"#, "width", "width must be between 10 and 1000."),
        (MapParams.method, #"{"charset":"emoji"}"#, "charset", "charset must be \"braille\" or \"ascii\"."),
        (MapParams.method, #"{"fit":"pins","near":"Paris"}"#, "fit", "fit goes alone: give one of fit, center and near."),
        (MapParams.method, #"{"fit":"everything"}"#, "fit", "fit must be \"world\" or \"pins\"."),
        (MapParams.method, #"{"zoom":3}"#, "zoom", "zoom needs center."),
        (MapParams.method, #"{"radiusKm":5}"#, "radiusKm", "radiusKm needs near."),
        (MapParams.method, #"{"near":3}"#, "near", "near must be a place or {latitude, longitude}."),
        (MapParams.method, #"{"near":" "}"#, "near", "near is empty."),
        (MapParams.method, #"{"center":{"latitude":1}}"#, "center.longitude", "center.longitude is required."),
        (MapParams.method, #"{"center":{"latitude":1,"longitude":2},"zoom":5000}"#, "zoom", "zoom must be between 1 and 4096."),
        (StatusParams.method, #"{"verbose":true}"#, "verbose", "verbose is not a parameter of this method."),
    ])
    func refusedWithTheField(method: String, json: String, field: String, message: String) throws {
        let declaration = try #require(OnTheMapMethods.all.first { $0.method == method })
        let error = try refusal(declaration, json)
        #expect(error.data?["field"] == .string(field), "\(json): \(error.message)")
        #expect(error.message == message)
    }

    /// Every string is bounded (issue 39): the search has its own bound, documented in PROTOCOL.md.
    @Test func longStringsAreRefusedNamingTheirBound() throws {
        let search = try refusal(StudentsParams.self, #"{"search":"\#(String(repeating: "a", count: 201))"}"#)
        #expect(search.message == "search is too long (at most 200 bytes).")
        let link = try refusal(PostPinParams.self, #"{"mapString":"Lima","mediaURL":"https://\#(String(repeating: "a", count: 2100))"}"#)
        #expect(link.message == "mediaURL is too long (at most 2048 bytes).")
        #expect(try StudentsParams(params: .object([("search", .string(String(repeating: "é", count: 100)))])).search?.count == 100)
    }

    @Test func nullAndEmptyArrayMeanNone() throws {
        #expect(try StudentsParams(params: .array([])) == StudentsParams())
        #expect(try StudentsParams(params: nil) == StudentsParams())
        #expect(try StudentsParams(params: .object([("search", .null)])) == StudentsParams())
        #expect(try MapParams(params: .object([("near", .string("52.52, 13.40"))])).near == .point(.init(latitude: 52.52, longitude: 13.4)))
    }
}
