import OnTheMapModels

/// A method's result: a `Codable` value the daemon encodes and clients decode, both through
/// `WireCoding`, from this one declaration. Decoding is strict: a member missing or of another type
/// is an error that names it.
public protocol RPCResultType: Codable, Sendable {}

extension WireJSON: RPCResultType {}
