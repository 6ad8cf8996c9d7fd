@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
import Testing

// Issue 28, point 9: a work budget smaller than the evaluator's settling interval is enforced
// to the step (`--work-budget 1` let about 4,000 steps run), and `num` reads the one number
// syntax the literals have (`num("0x10")` gave 16 while `0x10` is an error).

@Suite("A small work budget, counted in steps")
struct SmallWorkBudgetTests {
    @Test(arguments: [1, 2, 10, 100])
    func aBudgetOfAFewStepsStopsAnEvaluationThatTakesMore(steps: Int) {
        // `1 + 1 + ...` with `steps` additions: each operator and literal is a step.
        let source = Array(repeating: "1", count: steps + 1).joined(separator: " + ")
        let budget = EvaluationBudget(work: steps, memory: 1 << 20)
        #expect(throws: ExpressionError.self) { try budget.during { try Expression(source).evaluate() } }
        let message = budget.during { () -> String in
            do throws(ExpressionError) { _ = try Expression(source).evaluate(); return "" } catch { return error.message(in: source) }
        }
        #expect(message.hasPrefix("the evaluation went over its work budget of \(steps) step\(steps == 1 ? "" : "s") in "), "\(message)")
    }

    @Test func aBudgetOfAsManyStepsAsAnEvaluationTakesIsEnough() throws {
        // `1 + 2`: two literals and one operator.
        #expect(try EvaluationBudget(work: 3, memory: 1 << 20).during { try Expression("1 + 2").evaluate() } == 3)
    }
}

@Suite("num reads the literals' number syntax")
struct NumberSyntaxTests {
    @Test(arguments: ["0x10", "0b1", "0o7", ".5", "5.", "1_000", "+1", "inf", "-inf", "nan", "0x1p4", "01", "1e", ""])
    func aTextNoLiteralCanBeIsNotANumber(text: String) {
        #expect(throws: ExpressionError.self) { try Expression(text).evaluate() }
        #expect(throws: ExpressionError.self) { try Expression("num(\"\(text)\")").evaluate() }
        #expect(throws: ExpressionError.self) { try Expression("int(\"\(text)\")").evaluate() }
    }

    @Test(arguments: [("10", 10 as Value), ("-3", -3), ("1.5", 1.5), ("1e3", 1000.0), ("2E-1", 0.2), ("-0.25", -0.25), (" 7 ", 7)])
    func aTextALiteralCanBeReadsAsTheLiteral(text: String, expected: Value) throws {
        #expect(try Expression("num(\"\(text)\")").evaluate() == expected)
        let literal = try Expression(text.filter { $0 != " " }).evaluate()
        #expect(literal == expected)
    }
}
