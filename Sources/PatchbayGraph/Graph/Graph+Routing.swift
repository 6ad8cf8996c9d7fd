@_spi(Shell) public import PatchbayCore

/// One `route add` of a pattern: what VISPER calls a view feature (a route with a view) or a
/// routing handler (a route without one, which only sends on `router.route`).
final class RouteRegistration {
    /// Registration order, over all patterns.
    let number: Int
    let view: String?
    let option: RoutingOption
    let priority: Int
    let condition: Expression?

    init(number: Int, view: String?, option: RoutingOption, priority: Int, condition: Expression?) {
        self.number = number
        self.view = view
        self.option = option
        self.priority = priority
        self.condition = condition
    }

    /// Whether this registration takes its pattern's URLs before `other` (VISPER's composed
    /// providers): the higher priority; on equal priorities a handler before a view (VISPER uses
    /// a routing handler whose priority is at least the controller provider's), then the later
    /// registration, as a feature added later overrides one added before.
    func wins(over other: RouteRegistration) -> Bool {
        if priority != other.priority { return priority > other.priority }
        if (view == nil) != (other.view == nil) { return view == nil }
        return number > other.number
    }

    /// `view=NAME` or `handler`, as `route rm` selects it.
    var selector: String { view.map { "view=\($0)" } ?? "handler" }
}

/// The router's payload: every registration of one pattern, in the order they take its URLs.
/// The router ranks the pattern by its highest priority; among patterns of that priority, by its
/// first registration.
final class RouteSpec {
    private(set) var registrations: [RouteRegistration]

    init(_ registration: RouteRegistration) {
        registrations = [registration]
    }

    var priority: Int { registrations[0].priority }

    /// Whether every registration has a guard, so that the pattern may pass a URL on to the next.
    var canDecline: Bool { registrations.allSatisfy { $0.condition != nil } }

    func insert(_ registration: RouteRegistration) {
        let index = registrations.firstIndex { registration.wins(over: $0) } ?? registrations.count
        registrations.insert(registration, at: index)
    }

    func remove(_ registration: RouteRegistration) {
        registrations.removeAll { $0 === registration }
    }
}

/// A presenter (VISPER's `Presenter`): sets the content of its view when the view is presented.
final class PresenterDefinition {
    let id: String
    let view: String
    /// When it is responsible (VISPER's `isResponsible`); always without.
    let condition: Expression?
    let expression: Expression
    /// Whether an entry it presented recomputes its part when a node the presenter reads changes.
    let isLive: Bool

    init(id: String, view: String, condition: Expression?, expression: Expression, isLive: Bool) {
        self.id = id
        self.view = view
        self.condition = condition
        self.expression = expression
        self.isLive = isLive
    }

    /// The nodes the presenter reads.
    var readNames: [String] { (condition?.freeNames ?? []) + expression.freeNames }

    var summary: PresenterSummary {
        PresenterSummary(id: id, view: view, condition: condition?.sourceText, expression: expression.sourceText, isLive: isLive)
    }
}

/// A presenter as `presenter list` shows it.
@_spi(Shell)
public struct PresenterSummary: Sendable, Equatable {
    public var id: String
    public var view: String
    public var condition: String?
    public var expression: String
    public var isLive: Bool

    /// The command that defines it: `presenter VIEW [--live] [when EXPR] : EXPR`.
    public var definition: String {
        "presenter \(view)" + (isLive ? " --live" : "") + (condition.map { " when \($0)" } ?? "") + " : \(expression)"
    }
}

/// A route registration as `route list` shows it.
@_spi(Shell)
public struct RouteSummary: Sendable, Equatable {
    public var pattern: String
    public var view: String?
    public var option: RoutingOption
    public var priority: Int
    public var condition: String?
    /// The registration of the same pattern that takes every URL before this one can (one
    /// without a guard that wins over it), if any.
    public var overriddenBy: String?

    /// `view=NAME` or `handler`.
    public var selector: String { view.map { "view=\($0)" } ?? "handler" }
}

