@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph

/// Evaluating and parsing expressions of the Patchbay language, against hand-written Swift
/// closures that do the same work on the same `Value`s (the floor).
struct ExpressionBenchmarks: BenchmarkGroup {
    let name = "Expressions"

    /// Inputs are read round-robin from this many precomputed values, so results vary from one
    /// operation to the next without generating inputs inside the timed loop.
    static let inputCount = 1024

    func rows(for mode: Mode) -> [BenchmarkRow] {
        let evaluations = mode == .quick ? 50_000 : 1_000_000
        let parses = mode == .quick ? 1_000 : 20_000
        return [
            BenchmarkRow(
                id: "E1", title: "eval state.count + action.by",
                ours: Self.sumEvaluation(evaluations),
                reference: Reference(kind: .floor, name: "Swift closure", workload: Self.sumFloor(evaluations)),
                target: .ratioAtMost(10)
            ),
            BenchmarkRow(
                id: "E2", title: "eval 6-operator arithmetic",
                ours: Self.arithmeticEvaluation(evaluations),
                reference: Reference(kind: .floor, name: "Swift closure", workload: Self.arithmeticFloor(evaluations)),
                target: .ratioAtMost(10)
            ),
            BenchmarkRow(
                id: "E3", title: "parse 200-character expression",
                ours: Self.parsing(parses),
                reference: nil,
                target: .nanosecondsBelow(20_000)
            ),
            BenchmarkRow(
                id: "E4", title: "reduce (acc, x) => acc + [x]: 200,000 elements vs 100,000 (vs 50,000), per element",
                ours: Self.growing(200_000),
                reference: Reference(kind: .baseline, name: "ours, 100,000 elements", workload: Self.growing(100_000)),
                // Linear: the same time per element at every size. Copying would double it per doubling.
                target: .ratioAtMost(1.3),
                secondReference: Reference(kind: .baseline, name: "ours, 50,000 elements", workload: Self.growing(50_000))
            ),
            BenchmarkRow(
                id: "E5", title: "linked state step at depth 2,048 vs 1,024 (vs 128): changes, refine, print, JSON",
                ours: Self.linkedStep(depth: 2_048, steps: mode == .quick ? 20 : 200),
                reference: Reference(
                    kind: .baseline, name: "ours, depth 1,024", workload: Self.linkedStep(depth: 1_024, steps: mode == .quick ? 20 : 200)),
                // A step linear in the depth doubles per doubling (quadratic over a history as deep);
                // one quadratic in it (cubic over the history) would quadruple.
                target: .ratioAtMost(2.5),
                secondReference: Reference(
                    kind: .baseline, name: "ours, depth 128", workload: Self.linkedStep(depth: 128, steps: mode == .quick ? 20 : 200)),
                notes: { ours, half, sixteenth in
                    let perDoubling = sixteenth.map { (ours / $0).squareRoot().squareRoot() } ?? .nan
                    return ["linked state: \(formatted(ours / 1_000, digits: 1)) µs per step at depth 2,048; "
                        + "x\(formatted(ours / (half ?? .nan), digits: 2)) from 1,024, x\(formatted(perDoubling, digits: 2)) per doubling from 128"]
                }
            ),
        ]
    }

    // MARK: E4, growing an accumulator

    /// `reduce(range(n), [], (acc, x) => acc + [x])`, one evaluation per trial; an operation is
    /// an element.
    static func growing(_ count: Int) -> Workload {
        Workload(operations: count) {
            let expression = try Expression(opaque("len(reduce(range(\(count)), [], (acc, x) => acc + [x]))"))
            return Trial(expectedChecksum: count) {
                guard case .int(let length) = try expression.evaluate() else { return -1 }
                return length
            }
        }
    }

    // MARK: E5, a linked history

