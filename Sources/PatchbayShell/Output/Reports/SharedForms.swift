@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph

// How the data that several reports (and the renderer's event lines) show is shown: each form
// written once, for people and for JSON.

/// `1 action`, `3 actions`: a count and its noun, plural unless the count is one.
func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

extension StoreStep<ValueChange> {
    /// `#3 AddTodo  items[2]: + {title: "milk"}`, the changes coloured as `style` says.
    func line(in style: OutputStyle) -> String {
        var head = "#\(index) \(type)"
        if delayedReducer != nil, let cause {
            head += " (after, from #\(cause))"
        } else if let cause {
            head += " (from #\(cause))"
        }
        if let failure { return head + "  failed: \(failure)" }
        if unrecorded { return head + "  (change not recorded)" }
        return head + "  " + style.changes(changes, store: store, step: index)
    }

    /// `{store, index, action, changes}`, and `cause` for a follow-up (the action that
    /// dispatched it).
    var json: Value {
        var json: Value = ["store": .string(store), "index": .int(index), "action": action, "changes": changes.json]
        if let cause { json = json.adding("cause", .int(cause)) }
        return unrecorded ? json.adding("unrecorded", .bool(true)) : json
    }
}

extension [ValueChange] {
    /// `[{path, op, old, new}]`.
    var json: Value {
        .array(map { change in
            ["path": .string(change.pathText), "op": .string(change.operation.rawValue), "old": change.old ?? .null, "new": change.new ?? .null]
        })
    }
}

extension Value {
    /// The object with `key` set to `value` (added last when new); a value that is not an
    /// object as it is.
    func adding(_ key: String, _ value: Value) -> Value {
        guard case .object(var members) = self else { return self }
        members[key] = value
        return .object(members)
    }
}

extension ReducerSummary {
    /// `app on Add when action.by > 0 : state.n += action.by`, as `reducer list` prints it.
    var line: String {
        var text = "\(store) on \(type)"
        if let path { text += " at \(path)" }
        if let condition { text += " when \(condition)" }
        if let delay { text += " after \(delay)" }
        return text + " : \(body)"
    }

    var json: Value {
        ["id": .string(id), "store": .string(store), "type": .string(type), "at": path.map(Value.string) ?? .null,
         "when": condition.map(Value.string) ?? .null, "after": delay.map(Value.int) ?? .null, "body": .string(body)]
    }
}

extension MiddlewareSummary {
    /// `app on * : ...`, as `middleware list` prints it.
    var line: String { "\(store) on \(type) : \(body)" }

    var json: Value { ["id": .string(id), "store": .string(store), "type": .string(type), "body": .string(body)] }
}

extension Navigation {
    /// A navigation as `route URL` prints it: `/message/:username  {username: "Ada"}  → Message (modal)`.
    var line: String {
        let target = view.map { "→ \($0) (\(option.rawValue))" } ?? "(handler: no view)"
        return "\(pattern)  \(params)  \(target)"
    }
}

extension FeatureSummary {
    var json: Value { ["feature": .string(name), "open": .bool(isOpen), "items": .array(items.map(Value.string))] }
}

extension PresenterSummary {
    var json: Value {
        ["id": .string(id), "view": .string(view), "live": .bool(isLive), "when": condition.map(Value.string) ?? .null,
         "content": .string(expression)]
    }
}

extension ActionSite? {
    /// Where an action came from, as `history --trace` and `show STORE #N` tell it:
    /// `site: TodoApp/TodoList.swift:42`, `site: dispatch app Add → app.dispatch` (the chain
    /// `why` shows), or `site: not recorded` for a step read from a file that does not say.
    var traceLine: String {
        switch self {
        case .source(let site)?: "site: \(site)"
        case .shell(let chain)? where chain.isEmpty: "site: the shell"
        case .shell(let chain)?: "site: " + chain.joined(separator: " → ")
        case nil: "site: not recorded"
        }
    }

    /// `{file, line}` for a line of the app, `{shell: [...]}` for the shell's chain, or `null`.
    var json: Value {
        switch self {
        case .source(let site)?: ["file": .string(site.file), "line": .int(site.line)]
        case .shell(let chain)?: ["shell": .array(chain.map(Value.string))]
        case nil: .null
        }
    }
}
