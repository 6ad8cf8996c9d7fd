@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph

/// `nodes`: every node, in creation order, with its kind, value and marks.
struct NodeListing: CommandReport {
    var nodes: [NodeSummary]

    func lines(in style: OutputStyle) -> [String] {
        guard !nodes.isEmpty else { return ["no nodes yet (create one with var, derive, signal, knot or patch)"] }
        let width = nodes.map(\.name.count).max() ?? 0
        return nodes.map { "\($0.name.padding(to: width))  \($0.details(in: style))" }
    }

    var json: Value { .array(nodes.map(\.json)) }
}

/// `show NODE[.PORT]`: each port's state, value, drivers and subscribers.
struct PortListing: CommandReport {
    var ports: [PortReport]
    /// A line before the ports: what they do not show (that a store is hosted).
    var note: String?

    func lines(in style: OutputStyle) -> [String] { (note.map { [$0] } ?? []) + ports.flatMap { $0.lines(in: style) } }
    var json: Value { .array(ports.map(\.json)) }
}

/// `graph`: each node with the edges that leave it.
struct GraphDrawing: CommandReport {
    var nodes: [NodeSummary]
    var edges: [GraphEdge]

    func lines(in style: OutputStyle) -> [String] {
        var lines: [String] = []
        for node in nodes {
            lines.append("\(node.name)  \(node.details(in: style))")
            for edge in edges where edge.from == node.name || edge.from.hasPrefix(node.name + ".") {
                lines.append("  \(edge.from) \(edge.kind.arrow) \(edge.to)" + (edge.label.map { "  \($0)" } ?? ""))
            }
        }
        return lines.isEmpty ? ["the graph is empty"] : lines
    }

    var json: Value { ["nodes": .array(nodes.map(\.json)), "edges": .array(edges.map(\.json))] }
}

/// `graph --dot`: the graph in Graphviz's language, as one text.
struct GraphDot: CommandReport {
    var text: String

    func lines(in style: OutputStyle) -> [String] { [text] }
    var json: Value { .string(text) }
}

/// `graph --dot FILE`: the file written.
struct GraphDotWritten: CommandReport {
    var path: String

    func lines(in style: OutputStyle) -> [String] { ["wrote \(path)"] }
    var json: Value { ["file": .string(path)] }
}

/// `patch types`: each patch type's signature and summary, with its parameters.
struct PatchTypeListing: CommandReport {
    var types: [PatchType]

    func lines(in style: OutputStyle) -> [String] {
        let width = types.map(\.ports.count).max() ?? 0
        var lines: [String] = []
        for type in types {
            lines.append("  " + type.ports.padding(to: width) + "  " + type.summary)
            for parameter in type.parameters {
                let fallback = parameter.defaultValue.map { " (default \($0))" } ?? " (required)"
                lines.append("  " + String(repeating: " ", count: width) + "    \(parameter.name)=  \(parameter.summary)\(fallback)")
            }
        }
        return lines
    }

    var json: Value {
        .array(types.map { type in
            [
                "type": .string(type.name), "inputs": .array(type.inputs.map(Value.string)),
                "outputs": .array(type.outputs.map(Value.string)), "eventOutputs": .array(type.eventOutputs.map(Value.string)),
                "summary": .string(type.summary),
                "parameters": .array(type.parameters.map { .string($0.name) }), "userDefined": .bool(type.isUserDefined),
            ]
        })
    }
}

/// `render`: the views the view patches draw, a line each.
struct ViewRendering: CommandReport {
    var rows: [String]
    /// Whether there are view patches, drawn or not.
    var hasViews: Bool

    func lines(in style: OutputStyle) -> [String] {
        guard rows.isEmpty else { return rows }
        guard hasViews else { return ["nothing to render (no view patches)"] }
        return ["nothing to render: no view patch has a frame to draw "
            + "(a view is drawn when its width and height are at least 2 and its x and y are not negative)"]
    }
    var json: Value { .array(rows.map(Value.string)) }
}

/// `why NODE[.PORT]`: the chain of causes of the port's value, oldest first.
struct CauseChain: CommandReport {
    /// The port, as the command named it.
    var target: String
    var causes: [String]

