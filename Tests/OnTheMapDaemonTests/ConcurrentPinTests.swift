import Foundation
import OnTheMapClient
import OnTheMapModels
import OnTheMapRPC
import OnTheMapTestSupport
import Testing

/// One pin per account, whatever the clients do at once.
@Suite("Concurrent pin writes", .ownThreads)
struct ConcurrentPinTests {
    /// How many pins the server holds for `key`, asked of the server itself.
    private func pinCount(_ bed: DaemonTestBed, key: String) throws -> Int {
        let url = bed.server.baseURL + "/StudentLocation?uniqueKey=\(key)&limit=1000"
        let reply = try runCommand("/usr/bin/curl", ["-sf", url])
        guard reply.status == 0, case .array(let pins)? = try JSONText.parse(reply.stdout.utf8)["results"] else {
            throw ServerProcessError(message: "cannot list pins: \(reply.stderr)")
        }
        return pins.count
    }

    /// Sends `count` `postPin`s at once, each on its own connection (every request is sent before any
    /// answer is read, so all are in flight together), and returns their outcomes.
    private func postConcurrently(_ bed: DaemonTestBed, count: Int, overwrite: Bool) throws -> [Result<WireJSON, RPCError>] {
        let connections = try (0..<count).map { _ in try bed.connect(timeout: .seconds(60)) }
        for (index, connection) in connections.enumerated() {
            let request = params(
                ("mapString", .string("Lima, Peru")), ("mediaURL", .string("https://ada.example/\(index)")),
                ("latitude", .number(-12.05)), ("longitude", .number(-77.04)), ("overwrite", .bool(overwrite)))
            try connection.send(RPCRequest(id: .integer(1), method: "postPin", params: request))
        }
        return try connections.map { connection in
            guard let reply = try connection.read(RPCReply<WireJSON>.self) else {
                throw ServerProcessError(message: "no answer to postPin")
            }
            return Result { () throws(RPCError) in try reply.outcome() }
        }
    }

    @Test("20 concurrent postPin with overwrite leave one pin", arguments: [true, false])
    func twentyAtOnceLeaveOnePin(overwrite: Bool) throws {
        let bed = try DaemonTestBed(students: 20)
        defer { bed.tearDown() }
        try bed.login()
        let outcomes = try postConcurrently(bed, count: 20, overwrite: overwrite)
        #expect(try pinCount(bed, key: bed.demoKey) == 1)
        let created = outcomes.compactMap { try? $0.get()["created"] }.filter { $0 == .bool(true) }
        #expect(created.count == 1, "pins created: \(created.count)")
        if overwrite {
            #expect(outcomes.allSatisfy { (try? $0.get()) != nil }, "\(outcomes)")
        } else {
            // Everyone after the first finds the pin and is told so.
            let refused = outcomes.compactMap { outcome -> RPCError? in
                if case .failure(let error) = outcome { return error }
                return nil
            }
            #expect(refused.count == 19)
            #expect(refused.allSatisfy { $0.code == RPCError.pinExistsCode })
        }
    }
}
