import PatchbayCore
import PatchbayGraph

extension Shell {
    func run(_ command: StoreCommand, text: String) throws(ShellError) -> CommandResult {
        let whole = 0..<text.utf8.count
        switch command {
        case .store(let name, let expression):
            let value = try evaluate(expression, in: text)
            try call([name], [], whole) { () throws(GraphError) in try graph.createStore(name.text, state: value) }
            return CommandResult(lines: ["\(name.text) = \(value)"], json: ["store": .string(name.text), "state": value])
        case .addReducer(let store, let type, let path, let condition, let delay, let body):
            let id = try call([store], [], store.range) { () throws(GraphError) in
                try graph.addReducer(to: store.text, on: type.text, at: path, when: condition, after: delay, body: body)
            }
            let summary = try call([store], [], store.range) { () throws(GraphError) in
                try graph.reducerSummaries(of: store.text).first { $0.id == id }!
            }
            return CommandResult(lines: ["\(id): \(Self.describe(summary))"], json: Self.json(summary))
        case .listReducers(let store):
            let summaries = try call(store.map { [$0] } ?? [], [], whole) { () throws(GraphError) in
                try graph.reducerSummaries(of: store?.text)
            }
            let lines = summaries.isEmpty ? ["no reducers yet"] : summaries.map { "\($0.id): \(Self.describe($0))" }
            return CommandResult(lines: lines, json: .array(summaries.map(Self.json)))
        case .removeReducer(let id):
            try call([id], [], id.range) { () throws(GraphError) in try graph.removeReducer(id.text) }
            return CommandResult(lines: ["removed \(id.text)"], json: ["removed": .string(id.text)])
        case .dispatch(let store, let type, let payload):
            var action: Value = ["type": .string(type.text)]
            if let payload {
                let value = try evaluate(payload, in: text)
                guard case .object(let members) = value else {
                    throw ShellError(.graph(.invalidAction("the action's fields must be an object, such as {by: 2}, not \(value.typeName)")),
                                     at: payload.range)
                }
                for (key, member) in members where key != "type" { action = Self.adding(key, member, to: action) }
            }
            let step: StoreStep?
            do throws(GraphError) { step = try graph.dispatch(store?.text, action) } catch {
                // A hosted store's action that does not decode: the caret is under the type or the fields.
                let place: Range<Int>? = switch error {
                case .actionDecoding(.unknownType): type.range
                case .actionDecoding: payload?.range ?? type.range
                default: Self.range(of: error, names: store.map { [$0] } ?? [], targets: [])
                }
                throw ShellError(.graph(error), at: place ?? store?.range ?? type.range)
            }
            guard let step else {
                if graph.engine.isInTransaction {
                    return CommandResult(lines: ["\(type.text) waits for the transaction to commit"], json: ["queued": true])
                }
                return CommandResult(lines: ["\(type.text) was dropped by a middleware: nothing changed"], json: ["dropped": true])
            }
            return CommandResult(lines: [Self.describe(step)], json: Self.json(step))
        case .state(let store, let path, let pathStart):
            let node = try call(store.map { [$0] } ?? [], [], whole) { () throws(GraphError) in
                try graph.storeState(store?.text)
            }
            guard let path else { return .value(node) }
            do {
                return .value(try path.evaluate(Bindings(state: node), in: graph))
            } catch {
                // The path is read as `state.PATH` written over the command; the caret stays
                // under what the user wrote, not under the `state` put in front of it.
                let lower = Swift.max(error.range.lowerBound, pathStart)
                let upper = Swift.min(Swift.max(error.range.upperBound, lower + 1), Swift.max(text.utf8.count, lower + 1))
                throw ShellError(.expression(error, source: path.source), at: lower..<upper)
            }
        }
    }

    private static func adding(_ key: String, _ value: Value, to action: Value) -> Value {
        guard case .object(var members) = action else { return action }
        members[key] = value
        return .object(members)
    }

    /// `#3 AddTodo  items[2]: + {title: "milk"}`
    static func describe(_ step: StoreStep) -> String {
        let type: String = if case .string(let t)? = step.action["type"] { t } else { "?" }
        var head = "#\(step.index) \(type)"
        if let from = step.delayedFrom { head += " (after, from #\(from))" }
        if let failure = step.failure { return head + "  failed: \(failure)" }
        return head + "  " + describe(step.changes)
    }

    /// `user.name: "unknown" → "Max"; items[2]: + {...}`
    static func describe(_ changes: [ValueChange]) -> String {
        guard !changes.isEmpty else { return "(no changes)" }
        return changes.map(\.summary).joined(separator: "; ")
    }

    static func json(_ changes: [ValueChange]) -> Value {
        .array(changes.map { change in
            ["path": .string(change.pathText), "op": .string(change.operation.rawValue),
             "old": change.old ?? .null, "new": change.new ?? .null]
        })
    }

    static func json(_ step: StoreStep) -> Value {
        ["store": .string(step.store), "index": .int(step.index), "action": step.action, "changes": json(step.changes)]
    }

    static func describe(_ reducer: ReducerSummary) -> String {
        var text = "\(reducer.store) on \(reducer.type)"
        if let path = reducer.path { text += " at \(path)" }
        if let condition = reducer.condition { text += " when \(condition)" }
        if let delay = reducer.delay { text += " after \(delay)" }
        return text + " : \(reducer.body)"
    }

    static func json(_ reducer: ReducerSummary) -> Value {
        ["id": .string(reducer.id), "store": .string(reducer.store), "type": .string(reducer.type),
         "at": reducer.path.map(Value.string) ?? .null, "when": reducer.condition.map(Value.string) ?? .null,
         "after": reducer.delay.map(Value.int) ?? .null, "body": .string(reducer.body)]
    }
}