/// What `route add` did.
@_spi(Shell)
public struct RouteAddition: Sendable, Equatable {
    /// The conflicts the pattern has with patterns of the same priority (warnings).
    public var conflicts: [RouteConflict]
    /// The registration of the same pattern that takes its URLs before the new one (one without a
    /// guard), or the one the new registration now wins over; nil for a first registration.
    public var overrides: RouteSummary?
    /// Whether the new registration takes the pattern's URLs before `overrides`.
    public var wins: Bool
}

/// What `route URL` did.
@_spi(Shell)
public struct Navigation: Sendable, Equatable {
    public var url: String
    public var pattern: String
    public var params: Value
    public var view: String?
    public var option: RoutingOption
    public var stack: NavigationStack

    /// `{url, pattern, params, view, option}`, as the `router.route` port sends it.
    public var value: Value {
        ["url": .string(url), "pattern": .string(pattern), "params": params, "view": view.map(Value.string) ?? .null,
         "option": .string(option.rawValue)]
    }
}

extension Graph {
    /// `route add PATTERN [view=NAME] [option=...] [priority=N] [when EXPR]`. A pattern may be
    /// registered more than once: its registrations take its URLs in VISPER's order (see
    /// `RouteRegistration.wins(over:)`); a `when` that declines passes the URL on to the next
    /// registration of the pattern, and then to the next pattern.
    /// - Returns: the conflicts with patterns of the same priority (warnings), and which
    ///   registration of the same pattern the new one overrides or follows.
    @discardableResult
    public func addRoute(_ pattern: RoutePattern, view: String? = nil, option: RoutingOption = .push, priority: Int = 0,
                         when condition: Expression? = nil) -> RouteAddition {
        let registration = RouteRegistration(
            number: nextRouteRegistration, view: view, option: option, priority: priority, condition: condition)
        nextRouteRegistration += 1
        defer {
            routerNode()
            defined(.route(pattern: pattern.text, registration))
        }
        guard let route = router.route(withPattern: pattern.text) else {
            let spec = RouteSpec(registration)
            let id = router.add(pattern, priority: priority, payload: spec, guard: condition == nil ? nil : patternGuard)
            return RouteAddition(conflicts: router.conflicts(involving: id), overrides: nil, wins: true)
        }
        let spec = route.payload
        let before = spec.registrations
        spec.insert(registration)
        let conflicts = updateRank(of: route) ? router.conflicts(involving: route.id) : []
        let position = spec.registrations.firstIndex { $0 === registration }!
        // The registration that matters to the user: the one the new one now comes before, or the
        // last one before it that takes every URL it gets first (without a guard).
        let earlier = spec.registrations[..<position]
        let other = position == 0 ? before.first : earlier.last { $0.condition == nil } ?? earlier.last
        return RouteAddition(conflicts: conflicts, overrides: other.map { summary(of: $0, pattern: pattern.text, in: spec) },
                             wins: position == 0)
    }

    /// Ranks the router's route of a pattern by its registrations; returns whether that changed.
    @discardableResult
    private func updateRank(of route: Route<RouteSpec>) -> Bool {
        let spec = route.payload
        guard spec.priority != route.priority || spec.canDecline != route.hasGuard else { return false }
        router.update(route.id, priority: spec.priority, guard: spec.canDecline ? patternGuard : nil)
        return true
    }

    /// The router's guard for a pattern whose registrations all have guards: whether one accepts.
    private var patternGuard: Router<RouteSpec>.Guard {
        { [unowned self] result in choose(result) != nil }
    }

    /// The registration of a matched pattern that takes the URL: the first, in the order they
    /// win, whose `when` accepts.
    private func choose(_ result: RouteResult<RouteSpec>) -> RouteRegistration? {
        let registrations = result.payload.registrations
        guard registrations.contains(where: { $0.condition != nil }) else { return registrations.first }
        for registration in registrations {
            guard let condition = registration.condition else { return registration }
            if passes(condition, result, registration) { return registration }
        }
        return nil
    }

