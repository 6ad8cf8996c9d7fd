@_spi(Shell) import PatchbayCore

extension Evaluator {
    mutating func call(_ function: Builtin, _ arguments: [Argument], _ range: Range<Int>) throws(ExpressionError) -> Value {
        var values: [Value] = []
        values.reserveCapacity(arguments.count)
        for argument in arguments {
            if case .value(let node) = argument { values.append(try evaluate(node)) } else { values.append(.null) }
        }
        // A function goes through its first argument's elements (`len` and `get` excepted, but
        // one step each is a fair price), and builds its result.
        try charge(steps: values.first?.shallowCount ?? 0, bytes: 0, at: range)
        let result = try apply(function, values, arguments, range)
        if function.buildsResult {
            try charge(steps: result.shallowCount, bytes: 0, at: range)
            try charge(sizeOf: result, at: range)
        }
        return result
    }

    private mutating func apply(
        _ function: Builtin, _ values: [Value], _ arguments: [Argument], _ range: Range<Int>
    ) throws(ExpressionError) -> Value {
        func fail(_ detail: String) -> ExpressionError {
            ExpressionError(.invalidArgument(function: function.rawValue, detail: detail), at: range)
        }
        func lambda(_ index: Int) -> Lambda {
            guard case .lambda(let l) = arguments[index] else { preconditionFailure("checked by the parser") }
            return l
        }
        func array(_ index: Int) throws(ExpressionError) -> [Value] {
            guard case .array(let elements) = values[index] else {
                throw fail("argument \(index + 1) must be an array, not \(values[index].typeName)")
            }
            return elements
        }
        func string(_ index: Int) throws(ExpressionError) -> String {
            guard case .string(let s) = values[index] else {
                throw fail("argument \(index + 1) must be a string, not \(values[index].typeName)")
            }
            return s
        }
        func integer(_ index: Int) throws(ExpressionError) -> Int {
            guard case .int(let i) = values[index] else {
                throw fail("argument \(index + 1) must be an int, not \(values[index].typeName)")
            }
            return i
        }
        func object(_ index: Int) throws(ExpressionError) -> Value.Members {
            guard case .object(let members) = values[index] else {
                throw fail("argument \(index + 1) must be an object, not \(values[index].typeName)")
            }
            return members
        }
        func bounded(_ elements: [Value]) throws(ExpressionError) -> Value {
            guard elements.count <= Limits.maxElements else {
                throw ExpressionError(.tooLarge(what: "the array", limit: Limits.maxElements), at: range)
            }
            return .array(elements)
        }
        func truth(_ value: Value, _ element: Value) throws(ExpressionError) -> Bool {
            guard case .bool(let b) = value else {
                throw fail("the lambda must return a bool, not \(value.typeName) (for \(element))")
            }
            return b
        }

        switch function {
        case .len:
            switch values[0] {
            case .string(let s): return .int(s.count)
            case .array(let a): return .int(a.count)
            case .object(let o): return .int(o.count)
            default: throw fail("takes a string, an array or an object, not \(values[0].typeName)")
            }
        case .keys:
            return .array(try object(0).keys.map { .string($0.string) })
        case .values:
            return .array(Array(try object(0).values))
        case .contains:
            switch values[0] {
            case .array(let a): return .bool(a.contains(values[1]))
            case .string(let s): return .bool(s.contains(try string(1)))
            case .object(let o): return .bool(o[try string(1)] != nil)
            default: throw fail("takes an array, a string or an object, not \(values[0].typeName)")
            }
        case .append:
            return try bounded(try array(0) + [values[1]])
        case .prepend:
            return try bounded([values[1]] + (try array(0)))
        case .insert:
            var elements = try array(0)
            let index = try integer(1)
            guard (0...elements.count).contains(index) else { throw fail("index \(index) is outside 0...\(elements.count)") }
            elements.insert(values[2], at: index)
            return try bounded(elements)
        case .remove:
            switch values[0] {
            case .array(let a): return .array(a.filter { $0 != values[1] })
            case .object(var o):
                o.removeValue(forKey: try string(1))
                return .object(o)
            default: throw fail("takes an array or an object, not \(values[0].typeName)")
            }
        case .removeAt:
            var elements = try array(0)
            let index = try integer(1)
            guard elements.indices.contains(index) else {
                throw ExpressionError(.indexOutOfRange(index: index, count: elements.count), at: range)
            }
            elements.remove(at: index)
            return .array(elements)
        case .merge:
            var merged = try object(0)
            for index in 1..<values.count {
                for (key, value) in try object(index) { merged[key] = value }
            }
            return .object(merged)
        case .get:
            let fallback = values.count > 2 ? values[2] : .null
            switch (values[0], values[1]) {
            case (.object(let o), .string(let key)): return o[key] ?? fallback
            case (.array(let a), .int(let i)): return a.indices.contains(i) ? a[i] : fallback
            case (.null, _): return fallback
            default: throw fail("takes an object and a key, or an array and an index")
            }
        case .has:
            switch (values[0], values[1]) {
            case (.object(let o), .string(let key)): return .bool(o[key] != nil)
            case (.array(let a), .int(let i)): return .bool(a.indices.contains(i))
            default: throw fail("takes an object and a key, or an array and an index")
            }
        case .map:
            let elements = try array(0)
            let l = lambda(1)
            var result: [Value] = []
            result.reserveCapacity(elements.count)
            for element in elements { result.append(try invoke(l, element)) }
            return .array(result)
        case .filter:
            let l = lambda(1)
            var result: [Value] = []
            for element in try array(0) where try truth(try invoke(l, element), element) { result.append(element) }
            return .array(result)
        case .find:
            let l = lambda(1)
            for element in try array(0) where try truth(try invoke(l, element), element) { return element }
            return .null
        case .reduce:
            return try reduce(try array(0), values[1], lambda(2), range)
        case .sort:
            let elements = try array(0)
            try chargeSorting(elements.count, range)
            return .array(try sorted(elements, keys: elements, range: range, function: function))
        case .sortBy:
            let elements = try array(0)
            try chargeSorting(elements.count, range)
            let l = lambda(1)
            var keys: [Value] = []
            keys.reserveCapacity(elements.count)
            for element in elements { keys.append(try invoke(l, element)) }
            return .array(try sorted(elements, keys: keys, range: range, function: function))
        case .reverse:
            switch values[0] {
            case .array(let a): return .array(a.reversed())
            case .string(let s): return .string(String(s.reversed()))
            default: throw fail("takes an array or a string, not \(values[0].typeName)")
            }
        case .sum:
            var total = Value.int(0)
            for element in try array(0) {
                guard element.isNumber else { throw fail("takes numbers, not \(element.typeName)") }
                do { total = try Operators.add(total, element) } catch { throw ExpressionError(error.reason, at: range) }
            }
            return total
        case .min, .max:
            let candidates = values.count == 1 ? try array(0) : values
            guard var best = candidates.first else { throw fail("the array is empty") }
            for candidate in candidates.dropFirst() {
                let order: Int
                do { order = try Operators.compare(.less, candidate, best) } catch {
                    throw fail("cannot compare \(candidate.typeName) with \(best.typeName)")
                }
                if function == .min ? order < 0 : order > 0 { best = candidate }
            }
            return best
        case .abs:
            switch values[0] {
            case .int(let i):
                guard i != .min else { throw ExpressionError(.integerOverflow(operation: "abs"), at: range) }
                return .int(Swift.abs(i))
            case .decimal(let d): return .decimal(Swift.abs(d))
            default: throw fail("takes a number, not \(values[0].typeName)")
            }
        case .round, .floor, .ceil:
            let rule: FloatingPointRoundingRule =
                function == .round ? .toNearestOrAwayFromZero : function == .floor ? .down : .up
            switch values[0] {
            case .int(let i): return .int(i)
            case .decimal(let d):
                if values.count > 1 {
                    let digits = try integer(1)
                    guard (0...15).contains(digits) else { throw fail("digits must be in 0...15") }
                    var scale = 1.0
                    for _ in 0..<digits { scale *= 10 }
                    return .decimal((d * scale).rounded(rule) / scale)
                }
                guard let i = Int(exactly: d.rounded(rule)) else {
                    throw ExpressionError(.integerOverflow(operation: function.rawValue), at: range)
                }
                return .int(i)
            default: throw fail("takes a number, not \(values[0].typeName)")
            }
        case .str:
            if case .string = values[0] { return values[0] }
            return .string(values[0].description)
        case .num, .int:
            switch values[0] {
            case .int: return values[0]
            case .decimal(let d):
                guard function == .int else { return values[0] }
                guard let i = Int(exactly: d.rounded(.towardZero)) else {
                    throw ExpressionError(.integerOverflow(operation: "int"), at: range)
                }
                return .int(i)
            case .string(let s):
                // The syntax of number literals, and nothing else (`num("0x10")` is an error, as `0x10` is).
                switch Lexer.numberLiteral(s.trimmingWhitespace()) {
                case .int(let i)?: return .int(i)
                case let number? where function == .num: return number
                default: throw fail("\(Value.string(s)) is not \(function == .int ? "an integer" : "a number")")
                }
            case .bool(let b) where function == .int:
                return .int(b ? 1 : 0)
            default:
                throw fail("takes a number or a string, not \(values[0].typeName)")
            }
        case .bool:
            switch values[0] {
            case .bool: return values[0]
            case .null: return .bool(false)
            case .int(let i): return .bool(i != 0)
            case .decimal(let d): return .bool(d != 0)
            case .string(let s): return .bool(!s.isEmpty)
            case .array, .object: return .bool(true)
            }
        case .upper:
            return .string(try string(0).uppercased())
        case .lower:
            return .string(try string(0).lowercased())
        case .trim:
            return .string(try string(0).trimmingWhitespace())
        case .split:
            let text = try string(0)
            let separator = try string(1)
            if separator.isEmpty { return .array(text.map { .string(String($0)) }) }
            return .array(text.split(separator: separator, omittingEmptySubsequences: false).map { .string(String($0)) })
        case .join:
            let separator = values.count > 1 ? try string(1) : ""
            var text = ""
            for (offset, element) in try array(0).enumerated() {
                if offset > 0 { text += separator }
                if case .string(let s) = element { text += s } else { element.writeLiteral(to: &text) }
                guard text.utf8.count <= Limits.maxStringBytes else {
                    throw ExpressionError(.tooLarge(what: "the string", limit: Limits.maxStringBytes), at: range)
                }
            }
            return .string(text)
        case .replace:
            let text = try string(0)
            let old = try string(1)
            guard !old.isEmpty else { throw fail("the text to replace is empty") }
            let result = text.replacing(old, with: try string(2))
            guard result.utf8.count <= Limits.maxStringBytes else {
                throw ExpressionError(.tooLarge(what: "the string", limit: Limits.maxStringBytes), at: range)
            }
            return .string(result)
        case .range:
            let start = values.count > 1 ? try integer(0) : 0
            let end = values.count > 1 ? try integer(1) : try integer(0)
            let step = values.count > 2 ? try integer(2) : 1
            guard step != 0 else { throw fail("the step must not be 0") }
            // The distance between two Ints always fits in a UInt, even when `end - start` overflows.
            let distance = step > 0 ? (end > start ? UInt(bitPattern: end &- start) : 0) : (start > end ? UInt(bitPattern: start &- end) : 0)
            let count = distance == 0 ? 0 : (distance - 1) / step.magnitude + 1
            guard count <= Limits.maxRange else {
                throw ExpressionError(.tooLarge(what: "the range", limit: Limits.maxRange), at: range)
            }
            // Charged before it is built, not after as other results are: the largest costs 24 MB.
            try charge(steps: Int(count), bytes: Int(count) * EvaluationBudget.elementBytes, at: range)
            return .array(stride(from: start, to: end, by: step).map { .int($0) })
        case .type:
            return .string(values[0].typeName)
        }
    }

