extension Duration {
    /// The duration in seconds, fractions included.
    package var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
