@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
import Testing

// Names in expressions: $ is the incoming value; state is the state being reduced; action is
// the action; params and url in routing; any node name reads that node's current value; NODE.PORT
// reads a port's current value.

@Suite("Names")
struct NameTests {
    @Test func specialNamesReadTheirBindings() throws {
        let bindings = Bindings(input: 1, state: ["n": 2], action: ["by": 3], params: ["id": "7"], url: "tests://a/7")
        #expect(try literal(of: #"[$, state.n, action.by, params.id, url]"#, bindings) == #"[1, 2, 3, "7", "tests://a/7"]"#)
    }

    @Test func nodeNamesReadTheEnvironment() throws {
        #expect(try literal(of: "counter + total") == "15")
        #expect(try literal(of: "profile") == #"{name: "Ada"}"#)
    }

    @Test func aPortIsReadBeforeAKeyOfTheNodesValue() throws {
        #expect(try literal(of: "clock.tick") == "7")
        // `profile` has no port called `name`, so `.name` reads the key of its value.
        #expect(try literal(of: "profile.name") == #""Ada""#)
    }

    @Test func freeNamesAreListedOnceInOrderOfUse() throws {
        let expression = try Expression("total + counter * total + len(map(state.xs, x => x + clock.tick)) + $")
        #expect(expression.freeNames == ["total", "counter", "clock"])
        #expect(try Expression("map([1], x => x)").freeNames == [])
    }

    @Test func trueFalseAndNullAreNotNames() throws {
        #expect(try Expression("[true, false, null]").freeNames == [])
    }

    @Test func anExpressionIsParsedOnceAndEvaluatedManyTimes() throws {
        let next = try Expression("state.count + action.by")
        #expect(try next.evaluate(Bindings(state: ["count": 1], action: ["by": 2])) == 3)
        #expect(try next.evaluate(Bindings(state: ["count": 10], action: ["by": -1])) == 9)
        #expect(next.description == "state.count + action.by")
    }

    @Test func parsingCanStopWhereTheExpressionEnds() throws {
        // Commands read an expression followed by more syntax, such as `state.count > 1 when ...`.
        let line = "watch state.count > 1 when ready"
        let (expression, end) = try Expression.parse(line, from: 6)
        #expect(expression.description == "state.count > 1")
        #expect(end == 22)
        #expect(try expression.evaluate(sampleBindings) == true)
    }
}