    private func passes(_ condition: Expression, _ result: RouteResult<RouteSpec>, _ registration: RouteRegistration) -> Bool {
        let node = "route \(result.pattern.text)" + (result.payload.registrations.count > 1 ? " \(registration.selector)" : "")
        let route: Value = ["url": .string(result.url), "pattern": .string(result.pattern.text),
                            "params": .object(result.parameters), "view": registration.view.map(Value.string) ?? .null,
                            "option": .string(registration.option.rawValue)]
        do {
            let test = try condition.evaluate(
                Bindings(params: .object(result.parameters), url: .string(result.url), route: route), in: self)
            if case .bool(let pass) = test { return pass }
            report(.error(.nodeFailed(node: node, message: "its when must give a bool, not \(test.typeName)")))
        } catch {
            report(.error(.nodeFailed(node: node, message: error.message(in: condition.source))))
        }
        return false
    }

    /// `route rm PATTERN [view=NAME | handler]`: removes one registration of the pattern: the
    /// only one, or the first (in the order they win) with that view, or the first handler.
    /// - Parameter selector: `view=NAME` or `handler`; required when the pattern is registered
    ///   more than once.
    /// - Returns: the registration removed.
    @discardableResult
    public func removeRoute(_ pattern: String, selector: String? = nil) throws(GraphError) -> RouteSummary {
        guard let route = router.route(withPattern: pattern) else {
            throw .unknownRoute(pattern, existing: router.routes.map(\.pattern.text))
        }
        let spec = route.payload
        let registrations = spec.registrations
        let registration: RouteRegistration
        if let selector {
            guard let found = registrations.first(where: { $0.selector == selector }) else {
                throw .unknownRouteRegistration(pattern, wanted: selector, registrations: registrations.map(\.selector))
            }
            registration = found
        } else {
            guard registrations.count == 1 else {
                throw .ambiguousRouteRemoval(pattern, registrations: registrations.map(\.selector))
            }
            registration = registrations[0]
        }
        return remove(registration, of: route)
    }

    /// Removes one registration of the route's pattern (the route, when it is the last).
    func removeRoute(_ pattern: String, registration: RouteRegistration) throws(GraphError) {
        guard let route = router.route(withPattern: pattern) else {
            throw .unknownRoute(pattern, existing: router.routes.map(\.pattern.text))
        }
        remove(registration, of: route)
    }

    @discardableResult
    private func remove(_ registration: RouteRegistration, of route: Route<RouteSpec>) -> RouteSummary {
        let spec = route.payload
        let removed = summary(of: registration, pattern: route.pattern.text, in: spec)
        if spec.registrations.count == 1 {
            router.remove(route.id)
        } else {
            spec.remove(registration)
            updateRank(of: route)
        }
        return removed
    }

    private func summary(of registration: RouteRegistration, pattern: String, in spec: RouteSpec) -> RouteSummary {
        let position = spec.registrations.firstIndex { $0 === registration } ?? spec.registrations.count
        let overrider = spec.registrations[..<position].first { $0.condition == nil }
        return RouteSummary(pattern: pattern, view: registration.view, option: registration.option,
                            priority: registration.priority, condition: registration.condition?.description,
                            overriddenBy: overrider.map(\.selector))
    }

    /// `route list`: every registration, in the order they are tried: patterns in match order,
    /// each pattern's registrations in the order they take its URLs.
    public var routeSummaries: [RouteSummary] {
        router.routes.flatMap { route in
            route.payload.registrations.map { summary(of: $0, pattern: route.pattern.text, in: route.payload) }
        }
    }

    /// The `route add` commands that make the routes again, in an order that gives them the same
    /// places: each pattern where it was first registered, with all its registrations in the
    /// order they were made.
    var routeDefinitions: [(pattern: String, registration: RouteRegistration)] {
        router.routes.sorted { $0.id < $1.id }.flatMap { route in
            route.payload.registrations.sorted { $0.number < $1.number }.map { (route.pattern.text, $0) }
        }
    }

    /// `route check`: every pair of patterns of the same priority that shadow each other, and the
    /// patterns that can never match.
    public func routeConflicts() -> [RouteConflict] {
        router.conflicts()
    }

