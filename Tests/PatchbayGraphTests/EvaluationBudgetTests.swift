@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
import Testing

/// The error `source` stops with, as a user sees it.
private func problem(_ source: String) -> Problem? {
    do {
        _ = try Expression(source).evaluate()
        return nil
    } catch {
        return Problem(error, in: source)
    }
}

@Suite("Evaluation budget")
struct EvaluationBudgetTests {
    /// Small enough that the tests stop quickly, large enough for everything linear below.
    let budget = EvaluationBudget(work: 5_000_000, memory: 64 << 20)

    @Test func buildingTooMuchStopsWithTheMemoryBudget() throws {
        let source = "len(map(range(1000), x => range(1000000)))"
        let found = budget.during { problem(source) }
        #expect(found == Problem(
            "the evaluation went over its memory budget of 67108864 bytes in 'range(1000000)'; evaluate less at once, "
                + "or raise the budget with patchbay --memory-budget (see 'help values')",
            column: 27))
    }

    @Test func workingTooLongStopsWithTheWorkBudget() throws {
        // Builds almost nothing: a sum of sums.
        let source = "sum(map(range(500), x => reduce(range(1000), 0, (a, y) => a + y)))"
        let found = EvaluationBudget(work: 1_000_000, memory: 64 << 20).during { problem(source) }
        #expect(found?.message.hasPrefix("the evaluation went over its work budget of 1000000 steps in ") == true)
        let enough = EvaluationBudget(work: 10_000_000, memory: 64 << 20)
        #expect(try enough.during { try literal(of: source) } == "249750000")
    }

    @Test func growingAnAccumulatorIsLinear() throws {
        // Copying the list at every step would build 200,000²/2 elements (480 GB by the budget's
        // count); growing it in place builds 200,000.
        for (source, count) in [
            ("len(reduce(range(200000), [], (a, x) => a + [x]))", "200000"),
            ("len(reduce(range(200000), [], (a, x) => append(a, x)))", "200000"),
            ("len(reduce(range(200000), '', (a, x) => a + 'x'))", "200000"),
            ("reduce(range(200000), {}, (a, x) => a + {last: x})", "{last: 199999}"),
        ] {
            #expect(try budget.during { try literal(of: source) } == count, "\(source)")
        }
    }

    @Test func growingInPlaceGivesWhatCopyingGives() throws {
        #expect(try literal(of: "reduce([1, 2, 3], [0], (a, x) => a + [x, len(a)])") == "[0, 1, 1, 2, 3, 3, 5]")
        #expect(try literal(of: "reduce([1, 2], [], (a, x) => append(a, a))") == "[[], [[]]]")
        #expect(try literal(of: "reduce(['b', 'c'], 'a', (a, x) => a + x + a)") == "\"abacaba\"")
        #expect(try literal(of: "reduce([{b: 2}, {a: 3}], {a: 1}, (a, x) => a + x)") == "{a: 3, b: 2}")
        #expect(try literal(of: "reduce([1, 2], 10, (a, x) => a + x)") == "13")
        // The initial value is not changed by the growth of the accumulator.
        #expect(try literal(of: "state.xs + [reduce([4], state.xs, (a, x) => a + [x])]")
            == "[1, 2, 3, [1, 2, 3, 4]]")
    }

    @Test func growingInPlaceReportsErrorsAsCopyingDoes() throws {
        #expect(problem("reduce([1], 0, (a, x) => append(a, x))")
            == Problem("append: argument 1 must be an array, not int in 'append(a, x)'", column: 26))
        #expect(problem("reduce([1], [], (a, x) => a + 'x')")
            == Problem("cannot apply '+' to an array and a string in 'a + 'x''", column: 27))
        #expect(problem("reduce(range(600), [], (a, x) => [a])")?.message.hasPrefix("the nesting of the result is too large") == true)
        #expect(problem("reduce(range(600), [], (a, x) => append(a, reduce(range(x), 1, (b, y) => [b])))")?.message
            .hasPrefix("the nesting of the result is too large") == true)
    }

    @Test func quadraticGrowthIsStoppedByTheBudget() throws {
        let found = budget.during { problem("len(reduce(range(1000000), [], (a, x) => [x] + a))") }
        #expect(found?.message.hasPrefix("the evaluation went over its memory budget") == true)
    }

    @Test func measuringTheNestingOfALargeAccumulatorCountsAsWork() throws {
        // The lambda could nest the accumulator, so its depth is measured every few dozen steps:
        // a walk of 100,000 elements each time, 2·10⁹ element visits in all.
        let bindings = Bindings(state: ["big": .array(Array(repeating: .int(1), count: 100_000))])
        let source = "len(reduce(range(1000000), state.big, (a, x) => a))"
        #expect {
            try budget.during { try Expression(source).evaluate(bindings) }
        } throws: { error in
            (error as? ExpressionError)?.message(in: source).hasPrefix("the evaluation went over its work budget") == true
        }
    }

    @Test func aStatementBlockOverItsBudgetChangesNothing() throws {
        var state: Value = ["items": [1, 2], "n": 0]
        let block = try StatementBlock("state.n = 1\nstate.items = map(range(100000), x => range(1000))")
        var changes: [ValueChange] = []
        #expect(throws: ExpressionError.self) {
            try budget.during { try block.execute(state: &state, changes: &changes) }
        }
        #expect(state == ["items": [1, 2], "n": 0])
        #expect(changes.isEmpty)
    }

    @Test func aValueDoubledStepByStepIsStoppedByTheMemoryBudget() throws {
        // Each step puts the accumulator in twice: memory grows by a few bytes a step, but the
        // value has 2ⁿ places, and printing, recording or comparing it would never end.
        for source in [
            "len(reduce(range(40), [1], (a, x) => [a, a]))",
            "len(reduce(range(40), [1], (a, x) => append(a, a)))",
            "len(reduce(range(40), [1], (a, x) => {l: a, r: a}))",
        ] {
            let found = EvaluationBudget.standard.during { problem(source) }
            #expect(found?.message.hasPrefix("the evaluation went over its memory budget of 1073741824 bytes in ") == true, "\(source)")
        }
    }

    @Test func aStateDoubledActionByActionIsStoppedByTheMemoryBudgetAndKept() throws {
        // `store s = {a: 1}`, `reducer s on x : state.a = [state.a, state.a]`, dispatched again
        // and again: every action is an evaluation of its own, and the one that would build too
        // large a state fails, leaving the state as it was.
        let small = EvaluationBudget(work: 1_000_000, memory: 1 << 20)
        for text in ["state.a = [state.a, state.a]", "state.a += [state.a]", "state.a = append(state.a, state.a)"] {
            let block = try StatementBlock(text)
            var state: Value = ["a": [1]]
            var refused: ExpressionError?
            for _ in 0..<40 where refused == nil {
                let before = state
                var changes: [ValueChange] = []
                do {
                    _ = try small.during { try block.execute(state: &state, changes: &changes) }
                } catch let error as ExpressionError {
                    refused = error
                    #expect(state == before, "\(text)")
                    #expect(changes.isEmpty, "\(text)")
                }
            }
            #expect(refused?.message(in: text).hasPrefix("the evaluation went over its memory budget of 1048576 bytes") == true, "\(text)")
        }
    }

    @Test func aValueThatSharesItsPartsIsMeasuredOncePerPart() {
        // 2⁶⁰ places in 61 arrays.
        var value: Value = 1
        for _ in 0..<60 { value = [value, value] }
        #expect(value.nestingDepth(upTo: Value.maxDepth) == 60)
        #expect(value.nestingDepth(upTo: 10) == 11)
        #expect(value.logicalSize(elementBytes: 24, memberBytes: 48, upTo: 1 << 30) == (1 << 30) + 1)
        var small: Value = ["k": "abc"]
        for _ in 0..<3 { small = [small, small] }
        // 8 objects of one member and 3 string bytes, in 7 arrays of 2 elements.
        #expect(small.logicalSize(elementBytes: 24, memberBytes: 48, upTo: 1 << 30) == 8 * (48 + 3) + 7 * 2 * 24)
    }

    @Test func aTenMegabyteStringStillWorks() throws {
        let text = String(repeating: "x", count: 10 << 20)
        let bindings = Bindings(state: ["text": .string(text)])
        #expect(try Expression("len(state.text + '!')").evaluate(bindings) == .int(10 << 20 + 1))
    }
}

