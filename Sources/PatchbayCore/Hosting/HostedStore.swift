/// An app's store for the shell to host: its name, its initial state and its own Swift reducer
/// (and middleware), with how its states and actions become Patchbay values.
///
/// A hosted store is a store node like any other: `dispatch`, `state`, the history and every
/// time-travel command, recording, replay and wires work on it as on a store made with
/// `store NAME = ...`. Its reducer is the app's code, so `skip`, `unskip` and
/// `history recompute` run that code again, and `replay --verify` checks a recording against it.
///
/// ```swift
/// let todos = HostedStore("todos", initialState: AppState(), reducer: appReducer)
/// ```
///
/// The state goes to and from values through its synthesized `Codable` forms (`ValueEncoder`,
/// `ValueDecoder`); actions through an `ActionMapping` (an enum's cases or one struct per action
/// type become `{type: "addTodo", title: "milk"}`). The state decodes again only after time
/// travel (between dispatches the host keeps the typed state the reducer returned), and for an
/// `Equatable` state only where it differs from the state last encoded.
public struct HostedStore {
    /// The store's name in the shell.
    public let name: String
    package let makeReducer: () -> HostedReducer

    /// A store whose actions map to values as `actions` says.
    /// - Parameters:
    ///   - name: the store's name in the shell (a name as commands take it: `todos`, `app`).
    ///   - initialState: the state the store starts with, in every fresh session.
    ///   - reducer: the app's reducer; adapt VISPER's, ReSwift's or TCA's shape with one of
    ///     `Reducer`'s initializers.
    ///   - middleware: runs before the reducer, as in a `Store`: it may change or drop the action
    ///     or dispatch more (queued after the action, as the store's follow-ups).
    ///   - actions: how the app's actions become objects with a `type`, and back.
    public init<State: Codable, Action>(
        _ name: String, initialState: State, reducer: Reducer<State, Action>, middleware: [Middleware<State, Action>] = [],
        actions: ActionMapping<Action>
    ) {
        self.name = name
        makeReducer = { TypedHostedReducer(initialState: initialState, reducer: reducer, middleware: middleware, actions: actions) }
    }

    /// A store whose `Codable` actions map to values through their synthesized forms (see
    /// `ActionMapping.codable()`).
    public init<State: Codable, Action: Codable>(
        _ name: String, initialState: State, reducer: Reducer<State, Action>, middleware: [Middleware<State, Action>] = []
    ) {
        self.init(name, initialState: initialState, reducer: reducer, middleware: middleware, actions: .codable())
    }
}

/// What a hosted store's reducer did with one action.
package struct HostedOutcome {
    /// The action reduced, as a value (after middleware), or `nil` when a middleware dropped it.
    package var action: Value?
    /// The actions a middleware dispatched meanwhile, to be handled after this one, each with
    /// the line of the app that dispatched it.
    package var followUps: [(action: Value, site: CallSite)]
    /// What the action changed, as `Value.changes(to:)` gives it from the state before.
    package var changes: [ValueChange] = []
}

/// Why a hosted store's reducer could not run; nothing changed.
package enum HostedStoreError: Error {
    /// The action does not decode as one of the app's actions.
    case action(ActionDecodingError)
    /// The state does not go to or from the app's type (or an action does not encode).
    case state(String)
}

/// A hosted store's reducer with the app's types erased: values in, values out.
package class HostedReducer {
    /// The store's initial state as a value.
    package func initialState() throws(HostedStoreError) -> Value { .null }

    /// Reduces `state` by `action`, through the middleware first unless `throughMiddleware` is
    /// off (a history recomputed: its actions are those the middleware let through, as they
    /// left it), and says what changed; `state` is unchanged when this throws (an action or
    /// state that does not decode, a state that does not encode). The caller keeps no other
    /// copy of `state`, so that the arrays that change change in place.
    package func reduce(_ state: inout Value, _ action: Value, throughMiddleware: Bool = true) throws(HostedStoreError) -> HostedOutcome {
        HostedOutcome(action: action, followUps: [])
    }

    /// The action types known so far, for completion and suggestions.
    package var actionTypes: [String] { [] }

    /// Whether the app gave the store middleware.
    package var hasMiddleware: Bool { middlewareCount > 0 }

    /// How many middleware the app gave the store.
    package var middlewareCount: Int { 0 }

    /// The name of the app's state type, for messages (`TodoListState`).
    package var stateTypeName: String { "" }

    /// Why `state` does not decode as the app's state type (the decoder's message: `todos:
    /// missing`), or `nil` when it does. A state that came from elsewhere (a recording, an
    /// import) is checked with it before the app's reducer is asked to run on it.
    package func stateDecodingFailure(_ state: Value) -> String? { nil }

    /// Why `action` does not decode as one of the app's actions, or `nil` when it does.
    package func actionDecodingFailure(_ action: Value) -> ActionDecodingError? { nil }

    /// `state` as the app's state type encodes it: the same value with its keys in the order
    /// the reducer's states have them (a state rebuilt from patches has a key that an optional
    /// gained last); `state` itself when it does not decode.
    package func normalized(_ state: Value) -> Value { state }

    /// A Swift Testing test that replays `request`'s steps through the app's reducer (see
    /// `SwiftTestWriter`).
    package func swiftTest(_ request: SwiftTestRequest) throws(SwiftExportError) -> SwiftTest {
        throw SwiftExportError("\(request.store) is not an app's store")
    }
}

