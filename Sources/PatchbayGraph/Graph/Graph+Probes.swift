@_spi(Shell) import PatchbayCore

extension Graph {
    /// `probe TARGET [--future]`: reports every value delivered on a port, or on every output of
    /// a node, as `.probe` events. A value port that holds a value reports it at once unless
    /// `future` (GlueKit's `futureValues`).
    /// - Returns: the ports probed.
    @discardableResult
    public func probe(_ name: String, port: String? = nil, future: Bool = false) throws(GraphError) -> [PortAddress] {
        let node = try node(name)
        var targets: [(PortAddress, OutputPort<Value>)] = []
        if let port {
            let address = PortAddress(node: name, port: port)
            if let output = node.output(port) {
                targets = [(address, output)]
            } else if let input = node.input(port) {
                targets = [(address, input.observers)]
            } else {
                throw .unknownPort(address, isInput: nil, existing: node.outputs.map(\.name) + node.inputs.map(\.name))
            }
        } else {
            targets = node.outputs.map { (PortAddress(node: name, port: $0.name), $0) }
            if targets.isEmpty { targets = node.inputs.map { (PortAddress(node: name, port: $0.name), $0.observers) } }
        }
        let key = port.map { "\(name).\($0)" } ?? name
        var connections = probes[key] ?? []
        let existing = connections.count
        for (address, output) in targets {
            let text = address.description
            connections.append(output.subscribe(future: future) { [unowned self] value in
                reportProbe(text, value)
            })
        }
        probes[key] = connections
        ownIfConnectorOpen(probe: key, connections[existing...])
        return targets.map(\.0)
    }

    /// Reports a value a probe saw. A method, so that a probe's callback reaches its unowned
    /// graph once per value rather than once per use.
    private func reportProbe(_ port: String, _ value: Value) {
        report(.probe(port: port, value: value, transaction: engine.transactionID))
    }

    /// `unprobe TARGET`: stops the probes set with exactly that target.
    public func unprobe(_ target: String) throws(GraphError) {
        guard let connections = probes.removeValue(forKey: target) else { throw .unknownProbe(target) }
        for connection in connections { connection.disconnect() }
    }

    /// `unprobe all`
    /// - Returns: how many probes were stopped.
    @discardableResult
    public func unprobeAll() -> Int {
        let count = probes.count
        for connection in probes.values.joined() { connection.disconnect() }
        probes.removeAll()
        return count
    }

    /// The targets of the active probes.
    public var probeTargets: [String] { Array(probes.keys) }
}

extension Graph {
    /// `begin`
    public func begin() throws(GraphError) {
        do { try engine.begin() } catch { throw .engine(error) }
    }

    /// `commit`
    /// - Returns: whether this was the outermost commit, which applied the writes.
    @discardableResult
    public func commit() throws(GraphError) -> Bool {
        do { return try engine.commit() } catch { throw .engine(error) }
    }

    /// `abort`
    public func abort() throws(GraphError) {
        do { try engine.abort() } catch { throw .engine(error) }
        for node in nodes.values {
            (node as? VariableNode)?.pending = nil
            (node as? KnotNode)?.pending = nil
        }
    }

    /// Aborts a transaction left open where its input ended (a script whose `begin` no `commit`
    /// closed).
    /// - Returns: the error that says what was dropped, or `nil` when no transaction was open.
    public func dropOpenTransaction() -> GraphError? {
        guard engine.isInTransaction else { return nil }
        let dropped = engine.bufferedWrites.count + engine.bufferedEvents.count
        try? abort()
        return .transactionLeftOpen(droppedWrites: dropped)
    }

    /// `tick [MS]`: advances the virtual clock; returns the new time.
    @discardableResult
    public func tick(by milliseconds: Int? = nil) throws(GraphError) -> Int {
        guard !engine.isInTransaction else { throw .inTransaction("tick") }
        if engine.clock.pendingCount > 0 || !engine.tickHandlers.isEmpty { saveBeforeTick() }
        do { return try engine.tick(by: milliseconds) } catch { throw .engine(error) }
    }
}
