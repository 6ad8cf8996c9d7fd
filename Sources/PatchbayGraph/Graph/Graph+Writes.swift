@_spi(Shell) public import PatchbayCore

extension Graph {
    /// `set NAME = VALUE`: a variable's value, or a knot's whole state.
    public func set(_ name: String, to value: Value) throws(GraphError) {
        let node = try node(name)
        switch node {
        case let variable as VariableNode:
            write(variable, variable.value, value, pending: \.pending)
        case let knot as KnotNode:
            write(knot, knot.state, value, pending: \.pending)
        default:
            throw .wrongKind(name, kind: node.kind, expected: "set works on variables and knots (and NODE.PORT inputs)")
        }
    }

    /// Writes a source node's output: now, buffered until commit, or queued when busy.
    func write<Node: GraphNode>(_ node: Node, _ port: OutputPort<Value>, _ value: Value,
                                pending: ReferenceWritableKeyPath<Node, Value?>, _ delivery: Delivery = .change) {
        let root = rootCause
        switch engine.writeMode {
        case .immediate:
            engine.runTransaction { node.publish(port, value, cause: root, delivery) }
        case .buffered:
            let isFirst = node[keyPath: pending] == nil
            node[keyPath: pending] = value
            guard isFirst else { return }
            engine.bufferedWrites.append(BufferedWrite(
                apply: {
                    if let value = node[keyPath: pending] { node.publish(port, value, cause: root, delivery) }
                    node[keyPath: pending] = nil
                },
                discard: { node[keyPath: pending] = nil }))
        case .queued:
            engine.enqueue("\(node.name).\(port.name)") { [unowned self] in
                let saved = rootCause
                rootCause = root
                write(node, port, value, pending: pending, delivery)
                rootCause = saved
            }
        }
    }

    /// `set NODE.PORT = VALUE`: an input's local value, which arrives now (Wolf's publish on the
    /// input's publink). Refused while a wire drives the input.
    public func setInput(_ address: PortAddress, to value: Value) throws(GraphError) {
        let input = try inputPort(address)
        if !input.wires.isEmpty { throw .inputIsWired(address, wires: input.wires.map(\.text)) }
        let root = rootCause
        input.localValue = value
        deliver(value, to: input, cause: root)
    }

    /// Delivers `value` to an input as a change, in a transaction of its own (or the open one).
    func deliver(_ value: Value, to input: InputPort, cause: Cause?, _ delivery: Delivery = .change) {
        switch engine.writeMode {
        case .immediate:
            engine.runTransaction {
                input.cause = cause
                input.receive(value, delivery)
            }
        case .buffered:
            engine.bufferedEvents.append {
                input.cause = cause
                input.receive(value, delivery)
            }
        case .queued:
            engine.enqueue(input.address.description) { [unowned self] in deliver(value, to: input, cause: cause, delivery) }
        }
    }

    /// `send NAME VALUE`: an event on a signal.
    public func send(_ name: String, _ value: Value) throws(GraphError) {
        let node = try node(name)
        guard let signal = node as? SignalNode else {
            throw .wrongKind(name, kind: node.kind, expected: "send works on signals (use set for variables and knots)")
        }
        guard !signal.isClosed else { throw .signalClosed(name) }
        send(on: signal, value, cause: rootCause)
    }

    /// Sends `value` on `signal`: now, at commit, or after the current transaction. A closed
    /// signal reports the error instead (a value wired into its `send` input).
    func send(on signal: SignalNode, _ value: Value, cause: Cause?) {
        guard !signal.isClosed else {
            engine.report(.closed(signal.name))
            return
        }
        switch engine.writeMode {
        case .immediate:
            engine.runTransaction { signal.emitAll([(signal.out, value)], cause: cause, .event) }
        case .buffered:
            engine.bufferedEvents.append { signal.emitAll([(signal.out, value)], cause: cause, .event) }
        case .queued:
            engine.enqueue("\(signal.name).out") { [unowned self, weak signal] in
                if let signal { send(on: signal, value, cause: cause) }
            }
        }
    }

    /// `close NAME`: later sends on the signal are errors.
    public func close(_ name: String) throws(GraphError) {
        let node = try node(name)
        guard let signal = node as? SignalNode else {
            throw .wrongKind(name, kind: node.kind, expected: "close works on signals")
        }
        signal.isClosed = true
    }

    /// `touch NAME` or `touch NODE.PORT`: delivers the current value again although it did not
    /// change. A node's name touches its first output.
    public func touch(_ name: String, port: String? = nil) throws(GraphError) {
        let node = try node(name)
        let output: OutputPort<Value>
        if let port {
            output = try outputPort(PortAddress(node: name, port: port))
        } else if let primary = node.primaryOutput {
            output = primary
        } else {
            throw .wrongKind(name, kind: node.kind, expected: "it has no output to touch")
        }
        guard let value = output.value else { return }
        let root = rootCause
        transaction { node.emitAll([(output, value)], cause: root, .event) }
    }

    /// `point - start` when `point` lies in `start ..< start + length`, computed without
    /// overflow for any integers; `nil` otherwise.
    static func offset(of point: Int, from start: Int, within length: Int) -> Int? {
        let (offset, overflow) = point.subtractingReportingOverflow(start)
        return !overflow && offset >= 0 && offset < length ? offset : nil
    }

    /// `tap VIEW X Y`: fires every tap patch whose `view` input holds VIEW's frame, with the
    /// point relative to the frame when it falls inside (any integers: no sum overflows).
    /// - Returns: the taps that fired.
    @discardableResult
    public func tap(_ viewName: String, x: Int, y: Int) throws(GraphError) -> [String] {
        let view = try node(viewName)
        guard case .patch("view") = view.kind, let frame = view.output("frame")?.value else {
            throw .wrongKind(viewName, kind: view.kind, expected: "tap works on view patches")
        }
        let taps = nodes.values.compactMap { $0 as? PatchNode }.filter { tap in
            tap.type.name == "tap" && tap.input("view")?.wires.first?.source.owner === view
        }
        guard case .int(let left) = frame["x"] ?? .null, case .int(let top) = frame["y"] ?? .null,
            case .int(let width) = frame["width"] ?? .null, case .int(let height) = frame["height"] ?? .null,
            let column = Self.offset(of: x, from: left, within: width), let row = Self.offset(of: y, from: top, within: height)
        else { return [] }
        let root = rootCause
        transaction {
            for tap in taps {
                tap.emitAll([(tap.output("x")!, .int(column)), (tap.output("y")!, .int(row))], cause: root, .event)
            }
        }
        return taps.map(\.name)
    }
}
