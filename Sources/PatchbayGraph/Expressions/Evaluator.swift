@_spi(Shell) import PatchbayCore

/// Walks an expression tree and computes its value.
///
/// The tree's height is bounded by the parser, so recursion here cannot overflow the stack.
struct Evaluator {
    var bindings: Bindings
    let environment: any ExpressionEnvironment
    /// Lambda parameters, by slot.
    var locals: [Value]
    /// Every change statements make to the state, in order. A statement block lends the
    /// caller's list here while it runs, so that changes are appended where they end up.
    var changeLog: [ValueChange] = []
    /// Whether a middleware's `drop` ran: the action goes no further.
    var isDropped = false
    /// Where each removed key stood in its object, by the removal's index in `changeLog`, so that
    /// undoing the removal puts it back in its place.
    var removedKeyPositions = [Int: Int]()
    /// The work and memory spent, checked against the budget and for interruptions.
    var meter = EvaluationMeter()

    init(bindings: Bindings, environment: any ExpressionEnvironment, localSlots: Int) {
        self.bindings = bindings
        self.environment = environment
        self.locals = localSlots == 0 ? [] : Array(repeating: .null, count: localSlots)
    }

    /// An evaluator with empty bindings, which the caller fills in place (the state and the
    /// action of a store's reducers) rather than building a `Bindings` to copy in.
    init(environment: any ExpressionEnvironment) {
        self.bindings = Bindings()
        self.environment = environment
        self.locals = []
    }

    /// Makes room for `count` lambda parameter slots, for an evaluator that runs more than one
    /// parsed text (the reducers of one action). A slot is always written before it is read, so
    /// values left from an earlier text do no harm.
    mutating func reserveLocals(_ count: Int) {
        if locals.count < count { locals += Array(repeating: .null, count: count - locals.count) }
    }

    mutating func evaluate(_ node: ExpressionNode) throws(ExpressionError) -> Value {
        try charge(for: node)
        switch node {
        case .literal(let value, _):
            return value
        case .variable(let reference, let range):
            return try read(reference, range)
        case .binary(let op, let left, let right, let range):
            let a = try evaluate(left)
            let b = try evaluate(right)
            let result: Value
            do {
                result = try Operators.apply(op, a, b)
            } catch {
                throw ExpressionError(error.reason, at: range)
            }
            if op == .add { try charge(sizeOf: result, at: range) }
            return result
        case .member, .index:
            return try evaluateChain(node) ?? .null
        case .and(let left, let right, _):
            guard try condition(left, "the left side of '&&'") else { return .bool(false) }
            return .bool(try condition(right, "the right side of '&&'"))
        case .or(let left, let right, _):
            if try condition(left, "the left side of '||'") { return .bool(true) }
            return .bool(try condition(right, "the right side of '||'"))
        case .coalesce(let left, let right, _):
            let value = try evaluate(left)
            return value == .null ? try evaluate(right) : value
        case .conditional(let test, let whenTrue, let whenFalse, _):
            return try condition(test, "the condition of '?:'") ? try evaluate(whenTrue) : try evaluate(whenFalse)
        case .unary(let op, let operand, let range):
            let value = try evaluate(operand)
            switch op {
            case .not:
                guard case .bool(let b) = value else {
                    throw ExpressionError(.typeMismatch(operation: "!", types: [value.typeName]), at: range)
                }
                return .bool(!b)
            case .negate:
                do {
                    return try Operators.negate(value)
                } catch {
                    throw ExpressionError(error.reason, at: range)
                }
            }
        case .array(let elements, _):
            try charge(bytes: elements.count * EvaluationBudget.elementBytes, at: node.range)
            var values: [Value] = []
            values.reserveCapacity(elements.count)
            for element in elements {
                let value = try evaluate(element)
                try charge(sizeOf: value, at: node.range)
                values.append(value)
            }
            return .array(values)
        case .object(let members, _):
            try charge(bytes: members.count * EvaluationBudget.memberBytes, at: node.range)
            var object = Value.Members(minimumCapacity: members.count)
            for member in members {
                let value = try evaluate(member.value)
                try charge(sizeOf: value, at: node.range)
                object[member.key] = value
            }
            return .object(object)
        case .template(let pieces, let range):
            var text = ""
            for piece in pieces {
                switch piece {
                case .text(let t): text += t
                case .expression(let e):
                    let value = try evaluate(e)
                    if case .string(let s) = value { text += s } else { value.writeLiteral(to: &text) }
                }
                guard text.utf8.count <= Limits.maxStringBytes else {
                    throw ExpressionError(.tooLarge(what: "the string", limit: Limits.maxStringBytes), at: range)
                }
            }
            try charge(bytes: text.utf8.count, at: range)
            return .string(text)
        case .call(let function, let arguments, let range):
            return try call(function, arguments, range)
        }
    }

    /// Counts one step for evaluating `node`.
    @inline(__always)
    mutating func charge(for node: ExpressionNode) throws(ExpressionError) {
        do { try meter.charge() } catch { throw ExpressionError(error.reason, at: node.range) }
    }

    /// Counts `steps` of work and `bytes` of values built for the expression at `range`.
    mutating func charge(steps: Int = 0, bytes: Int, at range: Range<Int>) throws(ExpressionError) {
        do { try meter.charge(steps: steps, bytes: bytes) } catch { throw ExpressionError(error.reason, at: range) }
    }

