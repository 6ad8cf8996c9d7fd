@_spi(Shell) import PatchbayCore

extension Evaluator {
    /// Runs statements against `bindings.state`, appending what they emit.
    mutating func execute(_ statements: [StatementNode], emissions: inout [Emission]) throws(ExpressionError) {
        for statement in statements {
            // `drop` (a middleware's) ends the statements, nested ones too.
            if isDropped { return }
            switch statement {
            case .assign(let path, let op, let valueNode, let range) where path.isAction:
                let value = try evaluate(valueNode)
                if op != .assign { try charge(sizeOf: value, at: range) }  // what it adds to
                let keys = try resolve(path)
                try changeAction(at: range) { (evaluator, action) throws(OperationError) in try evaluator.assign(value, op, at: keys, in: &action) }
            case .delete(let path, let range) where path.isAction:
                let keys = try resolve(path)
                guard !keys.isEmpty else {
                    throw ExpressionError(.failed("cannot delete the action itself; drop it instead"), at: range)
                }
                try changeAction(at: range) { (_, action) throws(OperationError) in try Self.remove(at: keys[...], in: &action) }
            case .drop:
                isDropped = true
                return
            case .dispatch(let type, let payloadNode, _):
                var action: Value.Members = ["type": .string(type)]
                if let payloadNode {
                    let payload = try evaluate(payloadNode)
                    guard case .object(let members) = payload else {
                        throw ExpressionError(.failed("dispatch merges an object into the action, not a \(payload.typeName)"), at: payloadNode.range)
                    }
                    for (key, value) in members where key != "type" { action[key] = value }
                }
                emissions.append(Emission(port: "dispatch", value: .object(action)))
            case .assign(let path, .assign, .call(.append, let arguments, let callRange), let range)
                where try appendInPlace(path, arguments, callRange, range):
                continue
            case .assign(let path, let op, let valueNode, let range):
                let value = try evaluate(valueNode)
                // `state.a += state.a` builds a value as `+` does, though it reads what it adds.
                if op != .assign { try charge(sizeOf: value, at: range) }
                let keys = try resolve(path)
                // The state leaves the bindings while it changes, so that it is uniquely referenced.
                var state = bindings.state.take() ?? .null
                defer { bindings.state = state }
                do throws(OperationError) {
                    // The common case, `state.key op= value` on an object, in one lookup.
                    if keys.count == 1, case .key(let key) = keys[0],
                       try Self.assignMember(key, op, value, in: &state, path: keys, log: &changeLog) {
                        continue
                    }
                    try assign(value, op, at: keys, in: &state)
                } catch {
                    throw ExpressionError(error.reason, at: range)
                }
            case .delete(let path, let range):
                let keys = try resolve(path)
                guard !keys.isEmpty else {
                    throw ExpressionError(.failed("cannot delete state itself; assign it instead (state = {})"), at: range)
                }
                var state = bindings.state.take() ?? .null
                defer { bindings.state = state }
                let components = keys
                let old = state.value(at: components)
                let position = old == nil ? nil : state.keyPosition(at: components)
                do { try Self.remove(at: keys[...], in: &state) } catch { throw ExpressionError(error.reason, at: range) }
                if let old {
                    if let position { removedKeyPositions[changeLog.count] = position }
                    changeLog.append(ValueChange(path: components, operation: .remove, old: old, new: nil))
                }
            case .conditional(let test, let body, let otherwise, _):
                if try condition(test, "the condition of 'if'") {
                    try execute(body, emissions: &emissions)
                } else {
                    try execute(otherwise, emissions: &emissions)
                }
            case .emit(let port, let valueNode, _):
                emissions.append(Emission(port: port, value: try evaluate(valueNode)))
            }
        }
    }

    /// Changes the action (a middleware's statement) with `body`: the changes it makes are the
    /// action's, not the state's, and go in no log.
    private mutating func changeAction(at range: Range<Int>, _ body: (inout Evaluator, inout Value) throws(OperationError) -> Void)
        throws(ExpressionError)
    {
        var action = bindings.action.take() ?? .null
        var stateLog: [ValueChange] = []
        swap(&changeLog, &stateLog)
        defer {
            swap(&changeLog, &stateLog)
            bindings.action = action
        }
        do throws(OperationError) { try body(&self, &action) } catch { throw ExpressionError(error.reason, at: range) }
    }

