@_spi(Shell) public import PatchbayCore

/// A table of routes that matches URLs with JLRoutes semantics.
///
/// **Order.** Routes are tried by priority, highest first, and at equal priority in registration
/// order; within a route, the expansions of its optional groups longest first. The first route
/// that matches takes the URL, unless its guard returns false: then the search goes on with the
/// next route (or the next expansion of the same route), like a JLRoutes handler returning NO. A
/// guard runs only for routes whose pattern matched, in that order.
///
/// **URLs** are taken apart as JLRoutes does (see `match(_:extra:)`), by hand over their UTF-8
/// bytes, so the results are the same on Linux and Apple platforms.
///
/// **Speed.** The routes are compiled into a trie over path segments (see `RouteTrie`): a match
/// follows the URL's segments, not the list of routes, so its cost does not grow with the number
/// of routes (beyond the cache misses of a larger table), while it returns exactly what trying the
/// routes one by one in order would. To keep those misses few, a match reads compact plain data
/// (see `TrieStorage`) and the payload of the route it returns, nothing else of that route: its
/// result reads the pattern and priority from the table when asked. The URL is read once as UTF-8 bytes without building a string
/// per segment; percent-decoding happens only for the values of the chosen route, and only when
/// the URL contains a `%`.
///
/// **Differences from JLRoutes**, all deliberate:
/// - a trailing slash on a pattern is ignored (in JLRoutes `/a/b/` never matches);
/// - `*` must be the last segment (JLRoutes ignores what follows it), a `:` needs a name (JLRoutes
///   names that variable `:`), `//` and `()` are errors;
/// - `+` is a space only when written in a query value; `%2B` decodes to `+` everywhere, and path
///   variables keep `+` as is (JLRoutes turns both into spaces);
/// - a variable's trailing `#` is dropped before decoding, so an encoded `%23` stays;
/// - the root URL has no segments, so `/:x` does not match `/` and `/*` matches it with an empty
///   array (JLRoutes sees one empty segment: `x` is `""`, `*` is `[""]`);
/// - a malformed percent-escape, or one decoding to bad UTF-8, is an error instead of a failed match;
/// - optional groups keep every required part by position (JLRoutes compares required parts by
///   text, so its `/a(/x)/a` also yields `/x/a`), and equal-length expansions keep their
///   enumeration order (JLRoutes leaves it to an unspecified sort);
/// - priorities are `Int` (JLRoutes' are unsigned), so routes can also go after the default 0;
/// - there are no per-scheme namespaces: the scheme is ignored.
///
/// A router is a value; its guards are closures, so it is not `Sendable`. Results are, when the
/// payload is.
@_spi(Shell)
public struct Router<Payload> {
    /// A route's guard: given a match, whether the route takes it.
    public typealias Guard = (RouteResult<Payload>) -> Bool

    /// Patterns, priorities, match order and the compiled trie.
    @usableFromInline
    private(set) var table = RouteTable()
    /// The payloads by `RouteID.rawValue`: apart from the rest, so that the payloads a match reads
    /// lie close together whatever the size of the table. Copied on write.
    @usableFromInline
    private(set) var payloads = PayloadStorage<Payload>(capacity: 0)
    /// The guards by `RouteID.rawValue`, read only for routes that have one.
    @usableFromInline
    private(set) var guards: [Guard?] = []

    public init() {}

    /// The routes in match order.
    public var routes: [Route<Payload>] { table.order.map { self[$0]! } }

    /// The route with this id, unless it was removed.
    public subscript(id: RouteID) -> Route<Payload>? {
        guard let entry = table.entry(id), let payload = payloads[id.rawValue] else { return nil }
        return Route(id: id, pattern: entry.pattern, priority: entry.priority, payload: payload, guard: guards[id.rawValue])
    }

    /// The route whose pattern is written `text` (`RoutePattern.text`), if there is one; the
    /// latest added when there are several. Constant time, whatever the number of routes.
    public func route(withPattern text: String) -> Route<Payload>? {
        table.id(ofPattern: text).flatMap { self[$0] }
    }

