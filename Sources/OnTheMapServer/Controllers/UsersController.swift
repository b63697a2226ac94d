import Hummingbird
import OnTheMapModels

/// `GET /users/{key}`: an account's public names.
struct UsersController: Sendable {
    let accounts: any AccountStore

    func addRoutes(to group: RouterGroup<ServerRequestContext>) {
        group.get(":key", use: user)
    }

    @Sendable func user(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let key = try context.parameters.require("key")
        guard let account = try await accounts.account(key: key) else {
            throw APIFailure(.notFound, "User not found.")
        }
        return Response.json(
            UserProfile(firstName: account.firstName, lastName: account.lastName, nickname: account.nickname, key: account.key),
            prefixed: true)
    }
}
