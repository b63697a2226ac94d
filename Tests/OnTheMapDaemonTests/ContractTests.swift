import Foundation
import OnTheMapClient
import OnTheMapGeocoder
import OnTheMapMap
import OnTheMapModels
import OnTheMapRPC
import OnTheMapTestSupport
import Testing

@testable import OnTheMapDaemon

/// The daemon against the declarations in `OnTheMapRPC`: it serves each declared method, with the
/// declared limits, refuses wrongly typed params naming them, and its results read back byte for byte.
@Suite("The daemon keeps the declared contracts", .ownThreads)
final class ContractTests {
    let bed: DaemonTestBed

    init() throws {
        bed = try DaemonTestBed(students: 40)
    }

    deinit {
        bed.tearDown()
    }

    @Test func servesEveryDeclaredMethodInOrder() {
        // rpc.discover describes OnTheMapMethods.all: every method it names is served.
        #expect(MethodRegistry.methods.map { $0.name } == OnTheMapMethods.all.map { $0.method })
    }

    @Test func declaredLimitsAreTheModulesOwn() {
        #expect(MapParams.widthRange == MapRenderer.minimumSize.width...MapRenderer.maximumSide)
        #expect(MapParams.heightRange == MapRenderer.minimumSize.height...MapRenderer.maximumSide)
        #expect(MapParams.zoomRange == MapView.zoomRange)
        #expect(GeocodeParams.maximumQueryBytes == PlaceQuery.maximumBytes)
    }

    /// A value of another JSON type for each declared param, sent with the method's other required
    /// params valid: -32602 naming that param, before anything else (no login needed).
    @Test func aWrongTypeIsRefusedNamingTheParam() throws {
        let valid: [String: [(String, WireJSON)]] = [
            "login": [("username", .string("a@example.com")), ("password", .string("secret"))],
            "geocode": [("query", .string("Lima"))],
            "postPin": [("mapString", .string("Lima")), ("mediaURL", .string("https://example.com"))],
            "exportMap": [("format", .string("svg"))],
        ]
        let wrong: [RPCParameter.Kind: WireJSON] = [
            .string: .integer(5), .integer: .string("5"), .number: .string("5"), .boolean: .string("yes"),
            .object: .integer(5), .array: .integer(5),
        ]
        let connection = try bed.connect()
        for method in OnTheMapMethods.all {
            for parameter in method.parameters {
                let others = (valid[method.method] ?? []).filter { $0.0 != parameter.name }
                let params = WireJSON.object(others + [(parameter.name, wrong[parameter.kind]!)])
                guard case .failure(let error) = try connection.call(method.method, params: params) else {
                    Issue.record("\(method.method) accepted \(params.serialized)")
                    continue
                }
                #expect(error.code == RPCError.invalidParamsCode, "\(method.method) \(params.serialized): \(error)")
                #expect(error.data?["field"] == .string(parameter.name), "\(method.method) \(params.serialized): \(error)")
            }
        }
    }

    /// The result of `request`, as the bytes the daemon sent.
    private func resultBytes(_ request: RPCRequest, on connection: RPCConnection) throws -> String {
        try connection.send(request)
        let line = try #require(try connection.readLine())
        let prefix = #"{"id":1,"jsonrpc":"2.0","result":"#
        try #require(line.hasPrefix(prefix) && line.hasSuffix("}"), "\(line.prefix(200))")
        return String(line.dropFirst(prefix.count).dropLast())
    }

    /// Reads the daemon's answer strictly into the declared result type and writes it again: the
    /// same JSON value (a list written from the cache's pins may order a pin's members otherwise).
    private func rewritten<Result: RPCResultType>(_ type: Result.Type, _ bytes: String) throws -> WireJSON {
        try JSONText.parse(JSONText.of(try WireCoding.decode(Result.self, from: Array(bytes.utf8))))
    }

    @Test func resultsReadBackByteForByte() throws {
        let connection = try bed.connect()
        let loggedOut = try resultBytes(StatusParams().request(id: .integer(1)), on: connection)
        #expect(try rewritten(StatusResult.self, loggedOut) == (try JSONText.parse(loggedOut)))
        let login = try resultBytes(LoginParams(.udacity(username: DaemonTestBed.email, password: DaemonTestBed.password)).request(id: .integer(1)), on: connection)
        #expect(try rewritten(AccountInfo.self, login) == (try JSONText.parse(login)))
        let status = try resultBytes(StatusParams().request(id: .integer(1)), on: connection)
        #expect(try rewritten(StatusResult.self, status) == (try JSONText.parse(status)))
        #expect(try WireCoding.decode(StatusResult.self, from: Array(status.utf8)).students.count == 40)
        // The stored answer, the near query's, and a search's: each written its own way.
        for params in [StudentsParams(), StudentsParams(limit: 5, near: .init(latitude: 48.1, longitude: 11.6, radiusKm: 20_000)), StudentsParams(search: "a")] {
            let students = try resultBytes(params.request(id: .integer(1)), on: connection)
            #expect(try rewritten(StudentsResult.self, students) == (try JSONText.parse(students)), "\(params)")
        }
        let refresh = try resultBytes(RefreshParams().request(id: .integer(1)), on: connection)
        #expect(try rewritten(RefreshResult.self, refresh) == (try JSONText.parse(refresh)))
        let geocode = try resultBytes(GeocodeParams(query: "Köln, Germany").request(id: .integer(1)), on: connection)
        #expect(try rewritten(GeocodeResults.self, geocode) == (try JSONText.parse(geocode)))
        let export = try resultBytes(ExportMapParams(format: .svg).request(id: .integer(1)), on: connection)
        #expect(try rewritten(ExportMapResult.self, export) == (try JSONText.parse(export)))
        let subscribe = try resultBytes(SubscribeParams(events: [.status]).request(id: .integer(1)), on: connection)
        #expect(subscribe == #"{"events":["status"]}"#)
        let logout = try RPCConnection(path: bed.daemon.socketPath, timeout: .seconds(20))
        let bytes = try resultBytes(LogoutParams().request(id: .integer(1)), on: logout)
        #expect(try rewritten(LogoutResult.self, bytes) == (try JSONText.parse(bytes)))
    }
}
