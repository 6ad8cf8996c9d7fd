@_spi(Shell) import PatchbayCore

/// A named group of wires and probes that end together (GlueKit's `Connector`): those made while
/// it is open, and wires added by the input they drive.
final class Connector {
    let name: String
    /// The wires it owns; one that was replaced or removed since is no longer its own.
    fileprivate(set) var wires: [Wire] = []
    /// The probes it owns, by target, as `probes` holds them.
    fileprivate(set) var probes: [(target: String, connection: Connection)] = []

    init(name: String) { self.name = name }
}

extension Graph {
    /// What a connector holds, as `connector list` shows it.
    public struct ConnectorSummary: Sendable, Equatable {
        public var name: String
        /// The wires it owns, as `wire` takes them.
        public var wires: [String]
        /// The targets of the probes it owns.
        public var probes: [String]
        /// Whether wires and probes made now join it.
        public var isOpen: Bool
    }

    /// `connector NAME`: opens the connector (made when new): the wires and probes made until
    /// `connector end` belong to it.
    public func openConnector(_ name: String) throws(GraphError) {
        if let open = openConnectorName, open != name { throw .connectorOpen(open) }
        if connectors[name] == nil { connectors[name] = Connector(name: name) }
        openConnectorName = name
    }

    /// `connector end`: closes the open connector.
    /// - Returns: its name.
    @discardableResult
    public func endConnector() throws(GraphError) -> String {
        guard let name = openConnectorName else { throw .noOpenConnector }
        openConnectorName = nil
        return name
    }

    /// `connector NAME add DST.PORT | SRC.PORT->DST.PORT ...`: the connector (made when new) takes
    /// the wires into these inputs (every wire of an input that accepts many), or the wire from
    /// SRC.PORT into DST.PORT (`source`). Every wire named must exist, or nothing is added.
    /// - Returns: the wires added.
    @discardableResult
    public func addToConnector(_ name: String, wires items: [(source: PortAddress?, target: PortAddress)]) throws(GraphError) -> [String] {
        var added: [Wire] = []
        for (source, address) in items {
            let input = try inputPort(address)
            if let source {
                let output = try outputPort(source)
                guard let wire = input.wires.first(where: { $0.source === output }) else {
                    throw .noSuchWire(from: source, to: address, existing: input.wires.map(\.text))
                }
                added.append(wire)
            } else {
                guard !input.wires.isEmpty else { throw .notWired(address) }
                added += input.wires
            }
        }
        let connector = connectors[name] ?? Connector(name: name)
        connectors[name] = connector
        for wire in added where !connector.wires.contains(where: { $0 === wire }) { connector.wires.append(wire) }
        return added.map(\.definition)
    }

    /// `connector NAME disconnect`: removes every wire and probe the connector owns that still
    /// exists, together, and forgets the connector (closing it when open).
    /// - Returns: what it ended.
    @discardableResult
    public func disconnectConnector(_ name: String) throws(GraphError) -> ConnectorSummary {
        guard let connector = connectors[name] else { throw .unknownConnector(name, existing: Array(connectors.keys)) }
        let summary = summary(of: connector)
        var reverted: [InputPort] = []
        for wire in liveWires(of: connector) {
            detach(wire)
            if !reverted.contains(where: { $0 === wire.target }) { reverted.append(wire.target) }
        }
        if !reverted.isEmpty { rankAll() }
        for (target, connection) in liveProbes(of: connector) {
            connection.disconnect()
            probes[target]?.removeAll { $0 === connection }
            if probes[target]?.isEmpty == true { probes[target] = nil }
        }
        connectors[name] = nil
        if openConnectorName == name { openConnectorName = nil }
        for input in reverted { revert(input) }
        return summary
    }

    /// Every connector, in the order they were made.
    public var connectorSummaries: [ConnectorSummary] { connectors.values.map(summary(of:)) }

    /// Gives a wire just made to the open connector.
    func ownIfConnectorOpen(_ wire: Wire) {
        guard let name = openConnectorName, let connector = connectors[name] else { return }
        connector.wires.append(wire)
    }

    /// Gives probe connections just made to the open connector.
    func ownIfConnectorOpen(probe target: String, _ connections: some Sequence<Connection>) {
        guard let name = openConnectorName, let connector = connectors[name] else { return }
        for connection in connections { connector.probes.append((target, connection)) }
    }

    private func liveWires(of connector: Connector) -> [Wire] {
        connector.wires.filter(\.isLive)
    }

    private func liveProbes(of connector: Connector) -> [(target: String, connection: Connection)] {
        connector.probes.filter { item in probes[item.target]?.contains { $0 === item.connection } ?? false }
    }

    private func summary(of connector: Connector) -> ConnectorSummary {
        var targets: [String] = []
        for (target, _) in liveProbes(of: connector) where !targets.contains(target) { targets.append(target) }
        return ConnectorSummary(name: connector.name, wires: liveWires(of: connector).map(\.definition), probes: targets,
                                isOpen: openConnectorName == connector.name)
    }

    /// The wires a connector owns, for the script that rebuilds it.
    func connectorWires(_ connector: Connector) -> [Wire] { liveWires(of: connector) }

    /// The probe targets a connector owns, for the script that rebuilds it.
    func connectorProbeTargets(_ connector: Connector) -> [String] { summary(of: connector).probes }
}