    /// `reduce(array, initial, (acc, x) => ...)`.
    ///
    /// The one loop of the language that feeds a result back in. When the lambda is
    /// `acc + EXPR` or `append(acc, EXPR)`, the accumulator grows in place: it is the only
    /// reference to its array (or string, or object) once `EXPR` has been evaluated, so building
    /// a list element by element is linear, not quadratic.
    private mutating func reduce(_ elements: [Value], _ initial: Value, _ l: Lambda, _ range: Range<Int>) throws(ExpressionError) -> Value {
        var accumulator = initial
        let accumulatorSlot = l.firstSlot
        if let growth = AccumulatorGrowth(l) {
            // Here the depth is known from each addition: the accumulator's, or one more than
            // the element appended, or the depth of what is added.
            var depth = accumulator.nestingDepth(upTo: Value.maxDepth)
            for element in elements {
                try charge(for: l.body)
                locals[accumulatorSlot] = accumulator  // for `EXPR` to read
                locals[accumulatorSlot + 1] = element
                let addition = try evaluate(growth.addition)
                locals[accumulatorSlot] = .null  // now `accumulator` is the one reference
                do {
                    try Operators.grow(&accumulator, by: addition, appending: growth.appends)
                } catch {
                    throw ExpressionError(error.reason, at: growth.range)
                }
                // What is added, in full, and the element it takes when appended.
                try charge(sizeOf: addition, plus: growth.appends ? EvaluationBudget.elementBytes : 0, at: growth.range)
                let additionDepth = addition.nestingDepth(upTo: Value.maxDepth) + (growth.appends ? 1 : 0)
                if additionDepth > depth {
                    depth = additionDepth
                    guard depth <= Value.maxDepth else {
                        throw ExpressionError(.tooLarge(what: "the nesting of the result", limit: Value.maxDepth), at: range)
                    }
                }
            }
            return accumulator
        }
        // One step nests a value at most once per byte of the lambda (each `[`, `{`, `append(`,
        // `map(`... takes at least one), so the depth is measured again only when it could have
        // passed the limit, and once more at the end.
        let growthPerStep = Swift.max(1, l.range.count)
        var stepsBeforeCheck = 0
        func checkDepth() throws(ExpressionError) {
            // Measuring walks the accumulator: work like any other, so that a large accumulator
            // passed on unchanged step after step spends the budget rather than hanging.
            try charge(steps: accumulator.shallowCount, bytes: 0, at: range)
            let depth = accumulator.nestingDepth(upTo: Value.maxDepth)
            guard depth <= Value.maxDepth else {
                throw ExpressionError(.tooLarge(what: "the nesting of the result", limit: Value.maxDepth), at: range)
            }
            stepsBeforeCheck = (Value.maxDepth - depth) / growthPerStep
        }
        for element in elements {
            accumulator = try invoke(l, accumulator, element)
            if stepsBeforeCheck == 0 { try checkDepth() } else { stepsBeforeCheck -= 1 }
        }
        try checkDepth()
        return accumulator
    }