    /// `route explain URL`
    public func explainRoute(_ url: String) throws(GraphError) -> RouteExplanation {
        do { return try router.explain(url) } catch { throw .routing(error, text: url) }
    }

    /// `route URL [NAME=VALUE ...] [option=...]`: matches the URL, presents the view of the
    /// registration that takes it (its presenters set the content) as the registration's option
    /// or `option`, and sends the result on `router.route`. A handler only sends.
    @discardableResult
    public func navigate(to url: String, extra: [String: Value] = [:], option override: RoutingOption? = nil) throws(GraphError) -> Navigation {
        let result: RouteResult<RouteSpec>
        let registration: RouteRegistration
        do {
            (result, registration) = try reportingGuardErrorsOnce { () throws(RoutingError) in
                if let found = try router.match(url, extra: extra, choosing: { choose($0) }) { return found }
                let closest = try router.closestFailure(url, extra: extra)
                throw RoutingError(
                    .noRouteMatches(url: url, closest: closest?.pattern, because: closest?.outcome.description),
                    at: 0..<url.utf8.count)
            }
        } catch { throw .routing(error, text: url) }
        let option = override ?? registration.option
        let params = Value.object(result.parameters)
        if let view = registration.view {
            var entry = NavigationStack.Entry(view: view, url: url, params: params, content: .null, isModal: option == .modal,
                                              pattern: result.pattern.text, option: option)
            (entry.parts, entry.content) = present(entry)
            stack.present(entry, as: option)
            bindLivePresenters()
        }
        let navigation = Navigation(url: url, pattern: result.pattern.text, params: params, view: registration.view,
                                    option: option, stack: stack)
        var record = navigation
        record.stack = NavigationStack()
        routeHistory.append(record)
        for observer in routeObservers { observer(record) }
        routerNode().failure = nil
        emitRoute(navigation.value, on: routerNode(), cause: rootCause)
        return navigation
    }

    /// Puts a routed URL at the end of `routeHistory` without routing it: a recording read back
    /// (`inspect`, a replay's opening) gives the session the URLs routed before. Nothing is
    /// presented or sent, and the route observers do not hear it.
    package func restoreRoute(url: String, pattern: String, params: Value, view: String?, option: RoutingOption) {
        routeHistory.append(Navigation(url: url, pattern: pattern, params: params, view: view, option: option, stack: NavigationStack()))
    }

    /// Calls `observer` with every URL routed from now on (its `stack` left empty).
    public func observeRoutes(_ observer: @escaping (Navigation) -> Void) {
        routeObservers.append(observer)
    }

    /// Sends a route result on `router.route` as `send` sends on a signal: at once, at the commit of
    /// an explicit transaction (dropped by `abort`), or after the transaction being delivered.
    private func emitRoute(_ value: Value, on node: RouterNode, cause: Cause) {
        switch engine.writeMode {
        case .immediate:
            engine.runTransaction { node.emit(node.route, value, cause: cause, .event) }
        case .buffered:
            engine.bufferedEvents.append { node.emit(node.route, value, cause: cause, .event) }
        case .queued:
            engine.enqueue("router.route") { [unowned self] in emitRoute(value, on: node, cause: cause) }
        }
    }

    /// Runs `body`, reporting each error a guard gives once: when no route matches, the router runs
    /// the guards again to find the closest pattern, and a guard that fails would be reported twice.
    private func reportingGuardErrorsOnce<T>(_ body: () throws(RoutingError) -> T) throws(RoutingError) -> T {
        let earlier = takeEvents()
        defer {
            let produced = takeEvents()
            for event in earlier { report(event) }
            var reported: [GraphEvent] = []
            for event in produced where !reported.contains(event) {
                reported.append(event)
                report(event)
            }
        }
        return try body()
    }

    // MARK: router.open