@Suite("Interruption")
struct InterruptionTests {
    let long = "len(map(range(100000), x => x * 2))"

    @Test func aRequestStopsTheEvaluationItInterrupts() throws {
        let interruption = Interruption()
        let found = interruption.during { () -> Problem? in
            interruption.request()
            return problem(long)
        }
        #expect(found?.message == "interrupted; nothing changed")
    }

    @Test func requestsBeforeTheCommandAndOutsideAreIgnored() throws {
        let interruption = Interruption()
        interruption.request()
        #expect(interruption.during { problem(long) } == nil)
        // Not bound to the task: nothing to interrupt.
        interruption.request()
        #expect(problem(long) == nil)
        #expect(throws: Never.self) { try Interruption.check() }
    }

    @Test func checkThrowsOnlyInsideTheInterruptedCommand() throws {
        let interruption = Interruption()
        try interruption.during {
            try Interruption.check()
            interruption.request()
            #expect(throws: InterruptionError()) { try Interruption.check() }
            #expect(throws: InterruptionError()) { try interruption.throwIfRequested() }
        }
        #expect(InterruptionError().description == "interrupted; nothing changed")
    }

    @Test func anInterruptedReducerChangesNothing() throws {
        let interruption = Interruption()
        var state: Value = ["n": 0]
        let block = try StatementBlock("state.n = 1\nstate.m = len(map(range(1000000), x => x))")
        var changes: [ValueChange] = []
        interruption.during {
            interruption.request()
            #expect {
                try block.execute(state: &state, changes: &changes)
            } throws: { error in
                (error as? ExpressionError)?.reason == .interrupted
            }
        }
        #expect(state == ["n": 0])
        #expect(changes.isEmpty)
    }
}