    /// Adds a route after all routes of the same or higher priority and before those of lower
    /// priority. Call `conflicts(involving:)` to find the routes it overlaps.
    @discardableResult
    public mutating func add(_ pattern: RoutePattern, priority: Int = 0, payload: Payload, guard: Guard? = nil) -> RouteID {
        if !isKnownUniquelyReferenced(&payloads) || payloads.isFull {
            payloads = payloads.copy(minimumCapacity: Swift.max(8, payloads.isFull ? 2 * payloads.count : 0))
        }
        payloads.append(payload)
        guards.append(`guard`)
        return table.add(pattern, priority: priority, hasGuard: `guard` != nil)
    }

    /// Removes a route; returns it, or nil when there is no such route.
    @discardableResult
    public mutating func remove(_ id: RouteID) -> Route<Payload>? {
        guard let route = self[id] else { return nil }
        table.remove(id)
        if !isKnownUniquelyReferenced(&payloads) { payloads = payloads.copy(minimumCapacity: 0) }
        payloads.remove(at: id.rawValue)
        guards[id.rawValue] = nil
        return route
    }

    /// Gives route `id` a new priority and guard (see `add`); it keeps its registration number, so
    /// among the routes of the new priority it stands where its registration puts it. Costs what
    /// `remove` costs: the trie is compiled again.
    public mutating func update(_ id: RouteID, priority: Int, guard: Guard?) {
        guard self[id] != nil else { return }
        guards[id.rawValue] = `guard`
        table.update(id, priority: priority, hasGuard: `guard` != nil)
    }

    /// The first route, in match order, that matches `url` and whose guard (if any) accepts the
    /// match; nil when there is none.
    ///
    /// The URL is read as JLRoutes reads it: the scheme is skipped; the host is the first path
    /// segment unless it is `localhost` or contains a `.` (`myapp://user/42` has the segments
    /// `user`, `42`; `https://example.com/x` has `x`); a trailing `/` is ignored; the query's items
    /// become parameters (see `RouteResult.parameters`); a fragment is treated as JLRoutes treats
    /// it (`#a=1` adds query items, `#/view/x` extends the path with `#/view/x`).
    ///
    /// - Parameter extra: values that take precedence over every parameter of the same name.
    /// - Throws: `RoutingError` when a `%` in the URL does not start an escape of two hex digits,
    ///   or a value that is decoded is not UTF-8.
    @inlinable
    public func match(_ url: String, extra: [String: Value] = [:]) throws(RoutingError) -> RouteResult<Payload>? {
        try firstAccepted(url, extra) { bound throws(RoutingError) in try table.candidate(for: url, extra: extra, after: bound) }
    }

    /// The first candidate, in the order `next` gives them, whose guard (if any) accepts: a guard
    /// that declines passes on to the candidates ranked after it, as JLRoutes' handlers do.
    @inlinable
    func firstAccepted(
        _ url: String, _ extra: [String: Value], next: (RouteRank?) throws(RoutingError) -> RouteCandidate?
    ) throws(RoutingError) -> RouteResult<Payload>? {
        var bound: RouteRank?
        while let candidate = try next(bound) {
            let result = RouteResult(candidate, payloads.base[candidate.route], table.entries, url: url, extra: extra)
            if candidate.hasGuard, let accept = guards[candidate.route], !accept(result) {
                bound = table.rank(of: candidate)
                continue
            }
            return result
        }
        return nil
    }

    /// The first match, in match order, for which `choose` gives something, with what it gave;
    /// `choose` is asked about every route whose pattern matches (guarded or not) until one is
    /// chosen, and the routes' own guards are not run: the caller decides for them.
    func match<Choice>(
        _ url: String, extra: [String: Value] = [:], choosing choose: (RouteResult<Payload>) -> Choice?
    ) throws(RoutingError) -> (RouteResult<Payload>, Choice)? {
        var bound: RouteRank?
        while let candidate = try table.candidate(for: url, extra: extra, after: bound) {
            let result = RouteResult(candidate, payloads.base[candidate.route], table.entries, url: url, extra: extra)
            if let choice = choose(result) { return (result, choice) }
            bound = table.rank(of: candidate)
        }
        return nil
    }