    func lines(in style: OutputStyle) -> [String] { [causes.isEmpty ? "\(target) has no value yet" : causes.joined(separator: " → ")] }
    var json: Value { .array(causes.map(Value.string)) }
}

/// `remove NAME`: the node removed.
struct NodeRemoved: CommandReport {
    var name: String

    func lines(in style: OutputStyle) -> [String] { ["removed \(name)"] }
    var json: Value { ["removed": .string(name)] }
}

extension NodeSummary {
    /// What follows the node's name in `nodes`: `var  = 1`, `patch map (in) -> (out)  = 2`, with
    /// the node's marks.
    func details(in style: OutputStyle) -> String {
        var text = "\(kind)"
        if case .patch = kind {
            text += " (\(inputs.joined(separator: ", "))) -> (\(outputs.joined(separator: ", ")))"
        }
        if let value { text += "  = \(style.value(value))" }
        switch state {
        case .failed: text += "  [failed: \(failure ?? "")]"
        case .stale: text += "  [stale: an upstream node failed]"
        case .empty, .value: break
        }
        return text
    }

    var json: Value {
        [
            "name": .string(name), "kind": .string(kind.description),
            "inputs": .array(inputs.map(Value.string)), "outputs": .array(outputs.map(Value.string)),
            "value": value ?? .null, "state": .string(state.rawValue),
            "failure": failure.map(Value.string) ?? .null,
        ]
    }
}

extension PortReport {
    /// The port as `show` describes it: kind, state and value, then its drivers and subscribers.
    func lines(in style: OutputStyle) -> [String] {
        let kind = isInput ? acceptsManyWires ? "input (takes many wires)" : "input" : isValuePort ? "value port" : "event port"
        var lines = ["\(address)  \(kind), \(state.rawValue)" + (value.map { ": \(style.value($0))" } ?? "")]
        if let failure, state == .failed { lines.append("  failed: \(failure)") }
        lines += drivers.map { "  driven by \($0)" }
        if isInput, drivers.isEmpty { lines.append("  driven by nothing (no wire, no local value)") }
        lines.append(subscribers.isEmpty ? "  no subscribers" : "  subscribers: " + subscribers.joined(separator: "; "))
        return lines
    }

    var json: Value {
        [
            "port": .string(address.description), "input": .bool(isInput),
            "valuePort": .bool(isValuePort), "state": .string(state.rawValue), "value": value ?? .null,
            "failure": failure.map(Value.string) ?? .null,
            // One driver, or several for an input that takes many wires (`drivers` lists them all).
            "driver": drivers.count == 1 ? .string(drivers[0]) : .null,
            "drivers": .array(drivers.map(Value.string)), "manyWires": .bool(acceptsManyWires),
            "subscribers": .array(subscribers.map(Value.string)),
        ]
    }
}

extension GraphEdge {
    var json: Value {
        ["from": .string(from), "to": .string(to), "kind": .string(kind.rawValue), "label": label.map(Value.string) ?? .null]
    }
}

extension GraphEdge.Kind {
    /// How `graph` draws an edge of this kind.
    var arrow: String {
        switch self {
        case .wire: "->"
        case .delay: "~>"
        case .pipe: "=pipe=>"
        case .derive: "..>"
        case .bind: "<->"
        }
    }
}

/// `show STORE #N`: one action of a store's history, as `dispatch` showed it, then whether it is
/// skipped, and where it came from (as `history --trace` says); in JSON the step with `skipped`,
/// `failure` and `site`.
struct StepShown: CommandReport {
    var step: StoreStep<ValueChange>

    func lines(in style: OutputStyle) -> [String] {
        ["\(step.store) " + step.line(in: style)] + (step.skipped ? ["  (skipped)"] : []) + ["  " + step.site.traceLine]
    }

    var json: Value {
        var json = step.json.adding("skipped", .bool(step.skipped)).adding("site", step.site.json)
        if let failure = step.failure { json = json.adding("failure", .string(failure)) }
        return json
    }
}