    /// Counts the comparisons of sorting `count` elements: n·log₂n.
    private mutating func chargeSorting(_ count: Int, _ range: Range<Int>) throws(ExpressionError) {
        guard count > 1 else { return }
        try charge(steps: count * (Int.bitWidth - count.leadingZeroBitCount), bytes: 0, at: range)
    }

    /// Orders `elements` by `keys` (numbers or strings), keeping equal keys in their order.
    private func sorted(_ elements: [Value], keys: [Value], range: Range<Int>, function: Builtin) throws(ExpressionError) -> [Value] {
        var failed = false
        let order = keys.indices.sorted { a, b in
            guard !failed, let c = try? Operators.compare(.less, keys[a], keys[b]) else {
                failed = true
                return a < b
            }
            return c < 0 || (c == 0 && a < b)
        }
        if failed {
            let types = Set(keys.map(\.typeName)).sorted()
            let found = types.count == 1 ? types[0] : "a mix of " + types.joined(separator: ", ")
            throw ExpressionError(
                .invalidArgument(function: function.rawValue, detail: "can only order numbers or strings, not \(found)"),
                at: range)
        }
        return order.map { elements[$0] }
    }
}

extension String {
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return String(scalars[first...last])
    }
}

/// A reducer lambda that only grows its accumulator: `(acc, x) => acc + EXPR` or
/// `(acc, x) => append(acc, EXPR)`.
private struct AccumulatorGrowth {
    /// `EXPR`.
    let addition: ExpressionNode
    /// Whether `EXPR` is one element to append rather than a value to add.
    let appends: Bool
    /// Where an error of the addition points: the `+` or the `append` call.
    let range: Range<Int>

    init?(_ lambda: Lambda) {
        guard lambda.parameterCount == 2 else { return nil }
        switch lambda.body {
        case .binary(.add, .variable(.local(let slot), _), let addition, let range) where slot == lambda.firstSlot:
            self.addition = addition
            appends = false
            self.range = range
        case .call(.append, let arguments, let range) where arguments.count == 2:
            guard case .value(.variable(.local(let slot), _)) = arguments[0], slot == lambda.firstSlot,
                  case .value(let addition) = arguments[1]
            else { return nil }
            self.addition = addition
            appends = true
            self.range = range
        default:
            return nil
        }
    }
}