    /// Whether `text` is a URL to route rather than a word: a path that starts with `/`, or
    /// anything that starts with an RFC 3986 scheme and a colon, as JLRoutes takes any URL
    /// (`myapp://user/42`, `tests:/test`, `tests:/`, `tests:user`).
    public static func isURL(_ text: String) -> Bool {
        if text.utf8.first == UInt8(ascii: "/") { return true }
        var text = text
        return text.withUTF8 { URLLayout.schemeLength($0) != nil }
    }

    /// Like `match(_:extra:)`, but throws `noRouteMatches`, naming the closest pattern and why it
    /// failed, when no route takes the URL.
    public func resolve(_ url: String, extra: [String: Value] = [:]) throws(RoutingError) -> RouteResult<Payload> {
        if let result = try match(url, extra: extra) { return result }
        let closest = try closestFailure(url, extra: extra)
        throw RoutingError(
            .noRouteMatches(url: url, closest: closest?.pattern, because: closest?.outcome.description),
            at: 0..<url.utf8.count)
    }

    /// The ordered scan: every expansion of every route in match order, the way JLRoutes routes.
    /// The trie must return exactly what this returns; kept as the oracle for tests.
    func scanMatch(_ url: String, extra: [String: Value] = [:]) throws(RoutingError) -> RouteResult<Payload>? {
        try firstAccepted(url, extra) { bound throws(RoutingError) in try table.scanCandidate(for: url, extra: extra, after: bound) }
    }

    /// The ids of the routes in match order.
    var matchOrder: [RouteID] { table.order }
}

/// The payloads of a router's routes by `RouteID.rawValue`, without the `Optional` that would mark
/// removed routes, which for payloads such as `Int` doubles their size, and so the memory a match
/// reads in a large table. A removed route's payload is released at once; which routes are removed
/// is kept apart. `Router` copies the object before mutating it when it is shared.
@usableFromInline
final class PayloadStorage<Payload> {
    /// The payloads; read by matches, which only ask for routes that are there.
    @usableFromInline
    let base: UnsafeMutablePointer<Payload>
    private let capacity: Int
    private(set) var count = 0
    /// Whether each payload is there (its route was not removed).
    private var present: [Bool] = []

    init(capacity: Int) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    deinit {
        for index in 0..<count where present[index] { (base + index).deinitialize(count: 1) }
        base.deallocate()
    }

    var isFull: Bool { count == capacity }

    /// A copy with room for at least `minimumCapacity` payloads.
    func copy(minimumCapacity: Int) -> PayloadStorage {
        let copy = PayloadStorage(capacity: Swift.max(capacity, minimumCapacity))
        for index in 0..<count where present[index] { (copy.base + index).initialize(to: base[index]) }
        copy.count = count
        copy.present = present
        return copy
    }

    /// Adds a payload after the others; there must be room.
    func append(_ payload: Payload) {
        (base + count).initialize(to: payload)
        present.append(true)
        count += 1
    }

    /// Releases a payload.
    func remove(at index: Int) {
        guard present[index] else { return }
        (base + index).deinitialize(count: 1)
        present[index] = false
    }

    /// The payload at `index`, unless it was removed.
    subscript(index: Int) -> Payload? { index < count && present[index] ? base[index] : nil }
}

extension Router where Payload == Void {
    /// Adds a route without payload (see `add(_:priority:payload:guard:)`).
    @discardableResult
    public mutating func add(_ pattern: RoutePattern, priority: Int = 0, guard: Guard? = nil) -> RouteID {
        add(pattern, priority: priority, payload: (), guard: `guard`)
    }
}
