@_spi(Shell) import PatchbayCore

extension Graph {
    /// The commands that rebuild the graph's definitions when run in a fresh shell (`save FILE`,
    /// then `load FILE`), in this order:
    ///
    /// - the patch types defined with `patchtype`;
    /// - the nodes in creation order, with their current values (variables, knots and stores keep
    ///   their current states, derived nodes are computed again, patches get their parameters
    ///   and inputs their local values); each wire, delay edge, pipe and binding as soon as its
    ///   nodes exist, in the order it was attached to its port; the route patterns in
    ///   registration order, each with all its registrations in the order they were made, and
    ///   the presenters, where the `router` node was created;
    /// - `set` for the variables and knots that wires, pipes or bindings feed, so that they hold
    ///   their saved values whatever arrived while the script ran;
    /// - the reducers in registration order, after everything else, so that actions wires deliver
    ///   while the script runs leave the stores' states as saved;
    /// - the probes;
    /// - the connectors: each opened, given its wires by input, its probes made inside it, and
    ///   closed (but the one open at the time, which stays open).
    ///
    /// What a feature defined is written inside `feature NAME begin` ... `feature end` (a feature
    /// may have several blocks: `begin` adds to it), features with nothing left as empty blocks,
    /// and a feature open now is begun again at the end.
    ///
    /// What a script cannot rebuild exactly is said in `#` comment lines: the virtual clock and
    /// pending timers, the navigation stack, store histories, patches' outputs and internal
    /// state, failed marks, reducer ids that a fresh shell numbers differently, and derived
    /// nodes that could not be computed again.
    /// - Parameters:
    ///   - lineLimit: the longest line the script may have, in bytes; a value literal that
    ///     would make a longer line is spread over several lines.
    ///   - omittingStores: leave the stores out (a recording rebuilds them with their histories
    ///     before it runs the script).
    public func definitionScript(lineLimit: Int = 1 << 20, omittingStores: Bool = false) -> DefinitionScript {
        var writer = GraphScriptWriter(graph: self, lineLimit: lineLimit, omittingStores: omittingStores)
        writer.write()
        return DefinitionScript(lines: writer.lines, commandCount: writer.commandCount)
    }
}

/// Writes the script of `Graph.definitionScript`.
struct GraphScriptWriter {
    let graph: Graph
    let lineLimit: Int
    let omittingStores: Bool
    private(set) var lines: [String] = []
    private(set) var commandCount = 0
    /// The nodes that cannot be rebuilt, with why.
    private var unbuilt: [String: String] = [:]
    /// The feature the definition being written belongs to, and the one whose
    /// `feature NAME begin` block is open in the script (Graph+Features.swift).
    private var feature: String?
    private var openBlock: String?

    /// One command (or group of commands) of the part of the script that follows the graph's
    /// history.
    private enum Definition {
        case node(GraphNode)
        /// The `router` node: the routes and presenters.
        case routing
        case wire(Wire)
        case pipe(KnotPipe)
        case binding(Binding)
    }

    init(graph: Graph, lineLimit: Int, omittingStores: Bool) {
        self.graph = graph
        self.lineLimit = lineLimit
        self.omittingStores = omittingStores
    }

    mutating func write() {
        writeSessionNotes()
        for type in graph.patchTypes.values {
            guard type.isUserDefined, let body = type.body else { continue }
            command("patchtype \(type.ports) " + Self.braced(body))
        }
        var wroteRouting = false
        for definition in orderedDefinitions() {
            switch definition {
            case .node(let node): write(node)
            case .routing:
                writeRouting()
                wroteRouting = true
            case .wire(let wire): write(wire)
            case .pipe(let pipe): write(pipe)
            case .binding(let binding):
                feature = nil
                connection("bind \(binding.left.name) \(binding.right.name)", between: [binding.left.name, binding.right.name])
            }
        }
        if !wroteRouting { writeRouting() }
        feature = nil
        writeRestoredValues()
        writeReducers()
        writeFeatures()
        writeMiddleware()
        let owned = Set(graph.connectors.values.flatMap(graph.connectorProbeTargets))
        for target in graph.probes.keys where !owned.contains(target) { writeProbe(target) }
        writeConnectors()
    }