    /// What a store does with each step of `state.undo = {prev: state.undo, n: state.n}` at
    /// `depth`: the changes between the two states, refined, printed as a literal and as JSON.
    static func linkedStep(depth: Int, steps: Int) -> Workload {
        Workload(operations: steps) {
            var old = Value.null
            for n in 0..<depth { old = ["prev": old, "n": .int(n)] }
            let before: Value = ["undo": old, "n": .int(depth)]
            let after: Value = ["undo": ["prev": old, "n": .int(depth)], "n": .int(depth + 1)]
            return Trial(expectedChecksum: steps * 2) {
                var total = 0
                for _ in 0..<steps {
                    let changes = ValueChange.refined(before.changes(to: opaque(after)))
                    for change in changes {
                        total += 1
                        blackHole(change.new?.description.utf8.count ?? 0)
                        blackHole(change.new?.jsonText.utf8.count ?? 0)
                    }
                }
                return total
            }
        }
    }

    // MARK: E1, state.count + action.by

    static let sumSource = "state.count + action.by"

    /// The states `{count}` and actions `{by}` of E1, and the sum that `operations` additions
    /// over them, round-robin, must give.
    static func sumInputs(_ operations: Int) -> (states: [Value], actions: [Value], checksum: Int) {
        var states: [Value] = []
        var actions: [Value] = []
        var sums: [Int] = []
        for i in 0..<inputCount {
            let count = i * 37 - 5_000
            let by = (i * 7_919) % 1_000 - 500
            states.append(["count": .int(count)])
            actions.append(["by": .int(by)])
            sums.append(count + by)
        }
        return (states, actions, checksum(operations, sums))
    }

    static func sumEvaluation(_ operations: Int) -> Workload {
        Workload(operations: operations) {
            let expression = try Expression(opaque(sumSource))
            let (states, actions, expected) = sumInputs(operations)
            return Trial(expectedChecksum: expected) {
                var checksum = 0
                for i in 0..<operations {
                    let k = i & (inputCount - 1)
                    checksum &+= try integer(expression.evaluate(Bindings(state: states[k], action: actions[k])))
                }
                return checksum
            }
        }
    }

    static func sumFloor(_ operations: Int) -> Workload {
        Workload(operations: operations) {
            let floor: (Value, Value) throws -> Value = opaque { state, action in
                guard case .int(let count)? = state["count"], case .int(let by)? = action["by"] else {
                    throw FloorError.typeMismatch
                }
                return .int(try checked(count.addingReportingOverflow(by)))
            }
            let (states, actions, expected) = sumInputs(operations)
            return Trial(expectedChecksum: expected) {
                var checksum = 0
                for i in 0..<operations {
                    let k = i & (inputCount - 1)
                    checksum &+= try integer(floor(states[k], actions[k]))
                }
                return checksum
            }
        }
    }

    // MARK: E2, six arithmetic operators

    static let arithmeticSource = "($.a + $.b) * $.c - $.d / 2 + $.e % 3"

    /// The inputs `{a, b, c, d, e}` of E2 (`d` even, so the division is exact and every result an
    /// int), and the sum that `operations` evaluations over them, round-robin, must give.
    static func arithmeticInputs(_ operations: Int) -> (inputs: [Value], checksum: Int) {
        var inputs: [Value] = []
        var results: [Int] = []
        for i in 0..<inputCount {
            let a = i % 100 - 50, b = (i * 7) % 50, c = i % 13 + 1, d = 2 * (i % 500) - 400, e = (i * 31) % 1_000 - 500
            inputs.append(["a": .int(a), "b": .int(b), "c": .int(c), "d": .int(d), "e": .int(e)])
            results.append((a + b) * c - d / 2 + e % 3)
        }
        return (inputs, checksum(operations, results))
    }

    static func arithmeticEvaluation(_ operations: Int) -> Workload {
        Workload(operations: operations) {
            let expression = try Expression(opaque(arithmeticSource))
            let (inputs, expected) = arithmeticInputs(operations)
            return Trial(expectedChecksum: expected) {
                var checksum = 0
                for i in 0..<operations {
                    checksum &+= try integer(expression.evaluate(Bindings(input: inputs[i & (inputCount - 1)])))
                }
                return checksum
            }
        }
    }

