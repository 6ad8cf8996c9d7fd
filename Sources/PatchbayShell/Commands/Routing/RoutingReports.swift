@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph

/// `route add PATTERN [view=VIEW]`: the registration, which registration of the same pattern
/// takes its URLs first, and the conflicts it has (warnings).
struct RouteAdded: CommandReport {
    var pattern: String
    var view: String?
    var option: RoutingOption
    var priority: Int
    var addition: RouteAddition

    func lines(in style: OutputStyle) -> [String] {
        var lines = ["route \(pattern)" + (view.map { " " + target($0, option) } ?? " (a handler: it only sends on router.route)")]
        if let other = addition.overrides {
            let described = "\(other.selector) (priority \(other.priority))"
            lines.append(addition.wins ? "it takes \(pattern) before \(described)" : "\(described) takes \(pattern) before it")
        }
        return lines + addition.conflicts.map { "warning: \($0)" }
    }

    var json: Value {
        ["pattern": .string(pattern), "view": view.map(Value.string) ?? .null, "option": .string(option.rawValue),
         "priority": .int(priority), "overrides": addition.overrides.map { .string($0.selector) } ?? .null,
         "wins": .bool(addition.wins), "warnings": .array(addition.conflicts.map { .string($0.description) })]
    }
}

/// `→ Chat (push)`: the view a route presents, and how.
private func target(_ view: String, _ option: RoutingOption) -> String {
    "→ \(view) (\(option.rawValue))"
}

/// `route URL` (`router open`): where the URL led; in JSON with the stack after it.
struct Navigated: CommandReport {
    var navigation: Navigation

    func lines(in style: OutputStyle) -> [String] { [navigation.line] }

    var json: Value {
        var json = navigation.value
        if case .object(var members) = json {
            members["stack"] = navigation.stack.value
            json = .object(members)
        }
        return json
    }
}

/// `route explain URL`: each route, whether it matched the URL, and why not.
struct RouteExplained: CommandReport {
    var explanation: RouteExplanation

    func lines(in style: OutputStyle) -> [String] {
        guard !explanation.entries.isEmpty else { return ["no routes yet (add one with route add PATTERN)"] }
        return explanation.entries.map { entry in
            (entry.matched ? "✓ " : "✗ ") + entry.pattern + (entry.expansion != entry.pattern ? " (as \(entry.expansion))" : "")
                + "  \(entry.outcome)"
        }
    }

    var json: Value {
        .array(explanation.entries.map { entry in
            ["pattern": .string(entry.pattern), "matched": .bool(entry.matched),
             "reason": entry.matched ? .null : .string(entry.outcome.description)]
        })
    }
}

/// `route list`: the registrations.
struct RouteListing: CommandReport {
    var routes: [RouteSummary]

    func lines(in style: OutputStyle) -> [String] {
        guard !routes.isEmpty else { return ["no routes yet"] }
        return routes.map { route in
            var line = route.pattern
            if let view = route.view { line += "  view=\(view) option=\(route.option.rawValue)" }
            if route.priority != 0 { line += "  priority=\(route.priority)" }
            if let condition = route.condition { line += "  when \(condition)" }
            if let overrider = route.overriddenBy { line += "  (overridden by \(overrider))" }
            return line
        }
    }

    var json: Value {
        .array(routes.map { route in
            ["pattern": .string(route.pattern), "view": route.view.map(Value.string) ?? .null,
             "option": .string(route.option.rawValue), "priority": .int(route.priority),
             "when": route.condition.map(Value.string) ?? .null, "overriddenBy": route.overriddenBy.map(Value.string) ?? .null]
        })
    }
}

/// `route rm PATTERN [view=VIEW]`: the registration removed.
struct RouteRemoved: CommandReport {
    var pattern: String
    var removed: RouteSummary

    func lines(in style: OutputStyle) -> [String] {
        ["removed route \(pattern)" + (removed.view.map { " " + target($0, removed.option) } ?? " (a handler)")]
    }

    var json: Value {
        ["removed": .string(pattern), "view": removed.view.map(Value.string) ?? .null, "priority": .int(removed.priority)]
    }
}

/// `route check`: the conflicts between routes.
struct RouteConflicts: CommandReport {
    var conflicts: [RouteConflict]

    func lines(in style: OutputStyle) -> [String] { conflicts.isEmpty ? ["no conflicts"] : conflicts.map(\.description) }

    var json: Value {
        .array(conflicts.map { conflict in
            ["route": .string(conflict.route.pattern), "witness": conflict.witness.map(Value.string) ?? .null,
             "unreachable": .bool(conflict.isUnreachable), "message": .string(conflict.description)]
        })
    }
}

