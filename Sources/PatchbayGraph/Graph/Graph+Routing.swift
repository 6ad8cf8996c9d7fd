public import PatchbayCore

/// What a route does when it matches (the router's payload).
struct RouteSpec {
    var view: String?
    var option: RoutingOption
    var condition: Expression?
}

/// A route as `route list` shows it.
public struct RouteSummary: Sendable, Equatable {
    public var pattern: String
    public var view: String?
    public var option: RoutingOption
    public var priority: Int
    public var condition: String?
}

/// What `route URL` did.
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
    /// `route add PATTERN [view=NAME] [option=...] [priority=N] [when EXPR]`
    /// - Returns: the conflicts the new route has with routes of the same priority (warnings).
    @discardableResult
    public func addRoute(_ pattern: RoutePattern, view: String? = nil, option: RoutingOption = .push, priority: Int = 0,
                         when condition: Expression? = nil) throws(GraphError) -> [RouteConflict] {
        if router.route(withPattern: pattern.text) != nil {
            throw .routeExists(pattern.text)
        }
        let spec = RouteSpec(view: view, option: option, condition: condition)
        let check: Router<RouteSpec>.Guard? = condition.map { condition in
            { [unowned self] result in passes(condition, result) }
        }
        let id = router.add(pattern, priority: priority, payload: spec, guard: check)
        routerNode()
        return router.conflicts(involving: id)
    }

    private func passes(_ condition: Expression, _ result: RouteResult<RouteSpec>) -> Bool {
        do {
            let test = try condition.evaluate(Bindings(params: .object(result.parameters), url: .string(result.url)), in: self)
            if case .bool(let pass) = test { return pass }
            report(.error(.nodeFailed(node: "route \(result.pattern.text)", message: "its when must give a bool, not \(test.typeName)")))
        } catch {
            report(.error(.nodeFailed(node: "route \(result.pattern.text)", message: error.message(in: condition.source))))
        }
        return false
    }

    /// `route rm PATTERN`
    public func removeRoute(_ pattern: String) throws(GraphError) {
        guard let route = router.route(withPattern: pattern) else {
            throw .unknownRoute(pattern, existing: router.routes.map(\.pattern.text))
        }
        router.remove(route.id)
    }

    /// `route list`: in the order they are tried.
    public var routeSummaries: [RouteSummary] {
        router.routes.sorted { $0.priority != $1.priority ? $0.priority > $1.priority : $0.id < $1.id }.map { route in
            RouteSummary(pattern: route.pattern.text, view: route.payload.view, option: route.payload.option,
                         priority: route.priority, condition: route.payload.condition?.description)
        }
    }

    /// `route check`: every pair of routes of the same priority that shadow each other, and the
    /// routes that can never match.
    public func routeConflicts() -> [RouteConflict] {
        router.conflicts()
    }

    /// `route explain URL`
    public func explainRoute(_ url: String) throws(GraphError) -> RouteExplanation {
        do { return try router.explain(url) } catch { throw .routing(error, text: url) }
    }

    /// `route URL [NAME=VALUE ...] [option=...]`: matches the URL, presents the route's view (its
    /// presenters set the content) as the route's option or `option`, and sends the result on
    /// `router.route`. A route without a view only sends.
    @discardableResult
    public func navigate(to url: String, extra: [String: Value] = [:], option override: RoutingOption? = nil) throws(GraphError) -> Navigation {
        let result: RouteResult<RouteSpec>
        do {
            result = try reportingGuardErrorsOnce { () throws(RoutingError) in try router.resolve(url, extra: extra) }
        } catch { throw .routing(error, text: url) }
        let option = override ?? result.payload.option
        let params = Value.object(result.parameters)
        if let view = result.payload.view {
            let content = try present(view, params: params, url: url)
            stack.present(NavigationStack.Entry(view: view, url: url, params: params, content: content, isModal: false), as: option)
        }
        let navigation = Navigation(url: url, pattern: result.pattern.text, params: params, view: result.payload.view,
                                    option: option, stack: stack)
        var record = navigation
        record.stack = NavigationStack()
        routeHistory.append(record)
        for observer in routeObservers { observer(record) }
        emitRoute(navigation.value, on: routerNode(), cause: rootCause)
        return navigation
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

    /// Runs the presenters of `view`: objects merge (later keys win), anything else replaces.
    private func present(_ view: String, params: Value, url: String) throws(GraphError) -> Value {
        var content = Value.null
        for presenter in presenters[view] ?? [] {
            let value: Value
            do {
                value = try presenter.evaluate(Bindings(params: params, url: .string(url)), in: self)
            } catch {
                throw .expression(error, source: presenter.source)
            }
            if case .object(var merged) = content, case .object(let members) = value {
                for (key, member) in members { merged[key] = member }
                content = .object(merged)
            } else {
                content = value
            }
        }
        return content
    }

    /// `presenter VIEW : EXPR`: sets the content of VIEW whenever it is presented.
    public func addPresenter(for view: String, _ expression: Expression) {
        presenters[view, default: []].append(expression)
    }

    /// The views that have presenters or routes, for completion.
    public var viewNames: [String] {
        var names = Array(presenters.keys)
        for route in router.routes { if let view = route.payload.view, !names.contains(view) { names.append(view) } }
        return names.sorted()
    }

    /// The patterns of the routes, for completion.
    public var routePatterns: [String] { router.routes.map(\.pattern.text) }

    /// `back`: pops the top of the navigation stack.
    @discardableResult
    public func back() throws(GraphError) -> NavigationStack.Entry {
        guard let entry = stack.back() else { throw .emptyStack }
        return entry
    }

    /// `dismiss`: closes the top modal.
    @discardableResult
    public func dismiss() throws(GraphError) -> [NavigationStack.Entry] {
        let closed = stack.dismiss()
        guard !closed.isEmpty else { throw .noModal }
        return closed
    }

    /// The `router` node, created the first time routing is used.
    @discardableResult
    func routerNode() -> RouterNode {
        if let node = nodes[RouterNode.name] as? RouterNode { return node }
        let node = RouterNode(graph: self)
        add(node)
        return node
    }
}