    static func arithmeticFloor(_ operations: Int) -> Workload {
        Workload(operations: operations) {
            let floor: (Value) throws -> Value = opaque { input in
                guard case .int(let a)? = input["a"], case .int(let b)? = input["b"], case .int(let c)? = input["c"],
                    case .int(let d)? = input["d"], case .int(let e)? = input["e"]
                else { throw FloorError.typeMismatch }
                let product = try checked(checked(a.addingReportingOverflow(b)).multipliedReportingOverflow(by: c))
                let remainder = try checked(e.remainderReportingOverflow(dividingBy: 3))
                guard d % 2 == 0 else {
                    let result = Double(product) - Double(d) / 2 + Double(remainder)
                    guard result.isFinite else { throw FloorError.overflow }
                    return .decimal(result)
                }
                let quotient = try checked(d.dividedReportingOverflow(by: 2))
                return .int(try checked(checked(product.subtractingReportingOverflow(quotient)).addingReportingOverflow(remainder)))
            }
            let (inputs, expected) = arithmeticInputs(operations)
            return Trial(expectedChecksum: expected) {
                var checksum = 0
                for i in 0..<operations {
                    checksum &+= try integer(floor(inputs[i & (inputCount - 1)]))
                }
                return checksum
            }
        }
    }

    // MARK: E3, parsing

    /// Exactly 200 characters: member access, calls with lambdas, array and string literals,
    /// arithmetic, comparison and a conditional.
    static let parseSource = #"len(state.items) * 3 + sum(map(state.items, x => x * 2)) - action.by % 7 + len(filter([1, 2, 3, 4, 5, 6, 7, 8], n => n % 2 == 0)) + (state.count >= 10 ? 100 : -1000) + len("patch-bay") * max(1, 2, 30)"#

    /// What `parseSource` gives with `parseBindings`: 15 + 30 - 2 + 4 + 100 + 270.
    static let parseResult = 417
    static let parseBindings = Bindings(state: ["count": 12, "items": [1, 2, 3, 4, 5]], action: ["by": 9])

    static func parsing(_ operations: Int) -> Workload {
        Workload(operations: operations) {
            let text = opaque(parseSource)
            let length = text.utf8.count
            guard length == 200 else { throw CorrectnessFailure(description: "the source has \(length) characters, not 200") }
            let value = try Expression(text).evaluate(parseBindings)
            guard value == .int(parseResult) else {
                throw CorrectnessFailure(description: "the parsed expression gives \(value), expected \(parseResult)")
            }
            return Trial(expectedChecksum: operations * length) {
                var checksum = 0
                for _ in 0..<operations {
                    checksum &+= try Expression(text).range.count
                }
                return checksum
            }
        }
    }

    // MARK: Helpers

    /// The sum of `operations` results taken round-robin from `results`.
    static func checksum(_ operations: Int, _ results: [Int]) -> Int {
        var sum = 0
        for i in 0..<operations { sum &+= results[i % results.count] }
        return sum
    }
}

/// The integer an evaluation returned; any other value is a correctness failure.
@inline(__always)
private func integer(_ value: Value) throws(CorrectnessFailure) -> Int {
    guard case .int(let i) = value else { throw CorrectnessFailure(description: "expected an int, got \(value)") }
    return i
}

/// What the floors throw where the expression language reports an error.
private enum FloorError: Error {
    case typeMismatch
    case overflow
}

/// The result of an arithmetic operation that reports overflow, or `FloorError.overflow`.
@inline(__always)
private func checked(_ result: (partialValue: Int, overflow: Bool)) throws(FloorError) -> Int {
    guard !result.overflow else { throw FloorError.overflow }
    return result.partialValue
}

