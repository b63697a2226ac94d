import Foundation
import OnTheMapTestSupport

/// docs/deploy/nginx-onthemap.conf as shipped, run by a real nginx in front of the given replicas:
/// the test's ports in place of 8081, 8082 and 80, everything else as an operator would install it.
struct NginxExample {
    let process: RunningProcess
    let port: Int
    /// The API's URL through nginx (`http://127.0.0.1:PORT/v1`).
    var baseURL: String { "http://127.0.0.1:\(port)/v1" }

    /// Starts nginx on a free port (another one if a parallel run took it) once a GET through it answers.
    static func start(in directory: TemporaryDirectory, replicas: [Int]) async throws -> NginxExample {
        let example = try String(
            contentsOfFile: DeployConfigTests.repositoryFile("docs/deploy/nginx-onthemap.conf"), encoding: .utf8)
        precondition(replicas.count == 2, "the example names two replicas")
        for _ in 0..<5 {
            let port = try FreePort.pick()
            let site = example.replacingOccurrences(of: "127.0.0.1:8081", with: "127.0.0.1:\(replicas[0])")
                .replacingOccurrences(of: "127.0.0.1:8082", with: "127.0.0.1:\(replicas[1])")
                .replacingOccurrences(of: "listen 80;", with: "listen 127.0.0.1:\(port);")
            let process = try Self.run(site: site, in: directory, connections: 256)
            if try await DeployConfigTests.answers("http://127.0.0.1:\(port)/v1/StudentLocation?limit=1") {
                return NginxExample(process: process, port: port)
            }
            process.stop()
        }
        let log = (try? String(contentsOfFile: directory.file("error.log"), encoding: .utf8)) ?? ""
        throw ServerProcessError(message: "nginx did not start: \(log)")
    }

    func stop() {
        process.stop()
    }

    /// A real nginx in the foreground serving `site` (a server block, as in docs/deploy), everything
    /// it writes kept in `directory`.
    static func run(site: String, in directory: TemporaryDirectory, connections: Int) throws -> RunningProcess {
        try site.write(toFile: directory.file("site.conf"), atomically: true, encoding: .utf8)
        let main = """
            daemon off;
            master_process off;
            pid \(directory.file("nginx.pid"));
            error_log \(directory.file("error.log")) warn;
            events { worker_connections \(connections); }
            http {
                access_log off;
                client_body_temp_path \(directory.path);
                proxy_temp_path \(directory.path);
                include \(directory.file("site.conf"));
            }
            """
        try main.write(toFile: directory.file("nginx.conf"), atomically: true, encoding: .utf8)
        return try RunningProcess("/usr/sbin/nginx", ["-c", directory.file("nginx.conf"), "-p", directory.path])
    }
}