    private mutating func writeProbe(_ target: String) {
        let node = String(target.prefix { $0 != "." })
        if let reason = unbuilt[node] {
            note("not rebuilt: probe \(target) (\(node) is not rebuilt: \(reason))")
        } else {
            command("probe \(target)")
        }
    }

    /// Each connector with its wires (added by input) and its probes (made while it is open);
    /// the connector open at the time is written last and left open.
    private mutating func writeConnectors() {
        let connectors = graph.connectors.values.filter { $0.name != graph.openConnectorName }
            + graph.connectors.values.filter { $0.name == graph.openConnectorName }
        for connector in connectors {
            // An input that several wires drive names the wire by its source: the connector may
            // own some of them only.
            let wires = graph.connectorWires(connector).filter {
                unbuilt[$0.target.address.node] == nil && unbuilt[$0.source.address.node] == nil
            }.map { $0.target.wires.count > 1 ? "\($0.source.address) -> \($0.target.address)" : $0.target.address.description }
            command("connector \(connector.name)")
            if !wires.isEmpty { command("connector \(connector.name) add " + wires.joined(separator: " ")) }
            for target in graph.connectorProbeTargets(connector) { writeProbe(target) }
            if connector.name != graph.openConnectorName { command("connector end") }
        }
    }

    // MARK: Lines

    private mutating func command(_ text: String) {
        if feature != openBlock {
            if openBlock != nil { append("feature end") }
            if let feature { append("feature \(feature) begin") }
            openBlock = feature
        }
        append(text)
    }

    private mutating func append(_ command: String) {
        lines.append(command)
        commandCount += 1
    }

    /// Closes the open feature block, and writes an empty block for each feature that has no
    /// definition left, so that it exists after loading.
    private mutating func writeFeatures() {
        feature = nil
        if openBlock != nil { append("feature end") }
        openBlock = nil
        var written = Set(lines.compactMap { line -> Substring? in
            guard line.hasPrefix("feature "), line.hasSuffix(" begin") else { return nil }
            return line.dropFirst("feature ".count).dropLast(" begin".count)
        }.map(String.init))
        for name in graph.featureNames where written.insert(name).inserted {
            append("feature \(name) begin")
            append("feature end")
        }
        if let open = graph.openFeatureName {
            note("feature \(open) was open: it is open again, so that what follows joins it until 'feature end'")
            append("feature \(open) begin")
        }
    }

    /// A comment; each of its lines starts with `#`.
    private mutating func note(_ text: String) {
        lines.append(text.split(separator: "\n", omittingEmptySubsequences: false).map { "# \($0)" }.joined(separator: "\n"))
    }

    /// `prefix` followed by `value` as a literal.
    private mutating func command(_ prefix: String, value: Value, of name: String) {
        command(prefix + literal(value, of: name, width: lineLimit - prefix.utf8.count))
    }

    private mutating func literal(_ value: Value, of name: String, width: Int) -> String {
        if let reason = ScriptLiteral.unreadableReason(value) {
            note("\(name) is written as null: \(reason)")
            return "null"
        }
        return ScriptLiteral(value, width: width).text
    }

    /// A value in a comment: its literal, cut short.
    private static func short(_ value: Value) -> String {
        let text = value.description
        return text.count > 60 ? String(text.prefix(57)) + "..." : text
    }

    /// Statements as `patchtype` takes them: in braces.
    private static func braced(_ body: StatementBlock) -> String {
        let text = body.sourceText
        return text.hasPrefix("{") ? text : "{\n\(text)\n}"
    }

    // MARK: Notes about the session

