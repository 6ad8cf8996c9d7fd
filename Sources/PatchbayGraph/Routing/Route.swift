@_spi(Shell) import PatchbayCore

/// Identifies a route within its router: routes are numbered in registration order.
@_spi(Shell)
public struct RouteID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The registration number, from 0.
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    public static func < (a: RouteID, b: RouteID) -> Bool { a.rawValue < b.rawValue }

    public var description: String { "#\(rawValue)" }
}

/// A registered route: a pattern, its priority, what it carries, and perhaps a guard.
@_spi(Shell)
public struct Route<Payload> {
    public let id: RouteID
    public let pattern: RoutePattern
    /// Higher priorities are tried first; equal priorities in registration order.
    public let priority: Int
    /// What the route carries to its results (a view and a presentation option, a handler, ...).
    public let payload: Payload
    /// Decides, given a match, whether the route takes it; false passes the URL on to the next
    /// route, like a JLRoutes handler returning NO.
    let `guard`: ((RouteResult<Payload>) -> Bool)?

    init(id: RouteID, pattern: RoutePattern, priority: Int, payload: Payload, guard: ((RouteResult<Payload>) -> Bool)?) {
        self.id = id
        self.pattern = pattern
        self.priority = priority
        self.payload = payload
        self.guard = `guard`
    }

    /// Whether the route has a guard.
    public var hasGuard: Bool { `guard` != nil }
}
