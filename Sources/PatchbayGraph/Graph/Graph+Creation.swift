@_spi(Shell) public import PatchbayCore

extension Graph {
    /// `var NAME = VALUE`
    public func createVariable(_ name: String, value: Value) throws(GraphError) {
        try checkNewName(name)
        let node = VariableNode(graph: self, name: name, initial: value)
        node.value.cause = Cause(node.value.addressText, after: rootCause)
        add(node)
    }

    /// `signal NAME`
    public func createSignal(_ name: String) throws(GraphError) {
        try checkNewName(name)
        add(SignalNode(graph: self, name: name))
    }

    /// `knot NAME = VALUE`: a state node whose default state is `value`.
    public func createKnot(_ name: String, state: Value) throws(GraphError) {
        try checkNewName(name)
        let node = KnotNode(graph: self, name: name, initial: state)
        node.state.cause = Cause(node.state.addressText, after: rootCause)
        add(node)
    }

    /// `derive NAME = EXPR`: recomputed whenever a node named in `expression` changes.
    public func createDerived(_ name: String, expression: Expression) throws(GraphError) {
        try checkNewName(name)
        var dependencies: [OutputPort<Value>] = []
        for node in try nodesRead(expression.freeNames) { dependencies += node.outputs }
        let initial: Value
        do {
            initial = try expression.evaluate(Bindings(), in: self)
        } catch {
            throw .expression(error, source: expression.source)
        }
        let node = DerivedNode(graph: self, name: name, expression: expression, dependencies: dependencies)
        node.value.store(initial)
        node.value.cause = Cause(node.value.addressText, after: rootCause)
        add(node)
    }

    /// `patch NAME TYPE [PARAM=VALUE ...]`: a patch of a built-in or user-defined type. A
    /// parameter named like an input sets that input's local value.
    public func createPatch(_ name: String, type typeName: String, arguments: [String: Value]) throws(GraphError) {
        try checkNewName(name)
        guard let type = patchTypes[typeName] else {
            throw .unknownPatchType(typeName, suggestion: Spelling.closest(to: typeName, among: patchTypeNames))
        }
        let design: PatchDesign
        do {
            design = try type.instantiate(try Self.check(arguments, for: type))
        } catch {
            throw .patchType(type: type.name, error)
        }
        for key in arguments.keys.sorted() where !type.parameters.contains(where: { $0.name == key }) && !design.inputs.contains(key) {
            let known = type.parameters.map(\.name)
            throw .patchType(type: type.name, .unknownParameter(key, known: known + design.inputs.filter { !known.contains($0) }))
        }
        let node = PatchNode(graph: self, name: name, type: type, arguments: arguments, design: design)
        for output in node.outputs where output.value != nil { output.cause = Cause(output.addressText, after: rootCause) }
        add(node)
        design.behavior.start(node)
        // Inputs given a value as a parameter arrive at once, as Wolf publishes static inputs.
        let given = node.inputs.filter { $0.localValue != nil }
        if !given.isEmpty {
            let root = rootCause
            transaction {
                for input in given {
                    input.cause = root
                    input.receive(input.localValue!, .change)
                }
            }
        }
    }

    /// Fills in defaults and parses code parameters.
    private static func check(_ arguments: [String: Value], for type: PatchType) throws(PatchTypeError) -> PatchArguments {
        var values = arguments
        var code: [String: Expression] = [:]
        for parameter in type.parameters {
            guard let value = arguments[parameter.name] ?? parameter.defaultValue else {
                throw .missingParameter(parameter.name)
            }
            values[parameter.name] = value
            guard parameter.isCode else { continue }
            guard case .string(let text) = value else {
                throw .invalidParameter(parameter.name, "must be a string holding an expression, such as \"$ + 1\"")
            }
            do {
                code[parameter.name] = try Expression(text)
            } catch {
                throw .code(parameter: parameter.name, error, source: text)
            }
        }
        return PatchArguments(values: values, code: code)
    }

    /// `patchtype NAME (IN, ...) -> (OUT, event OUT, ...) { STATEMENTS }`; the outputs named in
    /// `eventOutputs` are event ports.
    public func definePatchType(_ name: String, inputs: [String], outputs: [String], eventOutputs: [String] = [],
                                body: StatementBlock) throws(GraphError) {
        guard patchTypes[name] == nil else { throw .patchTypeTaken(name) }
        var ports: Set<String> = []
        for port in inputs + outputs where !ports.insert(port).inserted { throw .portNameTaken(type: name, port: port) }
        patchTypes[name] = .userDefined(name: name, inputs: inputs, outputs: outputs, eventOutputs: eventOutputs, body: body)
    }

    /// The nodes named in `names`, which code reads; throws for a name that is no node, so that
    /// code that would fail on every run is refused when it is given, changing nothing.
    func nodesRead(_ names: [String]) throws(GraphError) -> [GraphNode] {
        var nodes: [GraphNode] = []
        for name in names { nodes.append(try node(name)) }
        return nodes
    }

    /// Adds a new node, with no edges but a derived node's dependencies, and ranks it.
    func add(_ node: GraphNode) {
        nodes[node.name] = node
        rankNewNode(node)
        if !(node is RouterNode) { defined(.node(node)) }
        // A live presenter may read a node made after its entry was presented.
        if presenters.contains(where: \.isLive) { bindLivePresenters() }
    }
}