/// The typed side of a hosted store: decodes, runs the app's code, encodes.
package final class TypedHostedReducer<State: Codable, Action>: HostedReducer {
    private let initial: State
    private let reducer: Reducer<State, Action>
    private let middleware: [Middleware<State, Action>]
    private let actions: ActionMapping<Action>
    /// The last state the reducer returned, with its value: while the store's state is that
    /// value (the same storage, which this copy keeps from being reused), it needs no decoding.
    private var cache: (value: Value, state: State)?
    /// For an `Equatable` state: the parts of the last state encoded, so that the next
    /// encoding takes over those that did not change (see `ValueEncoder.Memory`), and a
    /// decoding after time travel the typed parts whose encodings the state still holds (see
    /// `ValueDecoder.decode(_:from:memory:)`).
    private let memory = ValueEncoder.Memory(for: State.self)

    package init(initialState: State, reducer: Reducer<State, Action>, middleware: [Middleware<State, Action>], actions: ActionMapping<Action>) {
        initial = initialState
        self.reducer = reducer
        self.middleware = middleware
        self.actions = actions
    }

    override package func initialState() throws(HostedStoreError) -> Value {
        let value = try encode(initial)
        cache = (value, initial)
        return value
    }

    override package var actionTypes: [String] { actions.knownTypes }

    override package var middlewareCount: Int { middleware.count }

    override package var stateTypeName: String { "\(State.self)" }

    override package func stateDecodingFailure(_ state: Value) -> String? {
        if let cache, cache.value.sharesStorage(with: state) { return nil }
        do throws(ValueCodingError) { _ = try ValueDecoder().decode(State.self, from: state) } catch {
            return error.description
        }
        return nil
    }

    override package func normalized(_ state: Value) -> Value {
        guard let typed = try? decode(state), let value = try? encode(typed) else { return state }
        cache = (value, typed)
        return value
    }

    override package func actionDecodingFailure(_ action: Value) -> ActionDecodingError? {
        do throws(ActionDecodingError) { _ = try actions.action(from: action) } catch { return error }
        return nil
    }

    override package func reduce(_ state: inout Value, _ action: Value, throughMiddleware: Bool = true) throws(HostedStoreError) -> HostedOutcome {
        var typedAction: Action
        do throws(ActionDecodingError) { typedAction = try actions.action(from: action) } catch {
            throw .action(error)
        }
        var typed = try decode(state)
        var followUps: [(action: Action, site: CallSite)] = []
        if throughMiddleware && !middleware.isEmpty {
            let before = typed
            let context = MiddlewareContext<State, Action>(state: { before }, dispatch: { action, fileID, line in
                followUps.append((action, CallSite(fileID: fileID, line: line)))
            })
            guard let next = Middleware.run(middleware, on: typedAction, context) else {
                return HostedOutcome(action: nil, followUps: try objects(followUps))
            }
            typedAction = next
        }
        let before = typed
        reducer.reduce(&typed, typedAction)
        var outcome = HostedOutcome(action: try object(typedAction), followUps: try objects(followUps))
        // The cache lets go of the state's storage, and so does the caller: the arrays of
        // `Equatable` elements that changed are changed in place (see `ValueEncoder.Memory`).
        cache = nil
        let previous = state
        state = .null
        do throws(ValueCodingError) {
            let encoded = try ValueEncoder().encode(typed, memory: memory, replacing: consume previous)
            state = encoded.value
            outcome.changes = encoded.changes
            cache = (encoded.value, typed)
            return outcome
        } catch {
            // `previous` may have lost arrays taken out of it: the state before is encoded again.
            state = (try? self.encode(before)) ?? .null
            throw .state("the state does not encode: \(error)")
        }
    }

    override package func swiftTest(_ request: SwiftTestRequest) throws(SwiftExportError) -> SwiftTest {
        var typed: [(action: Any, state: Any)] = []
        for step in request.steps {
            let action: Action
            do throws(ActionDecodingError) { action = try actions.action(from: step.action) } catch {
                throw SwiftExportError("action #\(step.index) does not decode as one of the app's actions: \(error)")
            }
            do throws(ValueCodingError) { typed.append((action, try ValueDecoder().decode(State.self, from: step.state))) } catch {
                throw SwiftExportError("the state after action #\(step.index) does not decode as \(State.self): \(error)")
            }
        }
        return try SwiftTestWriter.test(request, stateType: State.self, steps: typed)
    }

    private func decode(_ value: Value) throws(HostedStoreError) -> State {
        if let cache, cache.value.sharesStorage(with: value) { return cache.state }
        do throws(ValueCodingError) { return try ValueDecoder().decode(State.self, from: value, memory: memory) } catch {
            throw .state("the state does not decode as \(State.self): \(error)")
        }
    }

    private func encode(_ state: State) throws(HostedStoreError) -> Value {
        do throws(ValueCodingError) {
            return try ValueEncoder().encode(state, memory: memory)
        } catch {
            throw .state("the state does not encode: \(error)")
        }
    }

    /// The follow-ups a middleware dispatched, their actions as values.
    private func objects(_ followUps: [(action: Action, site: CallSite)]) throws(HostedStoreError) -> [(action: Value, site: CallSite)] {
        var objects: [(action: Value, site: CallSite)] = []
        objects.reserveCapacity(followUps.count)
        for followUp in followUps { objects.append((try object(followUp.action), followUp.site)) }
        return objects
    }

    private func object(_ action: Action) throws(HostedStoreError) -> Value {
        do throws(ValueCodingError) { return try actions.object(for: action) } catch {
            throw .state("the action does not encode: \(error)")
        }
    }
}
