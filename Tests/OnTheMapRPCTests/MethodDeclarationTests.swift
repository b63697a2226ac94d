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
        "map", "exportMap", "rpc.discover",
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
        let document = try WireJSON.parse(OpenRPCDocument.serialized(version: "9.9.9", methods: OnTheMapMethods.all).utf8)
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
        let wire = try WireJSON.parse(params.request(id: .integer(1)).serialized.utf8)
        #expect(wire["method"] == .string(Params.method), sourceLocation: sourceLocation)
        let decoded = try Params(params: wire["params"])
        #expect(decoded == params, "\(wire.serialized)", sourceLocation: sourceLocation)
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

    @Test func requestsAreWrittenInTheDeclaredOrder() {
        #expect(GeocodeParams(query: "Lima", limit: 1).request(id: .integer(3)).serialized
            == #"{"jsonrpc":"2.0","id":3,"method":"geocode","params":{"query":"Lima","limit":1}}"#)
        #expect(StatusParams().request(id: .integer(1)).serialized == #"{"jsonrpc":"2.0","id":1,"method":"status"}"#)
        #expect(MapParams(width: 24, height: 6, near: .place("Berlin"), radiusKm: 300, charset: .ascii).params?.serialized
            == #"{"width":24,"height":6,"charset":"ascii","near":"Berlin","radiusKm":300}"#)
        #expect(StudentsParams(limit: 100, near: .init(latitude: 1.5, longitude: 2, radiusKm: 10)).params?.serialized
            == #"{"limit":100,"near":{"latitude":1.5,"longitude":2,"radiusKm":10}}"#)
    }

    @Test func resultsReadBackWhatTheyWrite() throws {
        let status = StatusResult(
            version: "1.2.3", apiURL: "http://127.0.0.1:9/v1", account: AccountInfo(key: "42", firstName: "Ada", lastName: "L"),
            students: .init(count: 7, unplaceable: 1, refreshedAt: WireTimestamp.parse("2026-11-22T02:46:03.122Z"), stale: true, lastError: "down"),
            myPin: .init(objectId: "o1", mapString: "Lima", latitude: -12.05, longitude: -77.04), busy: ["refresh"], uptime: 1.5)
        #expect(StatusResult(wireJSON: status.wireJSON) == status)
        #expect(status.wireJSON.serialized == #"{"version":"1.2.3","apiURL":"http://127.0.0.1:9/v1","loggedIn":true,"account":{"key":"42","firstName":"Ada","lastName":"L"},"students":{"count":7,"unplaceable":1,"refreshedAt":"2026-11-22T02:46:03.122Z","stale":true,"lastError":"down"},"myPin":{"objectId":"o1","mapString":"Lima","latitude":-12.05,"longitude":-77.04},"busy":["refresh"],"uptime":1.5}"#)
        var loggedOut = status
        loggedOut.account = nil
        loggedOut.myPin = nil
        loggedOut.uptime = nil
        #expect(StatusResult(wireJSON: loggedOut.wireJSON) == loggedOut)
        #expect(loggedOut.wireJSON["loggedIn"] == .bool(false))
        #expect(loggedOut.wireJSON["uptime"] == nil)

        let places = GeocodeResults(results: [.init(name: "Köln", admin1: "NRW", country: "Germany", countryCode: "DE", latitude: 50.9333, longitude: 6.95, precision: "locality", score: 0.85)])
        #expect(GeocodeResults(wireJSON: places.wireJSON) == places)
        #expect(LogoutResult(wireJSON: LogoutResult(upstream: "already ended").wireJSON) == LogoutResult(upstream: "already ended"))
        #expect(SubscribeResult(events: [.status, .students, .status]).events == [.students, .status])
        let export = ExportMapResult(format: .svg, students: 3, document: "<svg/>")
        #expect(ExportMapResult(wireJSON: export.wireJSON) == export)
    }
}