    private mutating func writeSessionNotes() {
        let engine = graph.engine
        if engine.isInTransaction {
            note("saved inside an open transaction (begin): its writes, not yet committed, are not included")
        }
        let clock = engine.clock
        if clock.now > 0 {
            note("the virtual clock was at \(clock.now) ms; it starts at 0 ms again when this is loaded")
        }
        // Each timer patch has one timer pending, and starts it again when the script makes it.
        let lost = clock.pendingCount - graph.nodes.values.filter { ($0 as? PatchNode)?.type.name == "timer" }.count
        if lost > 0 {
            note("\(lost) pending timer\(lost == 1 ? " is" : "s are") not saved (delay patches, after reducers): what was still due is lost")
        }
    }

    // MARK: Order

    /// The nodes, routing, wires, pipes and bindings, each after what it needs, in an order the
    /// graph's history could have had: nodes in creation order, and the receivers of each port
    /// (wires, pipes, derived nodes) in the order they were attached, so that a port serves them
    /// in the same order after loading. A connection comes as soon as its nodes exist.
    private func orderedDefinitions() -> [Definition] {
        var definitions: [Definition] = []
        var indexes: [ObjectIdentifier: Int] = [:]
        var order: [(earlier: Int, later: Int)] = []
        func chain(_ items: [Int]) {
            for (earlier, later) in zip(items, items.dropFirst()) where earlier != later { order.append((earlier, later)) }
        }
        for node in graph.nodes.values {
            indexes[ObjectIdentifier(node)] = definitions.count
            definitions.append(node is RouterNode ? .routing : .node(node))
        }
        let nodeCount = definitions.count
        chain(Array(0..<nodeCount))
        func connection(_ definition: Definition, _ object: AnyObject, between ends: [GraphNode]) -> Int {
            if let index = indexes[ObjectIdentifier(object)] { return index }
            let index = definitions.count
            indexes[ObjectIdentifier(object)] = index
            definitions.append(definition)
            for end in ends { if let node = indexes[ObjectIdentifier(end)] { order.append((node, index)) } }
            return index
        }
        // A wire or pipe comes after the nodes its code reads too: they must exist when it is made.
        func read(_ names: [String]) -> [GraphNode] { names.compactMap { graph.nodes[$0] } }
        for node in graph.nodes.values {
            for output in node.outputs {
                let receivers = output.receivers.compactMap { receiver -> Int? in
                    switch receiver {
                    case let wire as Wire: connection(.wire(wire), wire, between: [node, wire.target.graphNode] + read(wire.sampledNames))
                    case let pipe as KnotPipe: connection(.pipe(pipe), pipe, between: [node, pipe.knot] + read(pipe.sampledNames))
                    case let trigger as DerivedNode.Trigger: indexes[ObjectIdentifier(trigger.derived)]
                    default: nil
                    }
                }
                chain(receivers)
            }
        }
        // Delay edges are not receivers: they cross at each tick, in the order they were made.
        chain(graph.delayWires.map {
            connection(.wire($0), $0, between: [$0.source.owner as! GraphNode, $0.target.graphNode] + read($0.sampledNames))
        })
        chain(graph.bindings.map { connection(.binding($0), $0, between: [$0.left, $0.right]) })
        // The wires of an input that takes many in the order they were made, which `show` and
        // errors list them in.
        for node in graph.nodes.values {
            for input in node.inputs where input.wires.count > 1 {
                chain(input.wires.map { connection(.wire($0), $0, between: [$0.source.owner as! GraphNode, node] + read($0.sampledNames)) })
            }
        }
        var sorter = DefinitionOrder(count: definitions.count)
        for (earlier, later) in order { sorter.require(earlier, before: later) }
        return sorter.sorted { $0 >= nodeCount }.map { definitions[$0] }
    }

    // MARK: Nodes

