@_spi(Shell) public import PatchbayCore

/// An error of a graph command. Nothing in the graph changes when one is thrown.
@_spi(Shell)
public enum GraphError: Error, Sendable, Equatable, CustomStringConvertible {
    case unknownNode(String, existing: [String])
    /// `isInput` says which kind of port was looked for; `nil` when either would do (`show`,
    /// `probe`, `why`), and `existing` then lists outputs and inputs.
    case unknownPort(PortAddress, isInput: Bool?, existing: [String])
    case nameTaken(String, kind: NodeKind)
    case reservedName(String)
    case wrongKind(String, kind: NodeKind, expected: String)
    case cycle([String])
    /// A local value for an input that wires drive; `wires` lists them.
    case inputIsWired(PortAddress, wires: [String])
    case notWired(PortAddress)
    /// `unwire DST.PORT` of an input that several wires drive; `wires` lists them.
    case severalWires(PortAddress, wires: [String])
    /// `unwire SRC.PORT -> DST.PORT` with no such wire; `existing` lists the input's wires.
    case noSuchWire(from: PortAddress, to: PortAddress, existing: [String])
    case signalClosed(String)
    case unknownPatchType(String, suggestion: String?)
    case patchTypeTaken(String)
    /// `patchtype` naming two of its ports (inputs and outputs alike) `port`: a port is found by
    /// its name.
    case portNameTaken(type: String, port: String)
    case patchType(type: String, PatchTypeError)
    case engine(EngineError)
    case expression(ExpressionError, source: String)
    case unknownProbe(String)
    case bindToItself(String)
    /// `connector NAME` while another connector is open.
    case connectorOpen(String)
    /// `connector end` with no connector open.
    case noOpenConnector
    case unknownConnector(String, existing: [String])
    /// `unbind A B` of two nodes no binding joins; `existing` lists the bindings.
    case notBound(String, String, existing: [String])
    case noStore
    case ambiguousStore([String])
    case invalidAction(String)
    /// An action of a hosted store that does not decode as one of the app's actions.
    case actionDecoding(ActionDecodingError)
    /// A hosted store's state that does not go to or from the app's type.
    case hostedState(String)
    /// `reducer` on a hosted store, whose reducer is the app's code.
    case hostedReducer(store: String)
    case unknownReducer(String, existing: [String])
    /// `reducer ID = ...` with an id that is not `r` and a number.
    case invalidReducerID(String)
    /// `reducer ID = ...` with the id of a reducer that exists.
    case reducerExists(String)
    case hostedMiddleware(store: String)
    case unknownMiddleware(String, existing: [String])
    /// `middleware ID = ...` with an id that is not `m` and a number.
    case invalidMiddlewareID(String)
    /// `middleware ID = ...` with the id of a middleware that exists.
    case middlewareExists(String)
    /// A middleware failed: the action was not handled and nothing changed.
    case middlewareFailed(store: String, type: String, middleware: String, message: String)
    case reducerFailed(store: String, index: Int, type: String, reducer: String, message: String)
    case routing(RoutingError, text: String)
    case unknownRoute(String, existing: [String])
    /// `route rm PATTERN` of a pattern registered more than once, without saying which.
    case ambiguousRouteRemoval(String, registrations: [String])
    /// `route rm PATTERN view=NAME` (or `handler`) that names no registration of the pattern.
    case unknownRouteRegistration(String, wanted: String, registrations: [String])
    case unknownPresenter(String, existing: [String])
    /// `feature NAME begin` while another feature is open, or `feature rm` of the open one.
    case featureOpen(String)
    case noOpenFeature
    case unknownFeature(String, existing: [String])
    /// A value on `router.open` that is not a URL or `{url, option, ...params}`.
    case invalidRouteRequest(String)
    case emptyStack
    case noModal
    /// A command that cannot run between `begin` and `commit` (`tick`).
    case inTransaction(String)
    /// An `after MS` outside what the virtual clock can wait.
    case invalidDelay(Int)
    /// The input ended inside `begin`: the transaction was aborted.
    case transactionLeftOpen(droppedWrites: Int)

