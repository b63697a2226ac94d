/// Every method the daemon serves, by name: built once at start-up.
enum MethodRegistry {
    static let methods: [any RPCMethod.Type] = [
        StatusMethod.self, LoginMethod.self, LogoutMethod.self, StudentsMethod.self, RefreshMethod.self,
        GeocodeMethod.self, MyPinMethod.self, PostPinMethod.self, SubscribeMethod.self, UnsubscribeMethod.self,
        MapMethod.self, ExportMapMethod.self, SignUpMethod.self, DiscoverMethod.self,
    ]

    static let byName: [String: any RPCMethod.Type] = Dictionary(uniqueKeysWithValues: methods.map { ($0.name, $0) })
}