    /// Counts the whole size of `value`, which a value being built holds (see `EvaluationBudget`),
    /// and `extra` bytes, for the expression at `range`. The value is measured no further than
    /// the budget left, so that measuring it costs no more than building it could.
    mutating func charge(sizeOf value: Value, plus extra: Int = 0, at range: Range<Int>) throws(ExpressionError) {
        switch value {
        case .array, .object: break
        case .string(let s): return try charge(bytes: s.utf8.count + extra, at: range)
        default: return try charge(bytes: extra, at: range)
        }
        do {
            let remaining = meter.remainingMemory()
            let size = value.budgetSize(upTo: remaining)
            try meter.charge(bytes: size + extra)
            if size > remaining { try meter.settle() }  // over budget even if little is pending
        } catch {
            throw ExpressionError(error.reason, at: range)
        }
    }

    /// Evaluates a test that must be a bool.
    mutating func condition(_ node: ExpressionNode, _ context: String) throws(ExpressionError) -> Bool {
        let value = try evaluate(node)
        guard case .bool(let b) = value else {
            throw ExpressionError(.notABool(context: context, type: value.typeName), at: node.range)
        }
        return b
    }

    /// Evaluates member and index chains; `nil` means an optional access met `null` and the rest
    /// of the chain was skipped (`a?.b.c` is `null` when `a` is).
    private mutating func evaluateChain(_ node: ExpressionNode) throws(ExpressionError) -> Value? {
        switch node {
        case .member(let base, let key, let optional, let range):
            if case .variable(let reference, let nameRange) = base {
                if case .global(let name) = reference {
                    switch environment.lookup(node: name, port: key) {
                    case .value(let value): return value
                    case .empty(let why): throw ExpressionError(.failed(why), at: nameRange.lowerBound..<range.upperBound)
                    case .unknown: break
                    }
                } else if let member = bindings.member(key, of: reference) {
                    return member
                }
            }
            guard let value = try evaluateChain(base) else { return nil }
            if optional, value == .null { return nil }
            guard case .object(let members) = value else {
                throw ExpressionError(.notIndexable(type: value.typeName, key: ".\(key)"), at: range)
            }
            if let member = members[key] { return member }
            if optional { return .null }
            throw ExpressionError(.missingKey(key: key, available: members.keys.map(\.string)), at: range)
        case .index(let base, let indexNode, let optional, let range):
            guard let value = try evaluateChain(base) else { return nil }
            if optional, value == .null { return nil }
            let index = try evaluate(indexNode)
            do {
                return try Self.subscriptValue(value, index, optional: optional)
            } catch {
                throw ExpressionError(error.reason, at: range)
            }
        default:
            return try evaluate(node)
        }
    }

    static func subscriptValue(_ value: Value, _ index: Value, optional: Bool) throws(OperationError) -> Value {
        switch (value, index) {
        case (.array(let elements), .int(let i)):
            if elements.indices.contains(i) { return elements[i] }
            if optional { return .null }
            throw OperationError(.indexOutOfRange(index: i, count: elements.count))
        case (.object(let members), .string(let key)):
            if let member = members[key] { return member }
            if optional { return .null }
            throw OperationError(.missingKey(key: key, available: members.keys.map(\.string)))
        case (.string(let s), .int(let i)):
            guard i >= 0, let position = s.index(s.startIndex, offsetBy: i, limitedBy: s.endIndex), position < s.endIndex else {
                if optional { return .null }
                throw OperationError(.indexOutOfRange(index: i, count: s.count))
            }
            return .string(String(s[position]))
        default:
            throw OperationError(.notIndexable(type: value.typeName, key: "[\(index)]"))
        }
    }

    private func read(_ reference: VariableReference, _ range: Range<Int>) throws(ExpressionError) -> Value {
        func special(_ value: Value?, _ name: String, _ hint: String) throws(ExpressionError) -> Value {
            guard let value else { throw ExpressionError(.unavailableName(name: name, hint: hint), at: range) }
            return value
        }
        switch reference {
        case .local(let slot):
            return locals[slot]
        case .input:
            return try special(bindings.input, "$", "it is the incoming value of wires, pipes, filters and map patches")
        case .state:
            return try special(bindings.state, "state", "it is the state being reduced, in reducers and pipes")
        case .action:
            return try special(bindings.action, "action", "it is the action being reduced, in reducers")
        case .params:
            return try special(bindings.params, "params", "it holds a route's parameters, in routes and presenters")
        case .url:
            return try special(bindings.url, "url", "it is the routed URL, in routes and presenters")
        case .route:
            return try special(
                bindings.route, "route", "it is the route result {url, pattern, params, view, option}, in routes and presenters")
        case .global(let name):
            switch environment.lookup(name: name) {
            case .value(let value):
                return value
            case .empty(let why):
                throw ExpressionError(.failed(why), at: range)
            case .unknown:
                let suggestion = Spelling.closest(to: name, among: environment.knownNames)
                throw ExpressionError(.unknownName(name: name, suggestion: suggestion), at: range)
            }
        }
    }

    /// Calls a lambda with its arguments bound to its parameter slots.
    mutating func invoke(_ lambda: Lambda, _ arguments: Value...) throws(ExpressionError) -> Value {
        for (offset, argument) in arguments.enumerated() { locals[lambda.firstSlot + offset] = argument }
        return try evaluate(lambda.body)
    }
}
