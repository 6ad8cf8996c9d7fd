/// A route's match of a URL.
public struct RouteResult<Payload> {
    /// The route that matched.
    public let route: RouteID
    /// The route's pattern, as registered.
    public let pattern: RoutePattern
    /// Which of the pattern's expansions matched (an index into `pattern.expandedPatterns`).
    public let expansionIndex: Int
    /// The route's priority.
    public let priority: Int
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

    @usableFromInline
    init(
        route: RouteID, pattern: RoutePattern, expansionIndex: Int, priority: Int, payload: Payload, url: String,
        parameters: Value.Members, extra: [String: Value]
    ) {
        self.route = route
        self.pattern = pattern
        self.expansionIndex = expansionIndex
        self.priority = priority
        self.payload = payload
        self.url = url
        self.parameters = parameters
        self.extra = extra
    }

    @inlinable
    init(_ candidate: consuming RouteCandidate, _ record: RouteRecord<Payload>, url: String, extra: [String: Value]) {
        self.init(
            route: RouteID(rawValue: candidate.route), pattern: record.pattern, expansionIndex: candidate.expansion,
            priority: record.priority, payload: record.payload, url: url, parameters: candidate.parameters, extra: extra)
    }

    /// The expansion that matched (`/path/:thing/new` for `/path/:thing(/new)`), which JLRoutes
    /// reports as `JLRoutePattern`.
    public var matchedPattern: String { pattern.expansions[expansionIndex].text }
}

extension RouteResult: Sendable where Payload: Sendable {}
extension RouteResult: Equatable where Payload: Equatable {}
