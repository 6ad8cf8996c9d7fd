@_spi(Shell) import PatchbayCore
import OrderedCollections

/// A graph of named nodes with named ports, built and driven by name: the model behind the
/// shell's dataflow commands (PatchbayHost.docc/Dataflow.md), usable on its own.
///
/// Every method is one transaction of the engine (or buffered while `begin` is open), and every
/// method that throws changes nothing when it does. What flows while a method runs (probe and log
/// output, node failures) is collected as `GraphEvent`s; `takeEvents()` returns them.
@_spi(Shell)
public final class Graph {
    /// The scheduler of the graph's nodes.
    public let engine: Engine
    var nodes = NodeTable()
    var patchTypes: OrderedDictionary<String, PatchType> = [:]
    var probes: OrderedDictionary<String, [Connection]> = [:]
    var bindings: [Binding] = []
    /// The connectors by name, in the order they were made (Graph+Connectors.swift).
    var connectors: OrderedDictionary<String, Connector> = [:]
    /// The connector that wires and probes made now join.
    var openConnectorName: String?
    /// What ranking the nodes incrementally needs (Graph+Ranks.swift).
    var ranks = RankIndex()
    private var events: [GraphEvent] = []
    /// The text of the command being run: the root of every cause chain it starts.
    public var cause = "" {
        didSet { rootCause = Cause(cause) }
    }
    /// `cause` as the first link of cause chains.
    var rootCause = Cause("")
    /// The names of the stores, kept up to date as stores are created and removed: the shell
    /// looks a name up in it for every command it parses.
    public internal(set) var storeNameSet: Set<String> = []
    /// The ids of the reducers and of the middleware, with their stores (HandlerIDs.swift).
    var reducerIDs = HandlerIDs(prefix: "r")
    var middlewareIDs = HandlerIDs(prefix: "m")
    var nextDelayOrder = 0
    /// Who hears what the stores do (the history).
    var storeObservers: [(StoreEvent) -> Void] = []
    var routeObservers: [(Navigation) -> Void] = []
    /// Every URL routed, in order, with its pattern, parameters, view and option (`history router`).
    public internal(set) var routeHistory: [Navigation] = []
    /// The routes, the presenters and the navigation stack of the wireframe.
    var router = Router<RouteSpec>()
    /// How many route registrations were made: the next one's number.
    var nextRouteRegistration = 0
    var presenters: [PresenterDefinition] = []
    var nextPresenterID = 0
    /// What the entries presented by live presenters listen to, and the transaction that last
    /// refreshed them (Graph+Routing.swift).
    var liveConnections: [Connection] = []
    var lastLiveRefresh = -1
    /// The features, in the order they were begun; the one open, if any; those announced as
    /// added; and which feature defined each object or id (Graph+Features.swift).
    var features: OrderedDictionary<String, Feature> = [:]
    var openFeature: Feature?
    var announcedFeatures: Set<String> = []
    var featureOf: [FeatureKey: String] = [:]
    public internal(set) var stack = NavigationStack()
    /// The graph as it was before the first tick after each open mark (Graph+Marks.swift).
    var savesBeforeTicks: [SavedGraph] = []
    /// How many saves there were at each open mark, oldest first.
    var openMarks: [Int] = []
    /// The wires made or replaced since the oldest open mark, oldest first.
    var wireChanges: [WireChange] = []
    /// How many marks were open when a lookup made the `router` node, while the innermost of
    /// them is: until its command ends, the node may still be taken back (`dropRouterMade`).
    /// One record for both questions about it: whether a failure drops it, and whether an error
    /// lists it.
    var routerMadeUnderMarks: Int?

    /// Names that expressions reserve, which nodes cannot take.
    public static let reservedNames: Set<String> = ["true", "false", "null", "state", "action", "params", "url", "route"]

    public init(engine: Engine = Engine()) {
        self.engine = engine
        for type in PatchType.builtins { patchTypes[type.name] = type }
        engine.onError = { [unowned self] error in events.append(.error(error)) }
    }

    deinit {
        for node in nodes.values { node.detachAll() }
    }

    /// The events since the last call.
    public func takeEvents() -> [GraphEvent] {
        defer { events.removeAll() }
        return events
    }

    func report(_ event: GraphEvent) {
        events.append(event)
    }

    /// The names of every node, in creation order.
    public var nodeNames: [String] { Array(nodes.keys) }

    /// Every `NODE.PORT` of the graph, outputs then inputs, for completion.
    public var portAddresses: [PortAddress] {
        nodes.values.flatMap { node in
            node.outputs.map { PortAddress(node: node.name, port: $0.name) }
                + node.inputs.map { PortAddress(node: node.name, port: $0.name) }
        }
    }

    /// The names of the patch types, built-in first.
    public var patchTypeNames: [String] { Array(patchTypes.keys) }