    private mutating func write(_ node: GraphNode) {
        let name = node.name
        feature = graph.feature(of: .object(ObjectIdentifier(node)))
        switch node {
        case let variable as VariableNode:
            command("var \(name) = ", value: variable.value.value ?? .null, of: name)
        case let derived as DerivedNode:
            if let reason = whyNotRebuilt(derived) {
                unbuilt[name] = reason
                note("not rebuilt: derive \(name) = \(derived.expression.sourceText) (\(reason); it held \(derived.value.value.map(Self.short) ?? "nothing"))")
                return
            }
            command("derive \(name) = \(derived.expression.sourceText)")
        case let signal as SignalNode:
            command("signal \(name)")
            if signal.isClosed { command("close \(name)") }
        case let knot as KnotNode:
            command("knot \(name) = ", value: knot.state.value ?? .null, of: name)
        case let patch as PatchNode:
            write(patch)
        case let store as StoreNode:
            if omittingStores { return }
            if store.hosted != nil {
                note("\(name) is hosted by the app, which creates it: its state is not saved")
                return
            }
            command("store \(name) = ", value: store.state.value ?? .null, of: name)
            if store.actionCount > 0 {
                note("\(name) had handled \(store.actionCount) action\(store.actionCount == 1 ? "" : "s"): its history is not saved, its state is")
            }
        default:
            return
        }
        for input in node.inputs {
            guard let local = input.localValue, local.description != Self.localValueAtCreation(of: input, in: node)?.description else { continue }
            command("set \(name).\(input.name) = ", value: local, of: "\(name).\(input.name)")
        }
        if let failure = node.failure { note("\(name) was marked failed: \(failure)") }
    }

    /// The local value an input gets when its node is created: a patch's parameter named like
    /// the input, or that parameter's default.
    private static func localValueAtCreation(of input: InputPort, in node: GraphNode) -> Value? {
        guard let patch = node as? PatchNode else { return nil }
        return patch.arguments[input.name] ?? patch.type.parameters.first { $0.name == input.name }?.defaultValue
    }

    /// Why a derived node cannot be created again, if it cannot: it reads a node that is gone or
    /// not rebuilt, or its expression fails now.
    private func whyNotRebuilt(_ derived: DerivedNode) -> String? {
        let inputs = Set(derived.dependencies.map { ObjectIdentifier($0.owner) })
        for name in derived.expression.freeNames {
            // A node made again under the name of one removed is not the one it reads.
            guard let node = graph.nodes[name], inputs.contains(ObjectIdentifier(node)) else {
                return "it reads \(name), which was removed"
            }
            if unbuilt[name] != nil { return "it reads \(name), which is not rebuilt" }
            if let patch = node as? PatchNode, !Self.outputsHoldValues(patch) {
                return "it reads \(name), a patch whose outputs are not saved and stay empty until a value arrives"
            }
        }
        do {
            _ = try derived.expression.evaluate(Bindings(), in: graph)
        } catch {
            return "it fails now: \(error.message(in: derived.expression.source))"
        }
        return nil
    }

    private mutating func write(_ patch: PatchNode) {
        let type = patch.type
        // Parameters in the order the type lists them, then inputs given a value, in port order.
        var names = type.parameters.map(\.name).filter { patch.arguments[$0] != nil }
        names += patch.inputs.map(\.name).filter { patch.arguments[$0] != nil && !names.contains($0) }
        names += patch.arguments.keys.filter { !names.contains($0) }.sorted()
        var text = "patch \(patch.name) \(type.name)"
        let width = lineLimit / Swift.max(names.count, 1) - 64
        for name in names {
            text += " \(name)=" + literal(patch.arguments[name]!, of: "\(patch.name)'s parameter \(name)", width: width)
        }
        command(text)
        guard !Self.outputsComeBack(patch) else { return }
        let held = patch.outputs.compactMap { output -> String? in
            guard let value = output.value, value.description != patch.initialOutputs[output.name]?.description else { return nil }
            return "\(output.name) = \(Self.short(value))"
        }
        if !held.isEmpty {
            note("\(patch.name): a patch's outputs and internal state are not saved; they follow what arrives from here on "
                 + "(it held \(held.joined(separator: ", ")))")
        }
    }

    /// Whether the patch's outputs are computed again from the same inputs when the script runs:
    /// its type computes them from its inputs' current values alone, and they come back.
    private static func outputsComeBack(_ patch: PatchNode) -> Bool {
        ["expr", "map", "combine", "view"].contains(patch.type.name) && !patch.type.isUserDefined && inputsComeBack(patch)
    }

