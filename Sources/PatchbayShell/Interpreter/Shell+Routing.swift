import PatchbayCore
import PatchbayGraph

extension Shell {
    func run(_ command: RouteCommand, text: String) throws(ShellError) -> CommandResult {
        let whole = 0..<text.utf8.count
        switch command {
        case .add(let patternName, let view, let option, let priority, let condition):
            let pattern: RoutePattern
            do { pattern = try RoutePattern(patternName.text) } catch {
                throw ShellError(.graph(.routing(error, text: patternName.text)), at: Self.shift(error.range, into: patternName.range))
            }
            let warnings = try call([patternName], [], patternName.range) { () throws(GraphError) in
                try graph.addRoute(pattern, view: view?.text, option: option ?? .push, priority: priority, when: condition)
            }
            var line = "route \(pattern.text)"
            line += view.map { " → \($0.text) (\((option ?? .push).rawValue))" } ?? " (a handler: it only sends on router.route)"
            let result = CommandResult(
                lines: [line] + warnings.map { "warning: \($0)" },
                json: ["pattern": .string(pattern.text), "view": view.map { .string($0.text) } ?? .null,
                       "option": .string((option ?? .push).rawValue), "priority": .int(priority),
                       "warnings": .array(warnings.map { .string($0.description) })])
            return result
        case .navigate(let url, let extra, let option):
            var values: [String: Value] = [:]
            for (name, expression) in extra { values[name.text] = try evaluate(expression, in: text) }
            let navigation = try routing(url) { () throws(GraphError) in
                try graph.navigate(to: url.text, extra: values, option: option)
            }
            var json = navigation.value
            if case .object(var members) = json {
                members["stack"] = navigation.stack.value
                json = .object(members)
            }
            let target = navigation.view.map { "→ \($0) (\(navigation.option.rawValue))" } ?? "(handler: no view)"
            return CommandResult(lines: ["\(navigation.pattern)  \(navigation.params)  \(target)"], json: json)
        case .explain(let url):
            let explanation = try routing(url) { () throws(GraphError) in try graph.explainRoute(url.text) }
            let lines = explanation.entries.isEmpty ? ["no routes yet (add one with route add PATTERN)"]
                : explanation.entries.map { entry in
                    (entry.matched ? "✓ " : "✗ ") + entry.pattern
                        + (entry.expansion != entry.pattern ? " (as \(entry.expansion))" : "") + "  \(entry.outcome)"
                }
            let json = Value.array(explanation.entries.map { entry in
                ["pattern": .string(entry.pattern), "matched": .bool(entry.matched),
                 "reason": entry.matched ? .null : .string(entry.outcome.description)]
            })
            return CommandResult(lines: lines, json: json)
        case .list:
            let routes = graph.routeSummaries
            let lines = routes.isEmpty ? ["no routes yet"] : routes.map { route in
                var line = route.pattern
                if let view = route.view { line += "  view=\(view) option=\(route.option.rawValue)" }
                if route.priority != 0 { line += "  priority=\(route.priority)" }
                if let condition = route.condition { line += "  when \(condition)" }
                return line
            }
            let json = Value.array(routes.map { route in
                ["pattern": .string(route.pattern), "view": route.view.map(Value.string) ?? .null,
                 "option": .string(route.option.rawValue), "priority": .int(route.priority),
                 "when": route.condition.map(Value.string) ?? .null]
            })
            return CommandResult(lines: lines, json: json)
        case .remove(let pattern):
            try call([pattern], [], pattern.range) { () throws(GraphError) in try graph.removeRoute(pattern.text) }
            return CommandResult(lines: ["removed route \(pattern.text)"], json: ["removed": .string(pattern.text)])
        case .check:
            let conflicts = graph.routeConflicts()
            return CommandResult(lines: conflicts.isEmpty ? ["no conflicts"] : conflicts.map(\.description),
                                 json: .array(conflicts.map { conflict in
                                     ["route": .string(conflict.route.pattern), "witness": conflict.witness.map(Value.string) ?? .null,
                                      "unreachable": .bool(conflict.isUnreachable), "message": .string(conflict.description)]
                                 }))
        case .presenter(let view, let expression):
            graph.addPresenter(for: view.text, expression)
            return CommandResult(lines: ["presenter for \(view.text)"], json: ["view": .string(view.text)])
        case .stack:
            return stackResult()
        case .back:
            let entry = try call([], [], whole) { () throws(GraphError) in try graph.back() }
            var result = stackResult()
            result.lines.insert("closed \(entry.view)", at: 0)
            return result
        case .dismiss:
            let closed = try call([], [], whole) { () throws(GraphError) in try graph.dismiss() }
            var result = stackResult()
            result.lines.insert("dismissed \(closed.map(\.view).joined(separator: ", "))", at: 0)
            return result
        }
    }

    /// Runs `body`, which routes `url`; an error about part of the URL (a broken percent-escape)
    /// puts its caret there, any other under the whole URL.
    private func routing<T>(_ url: Name, _ body: () throws(GraphError) -> T) throws(ShellError) -> T {
        do {
            return try body()
        } catch {
            if case .routing(let routing, _) = error, !routing.range.isEmpty, routing.range.upperBound <= url.text.utf8.count {
                throw ShellError(.graph(error), at: Self.shift(routing.range, into: url.range))
            }
            throw ShellError(.graph(error), at: url.range)
        }
    }

    private func stackResult() -> CommandResult {
        let entries = graph.stack.entries
        let lines = entries.isEmpty ? ["the stack is empty"] : entries.enumerated().map { index, entry in
            var line = "\(index + 1)  \(entry.view)\(entry.isModal ? " (modal)" : "")  \(entry.url)"
            if case .object(let members) = entry.params, !members.isEmpty { line += "  params \(entry.params)" }
            if entry.content != .null { line += "  content \(entry.content)" }
            return line
        }
        let stack = graph.stack.value
        return CommandResult(lines: lines, json: stack)
    }

    /// A range within a token, moved to where the token stands in the command.
    static func shift(_ range: Range<Int>, into token: Range<Int>) -> Range<Int> {
        let lower = Swift.min(token.lowerBound + range.lowerBound, token.upperBound)
        return lower..<Swift.max(lower, Swift.min(token.lowerBound + range.upperBound, token.upperBound))
    }
}
