@_spi(Shell) import PatchbayCore

/// A shell store's middleware: `middleware STORE [on TYPE] : STATEMENTS`. The shell's form of
/// the library's `Middleware` (VISPER-Redux, ReSwift): it sees each action before the reducers,
/// with the state before it, and can change the action (`action.by = 2`), drop it (`drop`) or
/// dispatch more (`dispatch TYPE {...}`), which are queued after the action, never nested.
final class StoreMiddleware {
    let id: String
    /// The action type it sees, or `*` for every action.
    let type: String
    let body: StatementBlock

    init(id: String, type: String, body: StatementBlock) {
        self.id = id
        self.type = type
        self.body = body
    }

    func handles(_ actionType: String) -> Bool { type == "*" || type == actionType }

    var summary: MiddlewareSummary {
        MiddlewareSummary(id: id, type: type, body: body.sourceText)
    }
}

/// A middleware as `middleware list` shows it.
@_spi(Shell)
public struct MiddlewareSummary: Sendable, Equatable {
    public var id: String
    /// The action type it sees, or `*`.
    public var type: String
    public var body: String
    /// The store it belongs to.
    public var store = ""
}

extension Graph {
    /// `middleware [ID =] STORE [on TYPE] : STATEMENTS`; `body` must be parsed as a
    /// middleware's (`StatementContext.middleware`).
    ///
    /// As a reducer does, a middleware gets the id asked for, or the lowest free one (`m1`,
    /// `m2`, ...): a script that makes the same middleware (a recording's start, a saved
    /// session) gives the same ids.
    /// - Returns: the middleware's id.
    @discardableResult
    public func addMiddleware(_ requested: String? = nil, to storeName: String, on type: String = "*",
                              body: StatementBlock) throws(GraphError) -> String {
        let store = try store(storeName)
        if store.hosted != nil { throw .hostedMiddleware(store: store.name) }
        let id = try Self.id(requested: requested, in: &middlewareIDs, invalid: GraphError.invalidMiddlewareID,
                             exists: GraphError.middlewareExists)
        store.middleware.append(StoreMiddleware(id: id, type: type, body: body))
        middlewareIDs.insert(id, of: store)
        return id
    }

    /// `middleware list [STORE]`, in registration order.
    public func middlewareSummaries(of storeName: String? = nil) throws(GraphError) -> [MiddlewareSummary] {
        try stores(storeName).flatMap { store in
            store.middleware.map { middleware in
                var summary = middleware.summary
                summary.store = store.name
                return summary
            }
        }
    }

    /// Whether the app gave a hosted store middleware of its own (which `middleware list` does
    /// not show: it is Swift code).
    package func hasAppMiddleware(_ storeName: String) -> Bool {
        (try? store(storeName))?.hosted?.hasMiddleware ?? false
    }

    /// How many middleware the app gave `storeName`, when it is a hosted store (`nil` for a
    /// store of the shell's own, or none).
    package func hostedMiddlewareCount(of storeName: String) -> Int? {
        (try? store(storeName))?.hosted?.middlewareCount
    }

    /// `middleware rm ID`
    /// - Returns: the name of the store the middleware belonged to.
    @discardableResult
    public func removeMiddleware(_ id: String) throws(GraphError) -> String {
        guard let store = middlewareIDs.owner(of: id) else {
            throw .unknownMiddleware(id, existing: nodes.values.compactMap { $0 as? StoreNode }.flatMap { $0.middleware.map(\.id) })
        }
        store.middleware.removeAll { $0.id == id }
        middlewareIDs.remove(id)
        return store.name
    }

    /// Runs the middleware of `store` on `action`, in registration order, each on the action the
    /// one before let through; each runs only for the type it names. The state they read is the
    /// state before the action.
    /// - Returns: the action for the reducers, or `nil` when a middleware dropped it;
    ///   `followUps` gets the actions they dispatched, in order.
    /// - Throws: `middlewareFailed` when a statement fails or the action stops being an object
    ///   with a string type; nothing has changed then, and nothing is dispatched.
    func runMiddleware(of store: StoreNode, on action: Value, followUps: inout [Value]) throws(GraphError) -> Value? {
        var action = action
        var dispatched: [Value] = []
        for middleware in store.middleware {
            let type = try Self.actionType(of: action)
            guard middleware.handles(type) else { continue }
            var evaluator = Evaluator(environment: self)
            evaluator.bindings.state = store.state.value ?? .null
            evaluator.bindings.action = action
            var changes: [ValueChange] = []
            let emissions: [Emission]
            do throws(ExpressionError) {
                emissions = try middleware.body.run(&evaluator, changes: &changes)
            } catch {
                throw .middlewareFailed(store: store.name, type: type, middleware: middleware.id, message: error.message(in: middleware.body.source))
            }
            dispatched += emissions.map(\.value)
            if evaluator.isDropped {
                followUps += dispatched
                return nil
            }
            action = evaluator.bindings.action.take() ?? .null
            guard case .string? = action["type"] else {
                throw .middlewareFailed(store: store.name, type: type, middleware: middleware.id,
                                        message: "the action must stay an object with a string type, such as {type: \"Add\"}, not \(Value.brief(action))")
            }
        }
        followUps += dispatched
        return action
    }
}
