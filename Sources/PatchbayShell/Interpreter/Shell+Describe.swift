import Foundation
import PatchbayCore
import PatchbayGraph

extension Shell {
    /// `var = 1`, `patch map (in) -> (out)  out = 2`, with the node's marks.
    static func describe(_ summary: NodeSummary, style: OutputStyle) -> String {
        var text = "\(summary.kind)"
        if case .patch = summary.kind {
            text += " (\(summary.inputs.joined(separator: ", "))) -> (\(summary.outputs.joined(separator: ", ")))"
        }
        if let value = summary.value { text += "  = \(style.value(value))" }
        switch summary.state {
        case .failed: text += "  [failed: \(summary.failure ?? "")]"
        case .stale: text += "  [stale: an upstream node failed]"
        case .empty, .value: break
        }
        return text
    }

    static func json(_ summary: NodeSummary) -> Value {
        [
            "name": .string(summary.name), "kind": .string(summary.kind.description),
            "inputs": .array(summary.inputs.map(Value.string)), "outputs": .array(summary.outputs.map(Value.string)),
            "value": summary.value ?? .null, "state": .string(summary.state.rawValue),
            "failure": summary.failure.map(Value.string) ?? .null,
        ]
    }

    static func describe(_ report: PortReport, style: OutputStyle) -> [String] {
        let kind = report.isInput ? report.acceptsManyWires ? "input (takes many wires)" : "input" : report.isValuePort ? "value port" : "event port"
        var lines = ["\(report.address)  \(kind), \(report.state.rawValue)" + (report.value.map { ": \(style.value($0))" } ?? "")]
        if let failure = report.failure, report.state == .failed { lines.append("  failed: \(failure)") }
        lines += report.drivers.map { "  driven by \($0)" }
        if report.isInput, report.drivers.isEmpty { lines.append("  driven by nothing (no wire, no local value)") }
        lines.append(report.subscribers.isEmpty ? "  no subscribers" : "  subscribers: " + report.subscribers.joined(separator: "; "))
        return lines
    }

    static func json(_ report: PortReport) -> Value {
        [
            "port": .string(report.address.description), "input": .bool(report.isInput),
            "valuePort": .bool(report.isValuePort), "state": .string(report.state.rawValue), "value": report.value ?? .null,
            "failure": report.failure.map(Value.string) ?? .null,
            // One driver, or several for an input that takes many wires (`drivers` lists them all).
            "driver": report.drivers.count == 1 ? .string(report.drivers[0]) : .null,
            "drivers": .array(report.drivers.map(Value.string)), "manyWires": .bool(report.acceptsManyWires),
            "subscribers": .array(report.subscribers.map(Value.string)),
        ]
    }

    func patchTypesResult() -> CommandResult {
        let types = graph.allPatchTypes
        let width = types.map(\.ports.count).max() ?? 0
        var lines: [String] = []
        for type in types {
            lines.append("  " + type.ports.padding(to: width) + "  " + type.summary)
            for parameter in type.parameters {
                let fallback = parameter.defaultValue.map { " (default \($0))" } ?? " (required)"
                lines.append("  " + String(repeating: " ", count: width) + "    \(parameter.name)=  \(parameter.summary)\(fallback)")
            }
        }
        let json = Value.array(types.map { type in
            [
                "type": .string(type.name), "inputs": .array(type.inputs.map(Value.string)),
                "outputs": .array(type.outputs.map(Value.string)), "eventOutputs": .array(type.eventOutputs.map(Value.string)),
                "summary": .string(type.summary),
                "parameters": .array(type.parameters.map { .string($0.name) }), "userDefined": .bool(type.isUserDefined),
            ]
        })
        return CommandResult(lines: lines, json: json)
    }

    func graphResult(dot: Bool, file: Name?, force: Bool) throws(ShellError) -> CommandResult {
        let edges = graph.edges()
        if dot {
            let text = graph.dot()
            guard let file else { return CommandResult(lines: [text], json: .string(text)) }
            let path = try writablePath(file.text, at: file.range)
            try ScriptFileWriter.write(text + "\n", to: path, replacing: force, at: file.range)
            return CommandResult(lines: ["wrote \(path)"], json: ["file": .string(path)])
        }
        let summaries = graph.summaries()
        var lines: [String] = []
        for summary in summaries {
            lines.append("\(summary.name)  \(Self.describe(summary, style: style))")
            for edge in edges where edge.from == summary.name || edge.from.hasPrefix(summary.name + ".") {
                let arrow = switch edge.kind {
                case .wire: "->"
                case .delay: "~>"
                case .pipe: "=pipe=>"
                case .derive: "..>"
                case .bind: "<->"
                }
                lines.append("  \(edge.from) \(arrow) \(edge.to)" + (edge.label.map { "  \($0)" } ?? ""))
            }
        }
        if lines.isEmpty { lines = ["the graph is empty"] }
        let json: Value = [
            "nodes": .array(summaries.map(Self.json)),
            "edges": .array(edges.map { edge in
                ["from": .string(edge.from), "to": .string(edge.to), "kind": .string(edge.kind.rawValue),
                 "label": edge.label.map(Value.string) ?? .null]
            }),
        ]
        return CommandResult(lines: lines, json: json)
    }
}
