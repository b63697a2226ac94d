/// Settings that a reload (SIGHUP) may change; actor-isolated.
actor LiveSettings {
    private(set) var refreshInterval: Duration
    private(set) var idleTimeout: Duration
    private(set) var cacheSize: Int

    init(_ configuration: DaemonConfiguration) {
        refreshInterval = configuration.refreshInterval
        idleTimeout = configuration.idleTimeout
        cacheSize = configuration.cacheSize
    }

    func update(_ configuration: DaemonConfiguration) {
        refreshInterval = configuration.refreshInterval
        idleTimeout = configuration.idleTimeout
        cacheSize = configuration.cacheSize
    }
}