    public var description: String {
        switch self {
        case .unknownNode(let name, let existing):
            "no node '\(name)' (" + (existing.isEmpty ? "no nodes yet" : "nodes: \(Spelling.list(existing))") + ")"
        case .unknownPort(let address, let isInput, let existing):
            "\(address.node) has no \(Self.portKind(isInput)) '\(address.port)' ("
                + (existing.isEmpty ? "it has no \(Self.portKind(isInput))s" : "\(Self.portKind(isInput))s: \(Spelling.list(existing))") + ")"
        case .nameTaken(let name, let kind): "'\(name)' is already a node (\(kind)); rm it first or pick another name"
        case .reservedName(let name): "'\(name)' is reserved in expressions and cannot name a node"
        case .wrongKind(let name, let kind, let expected): "'\(name)' is a \(kind) node; \(expected)"
        case .cycle(let path):
            "the wire would close a cycle: \(path.joined(separator: " -> ")); use a delay edge (~>) or bind for feedback"
        case .inputIsWired(let address, let wires):
            wires.count == 1 ? "\(address) is driven by the wire \(wires[0]); unwire \(address) first"
                : "\(address) is driven by the wires \(Spelling.list(wires)); unwire them first"
        case .notWired(let address): "\(address) has no wire"
        case .severalWires(let address, let wires):
            "\(address) has \(wires.count) wires (\(Spelling.list(wires))); name the one to remove: unwire SRC.PORT -> \(address)"
        case .noSuchWire(let source, let target, let existing):
            "there is no wire from \(source) into \(target) ("
                + (existing.isEmpty ? "\(target) has no wire" : "its wires: \(Spelling.list(existing))") + ")"
        case .signalClosed(let name): "signal '\(name)' is closed"
        case .unknownPatchType(let name, let suggestion):
            "no patch type '\(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? " (see 'patch types')")
        case .patchTypeTaken(let name): "patch type '\(name)' already exists"
        case .portNameTaken(let type, let port):
            "patch type '\(type)' names two ports '\(port)'; give each input and output its own name"
        case .patchType(let type, let error): "\(type): \(error.message)"
        case .engine(let error): error.description
        case .expression(let error, let source): error.message(in: source)
        case .unknownProbe(let target): "no probe on '\(target)'"
        case .bindToItself(let name): "cannot bind '\(name)' to itself"
        case .connectorOpen(let name): "connector \(name) is open; close it with 'connector end' first"
        case .noOpenConnector: "no connector is open; open one with 'connector NAME'"
        case .unknownConnector(let name, let existing):
            "no connector '\(name)'" + (existing.isEmpty ? " (there are none)" : " (connectors: \(Spelling.list(existing)))")
        case .notBound(let first, let second, let existing):
            "'\(first)' and '\(second)' are not bound"
                + (existing.isEmpty ? " (there are no bindings)" : " (bindings: \(Spelling.list(existing)))")
        case .noStore: "there is no store yet; create one with store NAME = EXPR"
        case .ambiguousStore(let names): "there are several stores (\(Spelling.list(names))); name the one you mean, or select one with 'use STORE'"
        case .invalidAction(let detail): detail
        case .actionDecoding(let error): error.description
        case .hostedState(let detail): detail
        case .hostedReducer(let store): "\(store) is hosted: its reducer is the app's Swift code, which the shell cannot add to"
        case .unknownReducer(let id, let existing):
            "no reducer '\(id)' (" + (existing.isEmpty ? "no reducers yet" : "reducers: \(Spelling.list(existing))") + ")"
        case .invalidReducerID(let id): "'\(id)' is not a reducer id: ids are r and a number (r1, r2, ...)"
        case .reducerExists(let id):
            "reducer \(id) exists: 'reducer \(id) : STATEMENTS' gives it a new body, 'reducer rm \(id)' removes it"
        case .hostedMiddleware(let store): "\(store) is hosted: its middleware is the app's Swift code, which the shell cannot add to"
        case .unknownMiddleware(let id, let existing):
            "no middleware '\(id)' (" + (existing.isEmpty ? "no middleware yet" : "middleware: \(Spelling.list(existing))") + ")"
        case .invalidMiddlewareID(let id): "'\(id)' is not a middleware id: ids are m and a number (m1, m2, ...)"
        case .middlewareExists(let id): "middleware \(id) exists: 'middleware rm \(id)' removes it"
        case .middlewareFailed(let store, let type, let middleware, let message):
            "\(type) failed in middleware \(middleware) (\(store) keeps its state; the action was not handled): \(message)"
        case .routing(let error, _): error.description
        case .ambiguousRouteRemoval(let pattern, let registrations):
            "\(pattern) is registered \(registrations.count) times (\(Spelling.list(registrations))); "
                + "say which: route rm \(pattern) view=NAME, or route rm \(pattern) handler"
        case .unknownRouteRegistration(let pattern, let wanted, let registrations):
            "\(pattern) has no registration with \(wanted) (it has \(Spelling.list(registrations)))"
        case .invalidRouteRequest(let detail): detail
        case .featureOpen(let name): "feature \(name) is open; close it with 'feature end' first"
        case .noOpenFeature: "no feature is open; start one with 'feature NAME begin'"
        case .unknownFeature(let name, let existing):
            "no feature '\(name)' (" + (existing.isEmpty ? "no features yet" : "features: \(Spelling.list(existing))") + ")"
        case .unknownPresenter(let id, let existing):
            "no presenter '\(id)' (" + (existing.isEmpty ? "no presenters yet" : "presenters: \(Spelling.list(existing))") + ")"
        case .unknownRoute(let pattern, let existing):
            "no route \(pattern) (" + (existing.isEmpty ? "no routes yet" : "routes: \(Spelling.list(existing))") + ")"
        case .emptyStack: "the navigation stack is empty"
        case .noModal: "no modal is presented"
        case .reducerFailed(let store, let index, let type, let reducer, let message):
            "#\(index) \(type) failed in \(reducer) (\(store) keeps its state; the action is kept, marked failed): \(message)"
        case .inTransaction(let command): "'\(command)' cannot run inside a transaction; commit or abort it first"
        case .transactionLeftOpen(let dropped):
            "the input ended inside a transaction ('begin' without 'commit'): "
                + (dropped == 0 ? "it was dropped (it held no writes)" : dropped == 1 ? "its 1 write was dropped" : "its \(dropped) writes were dropped")
                + "; end it with 'commit' to keep them"
        case .invalidDelay(let delay):
            "after \(delay): the delay must be between 0 and \(VirtualClock.maximumDelay) ms, the longest wait of the virtual clock"
        }
    }

    private static func portKind(_ isInput: Bool?) -> String {
        switch isInput {
        case true?: "input"
        case false?: "output"
        case nil: "port"
        }
    }
}

extension PatchTypeError {
    var message: String {
        switch self {
        case .missingParameter(let name): "missing the parameter \(name)=..."
        case .unknownParameter(let name, let known):
            "no parameter '\(name)'" + (known.isEmpty ? " (it takes none)" : " (parameters: \(known.joined(separator: ", ")))")
        case .invalidParameter(let name, let detail): "\(name) \(detail)"
        case .code(let parameter, let error, let source): "\(parameter): \(error.message(in: source))"
        }
    }
}