    /// Whether every output of the patch holds a value once the script has made it and wired
    /// its inputs, as a derived node that reads it needs: outputs that start with a value, or a
    /// type that emits whenever an input arrives, with inputs that come back.
    private static func outputsHoldValues(_ patch: PatchNode) -> Bool {
        if patch.outputs.allSatisfy({ patch.initialOutputs[$0.name] != nil }) { return true }
        return ["expr", "map", "combine", "view", "merge", "distinct"].contains(patch.type.name) && !patch.type.isUserDefined
            && inputsComeBack(patch)
    }

    /// Whether each input of the patch that holds a value gets it again while the script runs:
    /// from its local value, or from a wire that replays a value port.
    private static func inputsComeBack(_ patch: PatchNode) -> Bool {
        patch.inputs.allSatisfy { input in
            guard input.value != nil else { return true }
            guard !input.wires.isEmpty else { return input.localValue != nil }
            return input.wires.allSatisfy { wire in
                !wire.isDelay && wire.condition == nil && wire.source.remembers && wire.source.value != nil
            }
        }
    }

    // MARK: Connections

    /// A connection's command, or a note when one of its nodes is not rebuilt.
    private mutating func connection(_ text: String, between nodes: [String]) {
        if let node = nodes.first(where: { unbuilt[$0] != nil }) {
            note("not rebuilt: \(text) (\(node) is not rebuilt)")
        } else {
            command(text)
        }
    }

    private mutating func write(_ wire: Wire) {
        feature = graph.feature(of: .object(ObjectIdentifier(wire)))
        var text = "wire \(wire.text)"
        if wire.isFuture { text += " --future" }
        if let condition = wire.condition { text += " when \(condition.sourceText)" }
        if let transform = wire.transform { text += " : \(transform.sourceText)" }
        connection(text, between: [wire.source.address.node, wire.target.address.node])
    }

    private mutating func write(_ pipe: KnotPipe) {
        feature = nil
        var text = "pipe \(pipe.source.address) -> \(pipe.knot.name)"
        if let condition = pipe.condition { text += " when \(condition.sourceText)" }
        text += " : \(pipe.body.sourceText)"
        connection(text, between: [pipe.source.address.node, pipe.knot.name])
    }

    // MARK: Routing

    /// The routes in registration order (with their priorities, they are tried in the same
    /// order), the presenters, and a note about the navigation stack.
    private mutating func writeRouting() {
        for (pattern, registration) in graph.routeDefinitions {
            feature = graph.feature(of: .object(ObjectIdentifier(registration)))
            var text = "route add \(Self.word(pattern))"
            if let view = registration.view { text += " view=\(view)" }
            if registration.option != .push { text += " option=\(registration.option.rawValue)" }
            if registration.priority != 0 { text += " priority=\(registration.priority)" }
            if let condition = registration.condition { text += " when \(condition.sourceText)" }
            command(text)
        }
        let presenters = graph.presenterSummaries()
        let renumbered = presenters.enumerated().compactMap { index, presenter in
            presenter.id == "p\(index + 1)" ? nil : "\(presenter.id) becomes p\(index + 1)"
        }
        if !renumbered.isEmpty {
            note("presenter ids restart at p1 when this is loaded: \(renumbered.joined(separator: ", "))")
        }
        for presenter in presenters {
            feature = graph.feature(of: .id(presenter.id))
            command(presenter.definition)
        }
        feature = nil
        if graph.router.routes.isEmpty, graph.nodes[RouterNode.name] != nil {
            note("router has no routes: it comes back with the first route added or wire from router.route")
        }
        let entries = graph.stack.entries
        if !entries.isEmpty {
            note("the navigation stack (\(entries.map(\.view).joined(separator: " > "))) is not saved: route to its views again to rebuild it")
        }
    }