    /// `state.PATH = append(state.PATH, EXPR)` (the same static path on both sides) on an
    /// array: the element is appended in place, one change at the end of the array, so that an
    /// append costs the same however long the array is (`append` would copy the array, and the
    /// change would compare the whole of it). Returns `false`, having done nothing, for any
    /// other statement or when the path holds no array: the general path runs it then.
    private mutating func appendInPlace(_ path: StatePath, _ arguments: [Argument], _ callRange: Range<Int>, _ range: Range<Int>)
        throws(ExpressionError) -> Bool
    {
        guard arguments.count == 2, let keys = path.staticKeys, !keys.isEmpty, case .value(let target) = arguments[0],
              case .value(let elementNode) = arguments[1], Self.staticStateKeys(of: target) == keys else { return false }
        // Read in a scope of its own: the array is uniquely referenced again when it changes.
        let count: Int? = {
            guard case .array(let elements)? = bindings.state?.value(at: keys) else { return nil }
            return elements.count
        }()
        guard let count, count < Limits.maxElements else { return false }
        let element = try evaluate(elementNode)
        try charge(steps: 1, bytes: 0, at: callRange)
        try charge(sizeOf: element, plus: EvaluationBudget.elementBytes, at: callRange)
        var state = bindings.state.take() ?? .null
        defer { bindings.state = state }
        let change = ValueChange(path: keys + [.index(count)], operation: .add, old: nil, new: element)
        do throws(OperationError) {
            try Self.checkDepth(of: element, below: keys.count + 1)
        } catch {
            throw ExpressionError(error.reason, at: range)
        }
        do throws(PathError) { try state.apply(change) } catch {
            throw ExpressionError(.failed(error.description), at: range)
        }
        changeLog.append(change)
        return true
    }

    /// The keys of `node` when it reads a static path of the state (`state.items.done`).
    private static func staticStateKeys(of node: ExpressionNode) -> [PathKey]? {
        switch node {
        case .variable(.state, _): return []
        case .member(let base, let key, optional: false, _): return staticStateKeys(of: base).map { $0 + [.key(key)] }
        default: return nil
        }
    }

    /// `state.key op= value` where the state is an object: the member is read and written in one
    /// lookup, and the change appended to `log`. Returns `false`, having done nothing, when the
    /// state is no object.
    private static func assignMember(
        _ key: String, _ op: AssignmentOperator, _ value: Value, in state: inout Value, path: [PathKey],
        log: inout [ValueChange]
    ) throws(OperationError) -> Bool {
        guard case .object(var members) = state else { return false }
        // Let `members` be uniquely referenced while it changes.
        state = .null
        defer { state = .object(members) }
        guard let index = members.index(forKey: key) else {
            guard op == .assign else { throw OperationError(.missingKey(key: key, available: members.keys.map(\.string))) }
            try checkDepth(of: value, below: 1)
            members[key] = value
            log.append(ValueChange(path: path, operation: .add, old: nil, new: value))
            return true
        }
        let old = members.values[index]
        let new = op == .assign ? value : try Operators.apply(op == .add ? .add : .subtract, old, value)
        try checkDepth(of: new, below: 1)
        members.values[index] = new
        // Consumed: the two values move into the change rather than being copied.
        log.append(ValueChange(path: path, operation: .replace, old: consume old, new: consume new))
        return true
    }

    /// Writes `value` at `keys` (a statement's general case), logging the change.
    private mutating func assign(_ value: Value, _ op: AssignmentOperator, at keys: [PathKey], in state: inout Value) throws(OperationError) {
        let anchor = Self.anchor(of: keys, in: state)
        var value = value
        if op != .assign {
            let current = try Self.read(state, at: keys[...])
            value = try Operators.apply(op == .add ? .add : .subtract, current, value)
        }
        try Self.checkDepth(of: value, below: keys.count)
        try Self.write(value, at: keys[...], in: &state)
        let new = state.value(at: anchor.path) ?? .null
        changeLog.append(ValueChange(path: anchor.path, operation: anchor.operation, old: anchor.old, new: new))
    }

    /// Refuses a value that would nest too deeply once written `depth` levels into the state:
    /// state outlives the statement, so `state.a = [state.a]` run again and again must not nest
    /// without end.
    private static func checkDepth(of value: Value, below depth: Int) throws(OperationError) {
        guard value.nestingDepth(upTo: Value.maxDepth) + depth <= Value.maxDepth else {
            throw OperationError(.tooLarge(what: "the nesting of the state", limit: Value.maxDepth))
        }
    }

    /// A path component with its index evaluated.
    typealias PathKey = ValueChange.PathComponent

