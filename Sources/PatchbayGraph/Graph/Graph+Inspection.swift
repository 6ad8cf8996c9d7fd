@_spi(Shell) public import PatchbayCore

/// The state of a port, as `show` prints it.
@_spi(Shell)
public enum PortState: String, Sendable {
    case empty, value, stale, failed
}

/// One node as `nodes` lists it.
@_spi(Shell)
public struct NodeSummary: Sendable, Equatable {
    public var name: String
    public var kind: NodeKind
    public var inputs: [String]
    public var outputs: [String]
    /// What the node's name reads in expressions, when it holds a value.
    public var value: Value?
    public var state: PortState
    /// Why the node failed, when it did.
    public var failure: String?
}

/// One port as `show NODE.PORT` describes it.
@_spi(Shell)
public struct PortReport: Sendable, Equatable {
    public var address: PortAddress
    public var isInput: Bool
    /// Whether the port remembers its value (a value port) or not (an event port).
    public var isValuePort: Bool
    /// Whether the input merges many wires (`wire` adds to them), rather than taking one.
    public var acceptsManyWires: Bool
    public var state: PortState
    public var value: Value?
    public var failure: String?
    /// What drives an input: its wires, oldest first, or else its local value.
    public var drivers: [String]
    /// Who hears the port: wires, pipes, derived nodes and probes, in attach order.
    public var subscribers: [String]
}

/// An edge of the graph, as `graph` draws it.
@_spi(Shell)
public struct GraphEdge: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case wire, delay, pipe, derive, bind
    }

    public var from: String
    public var to: String
    public var kind: Kind
    /// The `when` and transform of a wire, if any.
    public var label: String?
}

extension Graph {
    /// `nodes`: every node in creation order.
    public func summaries() -> [NodeSummary] {
        nodes.values.map { node in
            let value: Value? = if case .value(let v) = lookup(name: node.name) { v } else { nil }
            return NodeSummary(
                name: node.name, kind: node.kind, inputs: node.inputs.map(\.name), outputs: node.outputs.map(\.name),
                value: value, state: state(of: node, hasValue: value != nil), failure: node.failure)
        }
    }

    private func state(of node: GraphNode, hasValue: Bool) -> PortState {
        if node.failure != nil { return .failed }
        if node.isStale { return .stale }
        return hasValue ? .value : .empty
    }

    /// `show NAME`: every port of a node.
    public func show(_ name: String) throws(GraphError) -> [PortReport] {
        let node = try node(name)
        return try (node.outputs.map(\.name) + node.inputs.map(\.name)).map { port throws(GraphError) in
            try show(PortAddress(node: name, port: port))
        }
    }

    /// `show NODE.PORT`
    public func show(_ address: PortAddress) throws(GraphError) -> PortReport {
        let node = try node(address.node)
        if let output = node.output(address.port) {
            var subscribers = output.receivers.map(subscriberText)
            // Delay edges are not receivers: they read the port at each tick.
            subscribers += delayWires.filter { $0.source === output }
                .sorted { $0.target.address < $1.target.address }.map { "wire \($0.definition)" }
            subscribers += probes.keys.filter { $0 == address.description || $0 == address.node }.map { "probe \($0)" }
            return PortReport(
                address: address, isInput: false, isValuePort: output.remembers, acceptsManyWires: false,
                state: state(of: node, hasValue: output.value != nil), value: output.value, failure: node.failure,
                drivers: [], subscribers: subscribers)
        }
        if let input = node.input(address.port) {
            let drivers = input.wires.isEmpty ? input.localValue.map { ["local value \($0)"] } ?? []
                : input.wires.map { "wire \($0.definition)" }
            let subscribers = probes.keys.filter { $0 == address.description }.map { "probe \($0)" }
            return PortReport(
                address: address, isInput: true, isValuePort: true, acceptsManyWires: input.acceptsManyWires,
                state: state(of: node, hasValue: input.value != nil), value: input.value, failure: node.failure,
                drivers: drivers, subscribers: subscribers)
        }
        throw .unknownPort(address, isInput: nil, existing: node.outputs.map(\.name) + node.inputs.map(\.name))
    }

