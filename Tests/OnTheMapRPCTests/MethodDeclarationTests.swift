import OnTheMapModels
import OnTheMapRPC
import OnTheMapTestSupport
import Testing

/// The declarations themselves: what `rpc.discover` says of them, and that what a client writes is
/// what the daemon reads back.
@Suite("Method declarations", .ownThreads)
struct MethodDeclarationTests {
    static let names = [
        "status", "login", "logout", "students", "refresh", "geocode", "myPin", "postPin", "subscribe", "unsubscribe",
        "map", "exportMap", "signUp", "rpc.discover",
    ]

    @Test func everyMethodIsDeclaredOnce() {
        #expect(OnTheMapMethods.all.map { $0.method } == Self.names)
        for method in OnTheMapMethods.all {
            let names = method.parameters.map(\.name)
            #expect(Set(names).count == names.count, "\(method.method) declares a param twice")
            #expect(!method.summary.isEmpty)
        }
    }

    @Test func openRPCListsEachParamWithItsTypeAndWhetherItIsRequired() throws {
        let document = try JSONText.parse(JSONText.of(OpenRPCDocument.document(version: "9.9.9", methods: OnTheMapMethods.all)))
        #expect(document["openrpc"] == .string("1.2.6"))
        #expect(document["info"]?["version"] == .string("9.9.9"))
        guard case .array(let methods)? = document["methods"] else { Issue.record("no methods"); return }
        #expect(methods.count == OnTheMapMethods.all.count)
        for (described, declared) in zip(methods, OnTheMapMethods.all) {
            #expect(described["name"] == .string(declared.method))
            #expect(described["paramStructure"] == .string("by-name"))
            guard case .array(let params)? = described["params"] else { Issue.record("\(declared.method): no params"); continue }
            #expect(params.count == declared.parameters.count)
            for (param, parameter) in zip(params, declared.parameters) {
                #expect(param["name"] == .string(parameter.name))
                #expect(param["schema"]?["type"] == .string(parameter.kind.rawValue))
                #expect(param["required"] == .bool(parameter.required))
                #expect(param["description"]?.stringValue?.isEmpty == false)
            }
        }
        // A few spelled out, so a wrong declaration cannot hide behind the loop above.
        let geocode = try #require(methods.first { $0["name"] == .string("geocode") })
        #expect(geocode["params"] == .array([
            .object([("name", .string("query")), ("required", .bool(true)), ("description", .string("what a person typed, e.g. \"Duisburg, Germany\"")), ("schema", .object([("type", .string("string"))]))]),
            .object([("name", .string("limit")), ("required", .bool(false)), ("description", .string("at most this many (default 5)")), ("schema", .object([("type", .string("integer"))]))]),
        ]))
        let kinds = Dictionary(uniqueKeysWithValues: OnTheMapMethods.all.map { ($0.method, $0.parameters.map { "\($0.name):\($0.kind.rawValue)\($0.required ? "!" : "")" }) })
        #expect(kinds["postPin"] == ["mapString:string!", "mediaURL:string!", "latitude:number", "longitude:number", "overwrite:boolean"])
        #expect(kinds["students"] == ["limit:integer", "skip:integer", "search:string", "near:object", "refresh:boolean"])
        #expect(kinds["subscribe"] == ["events:array"])
        #expect(kinds["exportMap"] == ["format:string!"])
        #expect(kinds["status"] == [])
    }

    /// Encodes with the client's side of the declaration and decodes with the daemon's.
    private func roundTrip<Params: RPCRequestType & Equatable>(_ params: Params, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let wire = try JSONText.parse(String(decoding: params.request(id: .integer(1)).line, as: UTF8.self))
        #expect(wire["method"] == .string(Params.method), sourceLocation: sourceLocation)
        let decoded = try Params(params: wire["params"])
        #expect(decoded == params, "\((try? JSONText.of(wire)) ?? "")", sourceLocation: sourceLocation)
    }

    @Test func typedParamsRoundTrip() throws {
        try roundTrip(StatusParams())
        try roundTrip(LoginParams(.udacity(username: "ada@example.com", password: "p@ss \"word\"")))
        try roundTrip(LoginParams(.facebook(accessToken: "EAAB…")))
        try roundTrip(LogoutParams())
        try roundTrip(StudentsParams())
        try roundTrip(StudentsParams(limit: 3, skip: 2, search: "münchen", near: .init(latitude: -33.9, longitude: 151.2, radiusKm: 50), refresh: true))
        try roundTrip(StudentsParams(near: .init(latitude: 0, longitude: -180)))
        try roundTrip(RefreshParams())
        try roundTrip(GeocodeParams(query: "Köln, Germany"))
        try roundTrip(GeocodeParams(query: "Lima", limit: 1))
        try roundTrip(MyPinParams())
        try roundTrip(PostPinParams(mapString: "Lima, Peru", mediaURL: "https://example.com", latitude: -12.05, longitude: -77.04, overwrite: true))
        try roundTrip(PostPinParams(mapString: "Lima, Peru", mediaURL: "https://example.com"))
        try roundTrip(SubscribeParams())
        try roundTrip(SubscribeParams(events: [.students, .status]))
        try roundTrip(UnsubscribeParams())
        try roundTrip(MapParams())
        try roundTrip(MapParams(width: 120, height: 40, fit: .pins, charset: .ascii))
        try roundTrip(MapParams(center: .init(latitude: 10, longitude: 20), zoom: 8))
        try roundTrip(MapParams(near: .place("Berlin, Germany"), radiusKm: 300))
        try roundTrip(MapParams(near: .point(.init(latitude: 64.15, longitude: -21.94))))
        try roundTrip(ExportMapParams(format: .svg))
        try roundTrip(DiscoverParams())
    }

    @Test func requestsAreOneLineOfJSONInTheirDeclaredOrder() throws {
        #expect(String(decoding: GeocodeParams(query: "Lima", limit: 1).request(id: .integer(3)).line, as: UTF8.self)
            == #"{"jsonrpc":"2.0","id":3,"method":"geocode","params":{"query":"Lima","limit":1}}"# + "\n")
        #expect(String(decoding: StatusParams().request(id: .integer(1)).line, as: UTF8.self) == #"{"jsonrpc":"2.0","id":1,"method":"status"}"# + "\n")
        #expect(try JSONText.of(MapParams(width: 24, height: 6, near: .place("Berlin"), radiusKm: 300, charset: .ascii).params)
            == #"{"charset":"ascii","height":6,"near":"Berlin","radiusKm":300,"width":24}"#)
    }

    @Test func resultsReadBackWhatTheyWrite() throws {
        let pin = StudentPin(
            student: StudentLocation(
                objectId: "o1", uniqueKey: "42", firstName: "Ada", lastName: "L", mapString: "Lima, Peru",
                mediaURL: "https://ada.example", latitude: -12.05, longitude: -77.04,
                createdAt: WireTimestamp.parse("2026-11-22T02:46:03.122Z"), updatedAt: WireTimestamp.parse("2026-11-22T02:46:03.122Z")),
            mine: true)
        let status = StatusResult(
            version: "1.2.3", apiURL: "http://127.0.0.1:9/v1", account: AccountInfo(key: "42", firstName: "Ada", lastName: "L"),
            students: .init(
                count: 7, skipped: 1, skippedWhy: "1 record left out: firstName is missing (1)",
                refreshedAt: WireTimestamp.parse("2026-11-22T02:46:03.122Z"), stale: true, lastError: "down"),
            myPin: pin, busy: ["refresh"], uptime: 1.5)
        #expect(try JSONText.roundTrip(status) == status)
        #expect(try JSONText.of(status) == #"{"account":{"firstName":"Ada","key":"42","lastName":"L"},"apiURL":"http://127.0.0.1:9/v1","busy":["refresh"],"loggedIn":true,"myPin":{"createdAt":"2026-11-22T02:46:03.122Z","firstName":"Ada","lastName":"L","latitude":-12.05,"longitude":-77.04,"mapString":"Lima, Peru","mediaURL":"https://ada.example","mine":true,"objectId":"o1","uniqueKey":"42","updatedAt":"2026-11-22T02:46:03.122Z"},"students":{"count":7,"lastError":"down","refreshedAt":"2026-11-22T02:46:03.122Z","skipped":1,"skippedWhy":"1 record left out: firstName is missing (1)","stale":true},"uptime":1.5,"version":"1.2.3"}"#)
        let loggedOut = StatusResult(
            version: "1.2.3", apiURL: "http://127.0.0.1:9/v1", account: nil, students: .init(count: 0, refreshedAt: nil, stale: false, lastError: nil),
            myPin: nil, busy: [], uptime: 0)
        #expect(try JSONText.roundTrip(loggedOut) == loggedOut)
        #expect(try JSONText.parse(JSONText.of(loggedOut))["loggedIn"] == .bool(false))

        var near = pin
        near.distanceKm = 12.3
        near.cell = MapCell(n: 4, row: 2, col: 9)
        #expect(try JSONText.roundTrip(near) == near)
        let places = GeocodeResults(results: [.init(name: "Köln", admin1: "NRW", country: "Germany", countryCode: "DE", latitude: 50.9333, longitude: 6.95, precision: "locality", score: 0.85)])
        #expect(try JSONText.roundTrip(places) == places)
        #expect(places.results[0].label == "Köln, NRW, Germany")
        #expect(try JSONText.roundTrip(LogoutResult(upstream: "already ended")) == LogoutResult(upstream: "already ended"))
        #expect(SubscribeResult(events: [.status, .students, .status]).events == [.students, .status])
        let export = ExportMapResult(format: .svg, students: 3, document: "<svg/>")
        #expect(try JSONText.roundTrip(export) == export)
    }

    /// A client reads results strictly: a member missing or of another type is an error naming it,
    /// never an empty name or a pin at 0,0.
    @Test func aResultWithoutARequiredMemberIsAnErrorNamingIt() throws {
        let missingName = #"{"results":[{"admin1":"","country":"Peru","countryCode":"PE","label":"Lima, Peru","latitude":-12,"longitude":-77,"precision":"locality","score":1}]}"#
        #expect {
            try WireCoding.decode(GeocodeResults.self, from: Array(missingName.utf8))
        } throws: { error in
            (error as? DecodingError)?.fieldProblem == "name is missing"
        }
        let textLatitude = #"{"created":true,"pin":{"firstName":"A","lastName":"B","latitude":"north","longitude":0,"mapString":"x","mediaURL":"","mine":true,"objectId":"o","uniqueKey":"k"}}"#
        #expect {
            try WireCoding.decode(PostPinResult.self, from: Array(textLatitude.utf8))
        } throws: { error in
            (error as? DecodingError)?.fieldProblem == "latitude is not a number"
        }
    }
}