    /// A pattern as one word of a command: quoted when it holds white space, quotes, brackets
    /// or backslashes.
    private static func word(_ text: String) -> String {
        let special: Set<Character> = [" ", "\t", "\n", "\r", "\"", "'", "\\", "[", "]", "{", "}"]
        guard text.contains(where: special.contains) || text.hasPrefix("#") else { return text }
        var quoted = "\""
        for character in text {
            if character == "\"" || character == "\\" { quoted.append("\\") }
            quoted.append(character)
        }
        return quoted + "\""
    }

    // MARK: Values, reducers

    /// `set` for each variable and knot that a wire, a pipe, a binding or an input's local value
    /// feeds: what they delivered while the script ran may differ from the saved value. Knots
    /// come last, as setting a variable may run a pipe into a knot.
    private mutating func writeRestoredValues() {
        var variables: [(String, Value)] = []
        var knots: [(String, Value)] = []
        for node in graph.nodes.values {
            if let variable = node as? VariableNode,
                !variable.setter.wires.isEmpty || variable.setter.localValue != nil || graph.bindings.contains(where: { $0.involves(variable) })
            {
                variables.append((variable.name, variable.value.value ?? .null))
            } else if let knot = node as? KnotNode, !knot.update.wires.isEmpty || knot.update.localValue != nil || !knot.pipes.isEmpty {
                knots.append((knot.name, knot.state.value ?? .null))
            }
        }
        guard !variables.isEmpty || !knots.isEmpty else { return }
        note("the values of variables and knots that wires, pipes or bindings feed, as saved")
        for (name, value) in variables + knots { command("set \(name) = ", value: value, of: name) }
    }

    /// The reducers of every store, each store's in registration order, which is the order they
    /// run in. When a fresh shell would number them otherwise (after a `reducer rm`), each is
    /// written with its id (`reducer r2 = app on ...`), so that the commands that name them
    /// still do after a load, or in a replay of a recording that starts with this.
    private mutating func writeReducers() {
        let reducers = graph.nodes.values.compactMap { $0 as? StoreNode }
            .flatMap { store in store.reducers.map { (store: store.name, reducer: $0) } }
        guard !reducers.isEmpty else { return }
        note("reducers come last: actions that wires deliver while this runs leave the stores' states as saved")
        // A fresh shell gives each the lowest free id: r1, r2, ... in the order written.
        let keepsIDs = reducers.enumerated().allSatisfy { index, entry in entry.reducer.id == "r\(index + 1)" }
        for (store, reducer) in reducers {
            feature = graph.feature(of: .id(reducer.id))
            var text = "reducer " + (keepsIDs ? "" : "\(reducer.id) = ") + "\(store) on \(reducer.type)"
            if let path = reducer.path { text += " at \(ValueChange.pathText(path))" }
            if let delay = reducer.delay { text += " after \(delay)" }
            if let condition = reducer.condition { text += " when \(condition.sourceText)" }
            command(text + " : \(reducer.body.sourceText)")
        }
    }

    /// The middleware of every store, each store's in registration order (the order it runs
    /// in), after the reducers: actions that wires deliver while the script runs do not go
    /// through it (it could drop them or dispatch more), so the stores' states stay as saved.
    /// As with reducers, when a fresh shell would number them otherwise (after a
    /// `middleware rm`), each is written with its id (`middleware m2 = app on ...`).
    private mutating func writeMiddleware() {
        let middleware = graph.nodes.values.compactMap { $0 as? StoreNode }
            .flatMap { store in store.middleware.map { (store: store.name, middleware: $0) } }
        guard !middleware.isEmpty else { return }
        // A fresh shell gives each the lowest free id: m1, m2, ... in the order written.
        let keepsIDs = middleware.enumerated().allSatisfy { index, entry in entry.middleware.id == "m\(index + 1)" }
        for (store, middleware) in middleware {
            command("middleware " + (keepsIDs ? "" : "\(middleware.id) = ") + "\(store) on \(middleware.type) : \(middleware.body.sourceText)")
        }
    }
}