/// `presenter VIEW ...`: the presenter made.
struct PresenterAdded: CommandReport {
    var id: String
    var view: String
    var isLive: Bool
    var condition: Expression?

    func lines(in style: OutputStyle) -> [String] { ["presenter \(id) for \(view)" + (isLive ? " (live)" : "")] }

    var json: Value {
        ["id": .string(id), "view": .string(view), "live": .bool(isLive), "when": condition.map { .string($0.description) } ?? .null]
    }
}

/// `presenter list [VIEW]`: the presenters (of VIEW).
struct PresenterListing: CommandReport {
    var view: String?
    var presenters: [PresenterSummary]

    func lines(in style: OutputStyle) -> [String] {
        guard !presenters.isEmpty else { return [view.map { "no presenters for \($0)" } ?? "no presenters yet"] }
        return presenters.map { "\($0.id)  \($0.definition)" }
    }

    var json: Value { .array(presenters.map(\.json)) }
}

/// `presenter rm ID`: the presenter removed.
struct PresenterRemoved: CommandReport {
    var removed: PresenterSummary

    func lines(in style: OutputStyle) -> [String] { ["removed presenter \(removed.id) (\(removed.definition))"] }
    var json: Value { removed.json }
}

/// `feature NAME`: the feature begun, or reopened.
struct FeatureBegun: CommandReport {
    var name: String
    var isNew: Bool

    func lines(in style: OutputStyle) -> [String] { ["feature \(name) " + (isNew ? "begun" : "reopened: what follows adds to it")] }
    var json: Value { ["feature": .string(name), "new": .bool(isNew)] }
}

/// `feature end`: the feature closed, with what it defines.
struct FeatureEnded: CommandReport {
    var feature: FeatureSummary

    func lines(in style: OutputStyle) -> [String] { ["feature \(feature.name): " + featureItemsText(feature.items)] }
    var json: Value { feature.json }
}

/// `feature list`: the features, with how many definitions each has.
struct FeatureListing: CommandReport {
    var features: [FeatureSummary]

    func lines(in style: OutputStyle) -> [String] {
        guard !features.isEmpty else { return ["no features yet"] }
        return features.map { feature in
            "\(feature.name)\(feature.isOpen ? " (open)" : "")  \(counted(feature.items.count, "definition"))"
        }
    }

    var json: Value { .array(features.map(\.json)) }
}

/// `feature show NAME`: a feature and what it defines, a line each.
struct FeatureShown: CommandReport {
    var feature: FeatureSummary

    func lines(in style: OutputStyle) -> [String] {
        ["feature \(feature.name)\(feature.isOpen ? " (open)" : "")"]
            + (feature.items.isEmpty ? ["  defines nothing"] : feature.items.map { "  " + $0 })
    }

    var json: Value { feature.json }
}

/// `feature rm NAME`: the feature removed, with the definitions that went with it.
struct FeatureRemoved: CommandReport {
    var name: String
    var removed: [String]

    func lines(in style: OutputStyle) -> [String] { ["removed feature \(name): " + featureItemsText(removed)] }
    var json: Value { ["feature": .string(name), "removed": .array(removed.map(Value.string))] }
}

/// `route /chat view=Chat, patch card (view)`, or `nothing`.
private func featureItemsText(_ items: [String]) -> String {
    items.isEmpty ? "nothing" : items.joined(separator: ", ")
}

/// `router stack`, `router back`, `router dismiss`: the navigation stack, a view a line (after
/// the line that says what `back` or `dismiss` closed); the stack's value in JSON.
struct StackShown: CommandReport {
    /// What the command closed before the stack is shown.
    enum Closing {
        /// `router back`: the view it closed.
        case back(NavigationStack.Entry)
        /// `router dismiss`: the views it closed.
        case dismissed([NavigationStack.Entry])
    }

    var stack: NavigationStack
    var closing: Closing?

    func lines(in style: OutputStyle) -> [String] {
        var lines: [String] = []
        switch closing {
        case .back(let entry): lines.append("closed \(entry.view)")
        case .dismissed(let entries): lines.append("dismissed \(entries.map(\.view).joined(separator: ", "))")
        case nil: break
        }
        guard !stack.entries.isEmpty else { return lines + ["the stack is empty"] }
        return lines + stack.entries.enumerated().map { index, entry in
            var line = "\(index + 1)  \(entry.view)\(entry.isModal ? " (modal)" : "")  \(entry.url)"
            if case .object(let members) = entry.params, !members.isEmpty { line += "  params \(entry.params)" }
            if entry.content != .null { line += "  content \(entry.content)" }
            return line
        }
    }

    var json: Value { stack.value }
}
