import PatchbayCore

extension SessionEvent {
    /// The event as its line of the session file, numbered `seq`, without the line break.
    /// Keys come in a fixed order (`seq`, `kind`, then the kind's fields as documented on each
    /// case), without spaces, and values are written as `Value.jsonText` writes them, so the
    /// same event always gives the same line.
    public func line(seq: Int) -> String {
        var bytes: [UInt8] = []
        encode(seq: seq, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the event's line (without the line break) to `out`.
    func encode<Output: SessionLineOutput & ~Copyable>(seq: Int, into out: inout Output) {
        out.appendRaw(#"{"seq":"#)
        out.appendInteger(seq)
        switch self {
        case .command(let text):
            out.appendRaw(#","kind":"command","text":"#)
            out.appendQuoted(text)
        case .setup(let text):
            out.appendRaw(#","kind":"setup","text":"#)
            out.appendQuoted(text)
        case .store(let name, let state):
            out.appendRaw(#","kind":"store","store":"#)
            out.appendQuoted(name)
            out.appendRaw(#","state":"#)
            out.appendJSON(state)
        case .action(let action):
            action.encode(into: &out)
        case .checkpoint(let store, let index, let state):
            out.appendRaw(#","kind":"checkpoint","store":"#)
            out.appendQuoted(store)
            out.appendRaw(#","index":"#)
            out.appendInteger(index)
            out.appendRaw(#","state":"#)
            out.appendJSON(state)
        case .publish(let port, let value):
            out.appendRaw(#","kind":"publish","port":"#)
            out.appendQuoted(port)
            out.appendRaw(#","value":"#)
            out.appendJSON(value)
        case .route(let route):
            out.appendRaw(#","kind":"route","url":"#)
            out.appendQuoted(route.url)
            out.appendRaw(#","pattern":"#)
            out.appendQuoted(route.pattern)
            out.appendRaw(#","params":"#)
            out.appendJSON(route.params)
            if let view = route.view {
                out.appendRaw(#","view":"#)
                out.appendQuoted(view)
            }
            if let option = route.option {
                out.appendRaw(#","option":"#)
                out.appendQuoted(option)
            }
        case .error(let command, let message):
            out.appendRaw(#","kind":"error","text":"#)
            out.appendQuoted(command)
            out.appendRaw(#","message":"#)
            out.appendQuoted(message)
        case .jump(let store, let index):
            out.appendRaw(#","kind":"jump","store":"#)
            out.appendQuoted(store)
            out.appendRaw(#","index":"#)
            out.appendInteger(index)
        case .skip(let store, let index, let skipped):
            out.appendRaw(#","kind":"skip","store":"#)
            out.appendQuoted(store)
            out.appendRaw(#","index":"#)
            out.appendInteger(index)
            out.appendRaw(skipped ? #","skipped":true"# : #","skipped":false"#)
        case .checkout(let store, let branch):
            out.appendRaw(#","kind":"checkout","store":"#)
            out.appendQuoted(store)
            out.appendRaw(#","branch":"#)
            out.appendQuoted(branch)
        case .sweep(let store):
            out.appendRaw(#","kind":"sweep","store":"#)
            out.appendQuoted(store)
        case .reset(let store, let state):
            out.appendRaw(#","kind":"reset","store":"#)
            out.appendQuoted(store)
            out.appendRaw(#","state":"#)
            out.appendJSON(state)
        }
        out.appendRaw("}")
    }
}

extension SessionAction {
    /// Appends the action line's fields after `seq`.
    func encode<Output: SessionLineOutput & ~Copyable>(into out: inout Output) {
        Self.encode(store: store, index: index, action: action, hash: hash, failure: failure, cause: cause,
                    delayedReducer: delayedReducer, into: &out) { out in
            for (position, operation) in patch.enumerated() {
                if position > 0 { out.appendRaw(",") }
                JSONPatch.Operation.encode(operation.op, path: operation.path.components, value: operation.value, into: &out)
            }
        }
    }

    /// Appends the fields of the action line of `step`, whose state after has digest `hash`,
    /// without making its `SessionAction` first: what a recording writes for each action.
    static func encode<Output: SessionLineOutput & ~Copyable>(_ step: StoreStep, hash: StateDigest, into out: inout Output) {
        encode(store: step.store, index: step.index, action: step.action, hash: hash, failure: step.failure, cause: step.cause,
               delayedReducer: step.reducer, into: &out) { out in
            for (position, change) in step.changes.enumerated() {
                if position > 0 { out.appendRaw(",") }
                JSONPatch.Operation.encode(change.operation, path: change.path, value: change.new, into: &out)
            }
        }
    }

    private static func encode<Output: SessionLineOutput & ~Copyable>(store: String, index: Int, action: Value, hash: StateDigest?, failure: String?,
                                                          cause: Int?, delayedReducer: String?, into out: inout Output,
                                                          patch: (inout Output) -> Void) {
        out.appendRaw(#","kind":"action","store":"#)
        out.appendQuoted(store)
        out.appendRaw(#","index":"#)
        out.appendInteger(index)
        out.appendRaw(#","action":"#)
        out.appendJSON(action)
        out.appendRaw(#","patch":["#)
        patch(&out)
        out.appendRaw("]")
        if let hash {
            out.appendRaw(#","hash":""#)
            hash.appendText(to: &out)
            out.appendRaw(#"""#)
        }
        if let failure {
            out.appendRaw(#","failed":"#)
            out.appendQuoted(failure)
        }
        if let cause {
            out.appendRaw(#","cause":"#)
            out.appendInteger(cause)
        }
        if let delayedReducer {
            out.appendRaw(#","reducer":"#)
            out.appendQuoted(delayedReducer)
        }
    }
}

extension JSONPatch.Operation {
    /// Appends `{"op":...,"path":...,"value":...}`.
    static func encode<Output: SessionLineOutput & ~Copyable>(_ op: ValueChange.Operation, path: [ValueChange.PathComponent], value: Value?,
                                                  into out: inout Output) {
        switch op {
        case .add: out.appendRaw(#"{"op":"add","path":""#)
        case .remove: out.appendRaw(#"{"op":"remove","path":""#)
        case .replace: out.appendRaw(#"{"op":"replace","path":""#)
        }
        JSONPointer.appendEscaped(path, to: &out)
        out.appendRaw(#"""#)
        if op != .remove, let value {
            out.appendRaw(#","value":"#)
            out.appendJSON(value)
        }
        out.appendRaw("}")
    }
}
