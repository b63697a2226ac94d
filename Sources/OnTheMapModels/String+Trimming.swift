extension StringProtocol {
    /// The text without leading and trailing whitespace and newlines.
    ///
    /// FoundationEssentials (which keeps the client small) has no `trimmingCharacters(in:)`.
    public func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
            let last = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(self[first...last])
    }
}