    private func subscriberText(_ receiver: any Receiver<Value>) -> String {
        switch receiver {
        case let wire as Wire: "wire \(wire.definition)"
        case let pipe as KnotPipe: "pipe -> \(pipe.knot.name)"
        case let trigger as DerivedNode.Trigger: "derive \(trigger.derived.name)"
        default: "node \((receiver.node as? GraphNode)?.name ?? "?")"
        }
    }

    /// `why NAME[.PORT]`: the cause chain of the port's current value, oldest first:
    /// the command, then every port the value passed through.
    public func why(_ name: String, port: String? = nil) throws(GraphError) -> [String] {
        let node = try node(name)
        if let port {
            if let output = node.output(port) {
                return output.cause?.trace ?? []
            } else if let input = node.input(port) {
                return (input.cause?.trace ?? []) + [PortAddress(node: name, port: port).description]
            } else {
                throw .unknownPort(PortAddress(node: name, port: port), isInput: nil,
                                   existing: node.outputs.map(\.name) + node.inputs.map(\.name))
            }
        }
        return node.primaryOutput?.cause?.trace ?? []
    }

    /// `graph`: nodes and edges.
    public func edges() -> [GraphEdge] {
        var edges: [GraphEdge] = []
        for node in nodes.values {
            for output in node.outputs {
                for receiver in output.receivers {
                    switch receiver {
                    case let wire as Wire:
                        let label = [wire.condition.map { "when \($0)" }, wire.transform.map { ": \($0)" }]
                            .compactMap { $0 }.joined(separator: " ")
                        edges.append(GraphEdge(from: output.address.description, to: wire.target.address.description,
                                               kind: .wire, label: label.isEmpty ? nil : label))
                    case let pipe as KnotPipe:
                        edges.append(GraphEdge(from: output.address.description, to: pipe.knot.name, kind: .pipe,
                                               label: pipe.body.description))
                    case let trigger as DerivedNode.Trigger:
                        edges.append(GraphEdge(from: output.address.description, to: trigger.derived.name, kind: .derive, label: nil))
                    default:
                        break
                    }
                }
            }
        }
        for wire in delayWires.sorted(by: { $0.target.address < $1.target.address }) {
            edges.append(GraphEdge(from: wire.source.address.description, to: wire.target.address.description, kind: .delay, label: nil))
        }
        for binding in bindings {
            edges.append(GraphEdge(from: binding.left.name, to: binding.right.name, kind: .bind, label: nil))
        }
        return edges
    }

    /// `graph --dot`: the graph in Graphviz's language.
    public func dot() -> String {
        var lines = ["digraph patchbay {", "  rankdir=LR;", "  node [shape=record, fontname=\"monospace\"];"]
        for node in nodes.values {
            let inputs = node.inputs.map { "<in_\($0.name)> \($0.name)" }.joined(separator: "|")
            let outputs = node.outputs.map { "<out_\($0.name)> \($0.name)" }.joined(separator: "|")
            let title = "\(node.name)\\n\(node.kind)"
            let fields = [inputs.isEmpty ? nil : "{\(inputs)}", title, outputs.isEmpty ? nil : "{\(outputs)}"].compactMap { $0 }
            lines.append("  \(Self.dotID(node.name)) [label=\"{\(fields.joined(separator: "|"))}\"];")
        }
        for edge in edges() {
            let from = Self.dotEndpoint(edge.from, side: "out")
            let to = Self.dotEndpoint(edge.to, side: "in")
            var attributes: [String] = []
            switch edge.kind {
            case .delay: attributes.append("style=dashed, label=\"~>\"")
            case .pipe: attributes.append("style=bold, label=\"pipe\"")
            case .derive: attributes.append("style=dotted")
            case .bind: attributes.append("dir=both, style=dashed")
            case .wire: if let label = edge.label { attributes.append("label=\"\(Self.dotEscape(label))\"") }
            }
            lines.append("  \(from) -> \(to)" + (attributes.isEmpty ? "" : " [\(attributes.joined(separator: ", "))]") + ";")
        }
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    private static func dotID(_ name: String) -> String { "\"\(name)\"" }

    private static func dotEndpoint(_ text: String, side: String) -> String {
        let parts = text.split(separator: ".", maxSplits: 1).map(String.init)
        return parts.count == 2 ? "\(dotID(parts[0])):\(side)_\(parts[1])" : dotID(text)
    }

    private static func dotEscape(_ text: String) -> String {
        text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
    }
}
