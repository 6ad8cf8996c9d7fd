@_spi(Shell) public import PatchbayCore

/// A route's match of a URL.
@_spi(Shell)
public struct RouteResult<Payload> {
    /// The route that matched.
    public let route: RouteID
    /// The route's pattern, as registered.
    public var pattern: RoutePattern { routes[route.rawValue]!.pattern }
    /// Which of the pattern's expansions matched (an index into `pattern.expandedPatterns`).
    public let expansionIndex: Int
    /// The route's priority.
    public var priority: Int { routes[route.rawValue]!.priority }
    /// The route's payload.
    public let payload: Payload
    /// The URL as given.
    public let url: String
    /// The parameters, in this order: the pattern's variables as strings (percent-decoded) and, for
    /// a wildcard, `*` as an array of the remaining segments as written; then the query items not
    /// named like a variable, as strings, or arrays of strings when a name repeats (the fragment's
    /// query items count after the URL's own); then the extra values, which replace any parameter
    /// of the same name.
    public let parameters: Value.Members
    /// The extra values given to `match`.
    public let extra: [String: Value]

    /// The router's routes as they were at the match, which `pattern` reads: a match copies this
    /// one reference, the same for every match, rather than retaining its route's pattern, which
    /// in a large table is a cache miss of its own.
    @usableFromInline
    let routes: [RouteTable.Entry?]

    @inlinable
    init(
        _ candidate: consuming RouteCandidate, _ payload: Payload, _ routes: [RouteTable.Entry?], url: String,
        extra: [String: Value]
    ) {
        route = RouteID(rawValue: candidate.route)
        expansionIndex = candidate.expansion
        self.payload = payload
        self.url = url
        parameters = candidate.parameters
        self.extra = extra
        self.routes = routes
    }

    /// The expansion that matched (`/path/:thing/new` for `/path/:thing(/new)`), which JLRoutes
    /// reports as `JLRoutePattern`.
    public var matchedPattern: String { pattern.expansions[expansionIndex].text }
}

extension RouteResult: Sendable where Payload: Sendable {}
extension RouteResult: Equatable where Payload: Equatable {
    public static func == (a: RouteResult, b: RouteResult) -> Bool {
        a.route == b.route && a.pattern == b.pattern && a.expansionIndex == b.expansionIndex && a.priority == b.priority
            && a.payload == b.payload && a.url == b.url && a.parameters == b.parameters && a.extra == b.extra
    }
}
