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
            let addition = graph.addRoute(pattern, view: view?.text, option: option ?? .push, priority: priority, when: condition)
            let warnings = addition.conflicts
            var lines = ["route \(pattern.text)"
                + (view.map { " → \($0.text) (\((option ?? .push).rawValue))" } ?? " (a handler: it only sends on router.route)")]
            if let other = addition.overrides {
                let described = "\(other.selector) (priority \(other.priority))"
                lines.append(addition.wins ? "it takes \(pattern.text) before \(described)"
                             : "\(described) takes \(pattern.text) before it")
            }
            let result = CommandResult(
                lines: lines + warnings.map { "warning: \($0)" },
                json: ["pattern": .string(pattern.text), "view": view.map { .string($0.text) } ?? .null,
                       "option": .string((option ?? .push).rawValue), "priority": .int(priority),
                       "overrides": addition.overrides.map { .string($0.selector) } ?? .null, "wins": .bool(addition.wins),
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
            return CommandResult(lines: [Self.describe(navigation)], json: json)
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
                if let overrider = route.overriddenBy { line += "  (overridden by \(overrider))" }
                return line
            }
            let json = Value.array(routes.map { route in
                ["pattern": .string(route.pattern), "view": route.view.map(Value.string) ?? .null,
                 "option": .string(route.option.rawValue), "priority": .int(route.priority),
                 "when": route.condition.map(Value.string) ?? .null,
                 "overriddenBy": route.overriddenBy.map(Value.string) ?? .null]
            })
            return CommandResult(lines: lines, json: json)
        case .remove(let pattern, let selector):
            let whole = pattern.range.lowerBound..<(selector?.range.upperBound ?? pattern.range.upperBound)
            let removed = try call(selector.map { [$0] } ?? [], [], whole) { () throws(GraphError) in
                try graph.removeRoute(pattern.text, selector: selector?.text)
            }
            let described = removed.view.map { " → \($0) (\(removed.option.rawValue))" } ?? " (a handler)"
            return CommandResult(lines: ["removed route \(pattern.text)\(described)"],
                                 json: ["removed": .string(pattern.text), "view": removed.view.map(Value.string) ?? .null,
                                        "priority": .int(removed.priority)])
        case .check:
            let conflicts = graph.routeConflicts()
            return CommandResult(lines: conflicts.isEmpty ? ["no conflicts"] : conflicts.map(\.description),
                                 json: .array(conflicts.map { conflict in
                                     ["route": .string(conflict.route.pattern), "witness": conflict.witness.map(Value.string) ?? .null,
                                      "unreachable": .bool(conflict.isUnreachable), "message": .string(conflict.description)]
                                 }))
        case .presenter(let view, let condition, let live, let expression):
            let id = graph.addPresenter(for: view.text, when: condition, live: live, expression)
            return CommandResult(lines: ["presenter \(id) for \(view.text)" + (live ? " (live)" : "")],
                                 json: ["id": .string(id), "view": .string(view.text), "live": .bool(live),
                                        "when": condition.map { .string($0.description) } ?? .null])
        case .listPresenters(let view):
            let presenters = graph.presenterSummaries(for: view?.text)
            let lines = presenters.isEmpty ? [view.map { "no presenters for \($0.text)" } ?? "no presenters yet"]
                : presenters.map { "\($0.id)  \($0.definition)" }
            return CommandResult(lines: lines, json: .array(presenters.map(Self.json)))
        case .removePresenter(let id):
            let removed = try call([], [], id.range) { () throws(GraphError) in try graph.removePresenter(id.text) }
            return CommandResult(lines: ["removed presenter \(removed.id) (\(removed.definition))"], json: Self.json(removed))
        case .beginFeature(let name):
            let isNew = try call([name], [], name.range) { () throws(GraphError) in try graph.beginFeature(name.text) }
            return CommandResult(lines: ["feature \(name.text) " + (isNew ? "begun" : "reopened: what follows adds to it")],
                                 json: ["feature": .string(name.text), "new": .bool(isNew)])
        case .endFeature:
            let feature = try call([], [], whole) { () throws(GraphError) in try graph.endFeature() }
            return CommandResult(lines: ["feature \(feature.name): " + Self.itemsText(feature.items)], json: Self.json(feature))
        case .listFeatures:
            let features = graph.featureSummaries
            let lines = features.isEmpty ? ["no features yet"] : features.map { feature in
                "\(feature.name)\(feature.isOpen ? " (open)" : "")  \(feature.items.count) definition\(feature.items.count == 1 ? "" : "s")"
            }
            return CommandResult(lines: lines, json: .array(features.map(Self.json)))
        case .showFeature(let name):
            let feature = try call([name], [], name.range) { () throws(GraphError) in try graph.featureSummary(name.text) }
            let lines = ["feature \(feature.name)\(feature.isOpen ? " (open)" : "")"]
                + (feature.items.isEmpty ? ["  defines nothing"] : feature.items.map { "  " + $0 })
            return CommandResult(lines: lines, json: Self.json(feature))
        case .removeFeature(let name):
            let removed = try call([name], [], name.range) { () throws(GraphError) in try graph.removeFeature(name.text) }
            return CommandResult(lines: ["removed feature \(name.text): " + Self.itemsText(removed)],
                                 json: ["feature": .string(name.text), "removed": .array(removed.map(Value.string))])
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

    /// A navigation as `route URL` prints it: `/message/:username  {username: "Ada"}  → Message (modal)`.
    static func describe(_ navigation: Navigation) -> String {
        let target = navigation.view.map { "→ \($0) (\(navigation.option.rawValue))" } ?? "(handler: no view)"
        return "\(navigation.pattern)  \(navigation.params)  \(target)"
    }

    static func json(_ feature: FeatureSummary) -> Value {
        ["feature": .string(feature.name), "open": .bool(feature.isOpen), "items": .array(feature.items.map(Value.string))]
    }

    /// `route /chat view=Chat, patch card (view)`, or `nothing`.
    private static func itemsText(_ items: [String]) -> String {
        items.isEmpty ? "nothing" : items.joined(separator: ", ")
    }

    static func json(_ presenter: PresenterSummary) -> Value {
        ["id": .string(presenter.id), "view": .string(presenter.view), "live": .bool(presenter.isLive),
         "when": presenter.condition.map(Value.string) ?? .null, "content": .string(presenter.expression)]
    }

    /// A range within a token, moved to where the token stands in the command.
    static func shift(_ range: Range<Int>, into token: Range<Int>) -> Range<Int> {
        let lower = Swift.min(token.lowerBound + range.lowerBound, token.upperBound)
        return lower..<Swift.max(lower, Swift.min(token.lowerBound + range.upperBound, token.upperBound))
    }
}