    /// A value that arrived on `router.open` (a URL, or `{url, option, ...params}`), routed after
    /// the transaction that delivered it, as `route` routes. When it cannot be routed, the error
    /// is reported once, `router` is marked failed with it (naming the wire) until a route
    /// succeeds, and nothing else changes.
    func open(_ request: Value, via wire: String?) {
        let origin = wire.map { "wire \($0)" } ?? "router.open"
        do throws(GraphError) {
            let (url, extra, option) = try Self.openRequest(request)
            report(.routed(try navigate(to: url, extra: extra, option: option)))
        } catch {
            let node = routerNode()
            let message = "\(origin): \(error.description)"
            node.failure = message
            report(.error(.nodeFailed(node: RouterNode.name, message: message)))
        }
    }

    /// The URL, the extra parameters and the option a value on `router.open` asks for.
    static func openRequest(_ request: Value) throws(GraphError) -> (String, [String: Value], RoutingOption?) {
        let usage = "router.open takes a URL string or {url, option, ...params}"
        func url(_ value: Value) throws(GraphError) -> String {
            guard case .string(let text) = value else { throw .invalidRouteRequest("\(usage); its url is \(value.typeName), not a string") }
            guard Router<Void>.isURL(text) else {
                throw .invalidRouteRequest("\(usage): \(Value.string(text)) is not a URL (it starts with / or a scheme)")
            }
            return text
        }
        switch request {
        case .string:
            return (try url(request), [:], nil)
        case .object(let members):
            guard let target = members["url"] else { throw .invalidRouteRequest("\(usage); this object has no url") }
            var option: RoutingOption?
            if let given = members["option"] {
                guard case .string(let name) = given, let known = RoutingOption(rawValue: name) else {
                    throw .invalidRouteRequest("\(usage); option is one of push, modal, replace, root, back, not \(given)")
                }
                option = known
            }
            var extra: [String: Value] = [:]
            for (key, value) in members where key != "url" && key != "option" { extra[key.string] = value }
            return (try url(target), extra, option)
        default:
            throw .invalidRouteRequest("\(usage), not \(request.typeName)")
        }
    }

    // MARK: Presenters

    /// `presenter VIEW [--live] [when EXPR] : EXPR`: sets the content of VIEW whenever it is
    /// presented (while `when`, if given, is true). A live presenter also recomputes its part of
    /// the content of entries on the stack whenever a node it reads changes.
    /// - Returns: the presenter's id (`p1`, `p2`, ...).
    @discardableResult
    public func addPresenter(for view: String, when condition: Expression? = nil, live: Bool = false, _ expression: Expression) -> String {
        nextPresenterID += 1
        let id = "p\(nextPresenterID)"
        presenters.append(PresenterDefinition(id: id, view: view, condition: condition, expression: expression, isLive: live))
        defined(.presenter(id: id, view: view))
        if live { bindLivePresenters() }
        return id
    }

    /// `presenter rm ID`: entries already presented keep their content.
    @discardableResult
    public func removePresenter(_ id: String) throws(GraphError) -> PresenterSummary {
        guard let index = presenters.firstIndex(where: { $0.id == id }) else {
            throw .unknownPresenter(id, existing: presenters.map(\.id))
        }
        let removed = presenters.remove(at: index)
        if removed.isLive { bindLivePresenters() }
        return removed.summary
    }

    /// `presenter list [VIEW]`, in the order they run.
    public func presenterSummaries(for view: String? = nil) -> [PresenterSummary] {
        presenters.filter { view == nil || $0.view == view }.map(\.summary)
    }

    /// The ids of the presenters, for completion.
    public var presenterIDs: [String] { presenters.map(\.id) }

    /// Runs the presenters of the entry's view, in the order they were added, each with `params`,
    /// `url` and `route` (the whole result) bound: objects merge (later keys win), anything else
    /// replaces. A presenter whose `when` is false gives nothing; one that fails gives nothing
    /// and its error is reported: the view is presented all the same.
    private func present(_ entry: NavigationStack.Entry) -> ([PresenterPart], Value) {
        let parts = presenters.filter { $0.view == entry.view }.map { presenter in
            PresenterPart(presenter: presenter.id, value: run(presenter, for: entry))
        }
        return (parts, Self.content(of: parts))
    }