    /// Every patch type, built-in first.
    public var allPatchTypes: [PatchType] { Array(patchTypes.values) }

    // MARK: Lookups

    func node(_ name: String) throws(GraphError) -> GraphNode {
        if let node = nodes[name] { return node }
        if name == RouterNode.name { return routerNode() }
        // A router that this command's own lookup made, and that its failure takes back, is
        // not listed. By name: the order nodes were made in is not one a replay keeps (the
        // router is made by the first route, the stores first).
        let provisional = provisionalRouter(sinceDepth: openMarks.count) != nil
        throw .unknownNode(name, existing: (provisional ? nodeNames.filter { $0 != RouterNode.name } : nodeNames).sorted())
    }

    func outputPort(_ address: PortAddress) throws(GraphError) -> OutputPort<Value> {
        let node = try node(address.node)
        guard let port = node.output(address.port) else {
            throw .unknownPort(address, isInput: false, existing: node.outputs.map(\.name))
        }
        return port
    }

    func inputPort(_ address: PortAddress) throws(GraphError) -> InputPort {
        let node = try node(address.node)
        guard let port = node.input(address.port) else {
            throw .unknownPort(address, isInput: true, existing: node.inputs.map(\.name))
        }
        return port
    }

    /// Checks that `name` can name a new node.
    func checkNewName(_ name: String) throws(GraphError) {
        if let existing = nodes[name] { throw .nameTaken(name, kind: existing.kind) }
        if Self.reservedNames.contains(name) || name == RouterNode.name { throw .reservedName(name) }
    }

    /// Runs `body` as one transaction (or buffered in the open one); a write made by a callback
    /// is queued by the engine as usual.
    func transaction(_ body: () -> Void) {
        switch engine.writeMode {
        case .immediate: engine.runTransaction(body)
        case .buffered, .queued: body()
        }
    }
}

extension Graph: ExpressionEnvironment {
    /// A node's name reads its current value: a variable's or derived node's value, a knot's
    /// state, a patch's first output. Reading never triggers anything (a sample).
    public func lookup(name: String) -> NameLookup {
        guard let node = nodes[name] else { return .unknown }
        if let store = node as? StoreNode, store.isReducing { return .empty(Self.beingReduced(name)) }
        if let variable = node as? VariableNode, let value = variable.current { return .value(value) }
        if let knot = node as? KnotNode, let value = knot.current { return .value(value) }
        guard let port = node.primaryOutput else { return .empty("\(name) has no output to read") }
        guard let value = port.value else {
            return .empty(port.remembers ? "\(name).\(port.name) is empty" : "\(name).\(port.name) is an event port with no value to read")
        }
        return .value(value)
    }

    public func lookup(node name: String, port: String) -> NameLookup {
        guard let node = nodes[name] else { return .unknown }
        if let store = node as? StoreNode, store.isReducing, port == "state" { return .empty(Self.beingReduced(name)) }
        if let output = node.output(port) {
            guard let value = output.value else { return .empty("\(name).\(port) is empty") }
            return .value(value)
        }
        if let input = node.input(port) {
            guard let value = input.value else { return .empty("\(name).\(port) is empty") }
            return .value(value)
        }
        return .unknown
    }

    public var knownNames: [String] { nodeNames }

    private static func beingReduced(_ store: String) -> String {
        "\(store).state is being reduced: inside \(store)'s reducers, read `state`"
    }
}

/// The nodes of a graph by name, in creation order.
///
/// A dictionary for the lookups by name, which are many and scattered (every name a command or
/// an expression reads), and an array for the order. An `OrderedDictionary` holds both in one,
/// but its hash table holds positions in its array of keys, so that each probe of a lookup reads
/// a key elsewhere in memory: once a graph outgrew the processor's caches, every lookup (two
/// for a new name, which probes furthest) cost several cache misses, and building a graph twice
/// as large took 2.1 to 2.6 times as long. Removing a node costs in proportion to the nodes, as
/// does what `rm` does besides.
struct NodeTable {
    private var byName: [String: GraphNode] = [:]
    /// The nodes in creation order.
    private(set) var values: [GraphNode] = []

    /// The node named `name`; setting `nil` removes it, setting a node under a new name adds it
    /// last, under a name in use replaces that node in place.
    subscript(name: String) -> GraphNode? {
        get { byName[name] }
        set {
            if let newValue {
                if let old = byName.updateValue(newValue, forKey: name) {
                    values[values.firstIndex { $0 === old }!] = newValue
                } else {
                    values.append(newValue)
                }
            } else if let old = byName.removeValue(forKey: name) {
                values.remove(at: values.firstIndex { $0 === old }!)
            }
        }
    }

    /// The names, in creation order.
    var keys: [String] { values.map(\.name) }
}