    /// Where a write at `keys` shows up as one change: the first missing key is added (with what
    /// is written below it), a `null` on the way is replaced, otherwise the value is replaced.
    static func anchor(of keys: [PathKey], in state: Value) -> (path: [ValueChange.PathComponent], operation: ValueChange.Operation, old: Value?) {
        var current = state
        var path: [ValueChange.PathComponent] = []
        for key in keys {
            if case .null = current { return (path, .replace, .null) }
            guard let next = current.child(key) else { return (path + [key], .add, nil) }
            path.append(key)
            current = next
        }
        return (path, .replace, current)
    }

    private mutating func resolve(_ path: StatePath) throws(ExpressionError) -> [PathKey] {
        if let keys = path.staticKeys { return keys }
        var keys: [PathKey] = []
        for component in path.components {
            switch component {
            case .key(let key):
                keys.append(.key(key))
            case .index(let node):
                switch try evaluate(node) {
                case .int(let i): keys.append(.index(i))
                case .string(let s): keys.append(.key(s))
                case let other:
                    throw ExpressionError(.typeMismatch(operation: "[]", types: [other.typeName]), at: node.range)
                }
            }
        }
        return keys
    }

    private static func read(_ value: Value, at keys: ArraySlice<PathKey>) throws(OperationError) -> Value {
        var current = value
        for key in keys {
            switch key {
            case .key(let k):
                guard case .object(let members) = current else {
                    throw OperationError(.notIndexable(type: current.typeName, key: ".\(k)"))
                }
                guard let member = members[k] else { throw OperationError(.missingKey(key: k, available: members.keys.map(\.string))) }
                current = member
            case .index(let i):
                current = try subscriptValue(current, .int(i), optional: false)
            }
        }
        return current
    }

    /// Writes `value` at `keys`, creating missing object keys (and objects in place of `null`).
    private static func write(_ value: Value, at keys: ArraySlice<PathKey>, in target: inout Value) throws(OperationError) {
        guard let first = keys.first else {
            target = value
            return
        }
        switch (first, target) {
        case (.key(let key), .object(var members)):
            target = .null  // let `members` be uniquely referenced while it changes
            defer { target = .object(members) }
            if let index = members.index(forKey: key) {
                // Change the member where it is, so that the key keeps its position.
                var child = members.values[index]
                members.values[index] = .null
                defer { members.values[index] = child }
                try write(value, at: keys.dropFirst(), in: &child)
            } else {
                var child = Value.null
                try write(value, at: keys.dropFirst(), in: &child)
                members[key] = child
            }
        case (.key(let key), .null):
            var child = Value.null
            try write(value, at: keys.dropFirst(), in: &child)
            target = .object([ObjectKey(key): child])
        case (.index(let index), .array(var elements)):
            guard elements.indices.contains(index) else {
                throw OperationError(.failed(
                    "index \(index) out of range (count \(elements.count)); use append(...) to add an element"))
            }
            target = .null
            defer { target = .array(elements) }
            try write(value, at: keys.dropFirst(), in: &elements[index])
        case (.key(let key), _):
            throw OperationError(.notIndexable(type: target.typeName, key: ".\(key)"))
        case (.index(let index), _):
            throw OperationError(.notIndexable(type: target.typeName, key: "[\(index)]"))
        }
    }

    /// Removes the key or element at `keys`; a missing key is already removed.
    private static func remove(at keys: ArraySlice<PathKey>, in target: inout Value) throws(OperationError) {
        guard let first = keys.first else { return }
        let last = keys.count == 1
        switch (first, target) {
        case (.key(let key), .object(var members)):
            guard members[key] != nil else { return }
            target = .null
            defer { target = .object(members) }
            if last {
                members.removeValue(forKey: key)
            } else {
                try remove(at: keys.dropFirst(), in: &members[key]!)
            }
        case (.index(let index), .array(var elements)):
            guard elements.indices.contains(index) else {
                throw OperationError(.indexOutOfRange(index: index, count: elements.count))
            }
            target = .null
            defer { target = .array(elements) }
            if last {
                elements.remove(at: index)
            } else {
                try remove(at: keys.dropFirst(), in: &elements[index])
            }
        case (.key(let key), _):
            throw OperationError(.notIndexable(type: target.typeName, key: ".\(key)"))
        case (.index(let index), _):
            throw OperationError(.notIndexable(type: target.typeName, key: "[\(index)]"))
        }
    }
}