    private func run(_ presenter: PresenterDefinition, for entry: NavigationStack.Entry) -> Value? {
        let bindings = Bindings(params: entry.params, url: .string(entry.url), route: entry.routeValue)
        let failing = "presenter \(presenter.id) (\(presenter.view))"
        do {
            if let condition = presenter.condition {
                let test = try condition.evaluate(bindings, in: self)
                guard case .bool(let responsible) = test else {
                    report(.error(.nodeFailed(node: failing, message: "its when must give a bool, not \(test.typeName)")))
                    return nil
                }
                guard responsible else { return nil }
            }
        } catch {
            report(.error(.nodeFailed(node: failing, message: error.message(in: presenter.condition!.source))))
            return nil
        }
        do {
            return try presenter.expression.evaluate(bindings, in: self)
        } catch {
            report(.error(.nodeFailed(node: failing, message: error.message(in: presenter.expression.source))))
            return nil
        }
    }

    private static func content(of parts: [PresenterPart]) -> Value {
        var content = Value.null
        for case let value? in parts.map(\.value) {
            if case .object(var merged) = content, case .object(let members) = value {
                for (key, member) in members { merged[key] = member }
                content = .object(merged)
            } else {
                content = value
            }
        }
        return content
    }

    /// Listens to the nodes the live presenters of the entries on the stack read, so that those
    /// entries follow them. Called whenever the stack or the live presenters change.
    func bindLivePresenters() {
        for connection in liveConnections { connection.disconnect() }
        liveConnections = []
        let live = presenters.filter(\.isLive)
        guard !live.isEmpty else { return }
        let views = Set(stack.entries.map(\.view))
        var names: [String] = []
        for presenter in live where views.contains(presenter.view) {
            for name in presenter.readNames where !names.contains(name) { names.append(name) }
        }
        for name in names {
            guard let node = nodes[name] else { continue }
            for output in node.outputs {
                liveConnections.append(output.subscribe(future: true) { [unowned self] _ in refreshLiveEntries() })
            }
        }
    }

    /// Recomputes the part of every live presenter in each entry on the stack; once per
    /// transaction, after its wave has settled (listeners run then), so every read is settled.
    private func refreshLiveEntries() {
        guard lastLiveRefresh != engine.transactionID else { return }
        lastLiveRefresh = engine.transactionID
        let live = Dictionary(uniqueKeysWithValues: presenters.filter(\.isLive).map { ($0.id, $0) })
        for (index, entry) in stack.entries.enumerated() {
            guard entry.parts.contains(where: { live[$0.presenter] != nil }) else { continue }
            let parts = entry.parts.map { part in
                live[part.presenter].map { PresenterPart(presenter: part.presenter, value: run($0, for: entry)) } ?? part
            }
            guard parts != entry.parts else { continue }
            stack.update(at: index, parts: parts, content: Self.content(of: parts))
        }
    }

    /// The views that have presenters or routes, for completion.
    public var viewNames: [String] {
        var names = Set(presenters.map(\.view))
        for route in router.routes {
            for registration in route.payload.registrations { if let view = registration.view { names.insert(view) } }
        }
        return names.sorted()
    }

    /// The patterns of the routes, for completion.
    public var routePatterns: [String] { router.routes.map(\.pattern.text) }

    /// `back`: closes the top of the stack: the top modal, or else the top of the navigation stack.
    @discardableResult
    public func back() throws(GraphError) -> NavigationStack.Entry {
        guard let entry = stack.back() else { throw .emptyStack }
        bindLivePresenters()
        return entry
    }

    /// `dismiss`: closes the top modal.
    @discardableResult
    public func dismiss() throws(GraphError) -> [NavigationStack.Entry] {
        let closed = stack.dismiss()
        guard !closed.isEmpty else { throw .noModal }
        bindLivePresenters()
        return closed
    }

    /// The `router` node, created the first time routing is used.
    @discardableResult
    func routerNode() -> RouterNode {
        if let node = nodes[RouterNode.name] as? RouterNode { return node }
        let node = RouterNode(graph: self)
        add(node)
        if !openMarks.isEmpty { routerMadeUnderMarks = openMarks.count }
        return node
    }
}
