@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
import Testing

// Statements (reducer, pipe and patch bodies), separated by ; or new lines inside { }:
// state.path = EXPR · state.path += EXPR (also -=) · delete state.path · if EXPR { ... } else { ... } ·
// emit PORT EXPR (in patch type bodies). Assigning to a path creates missing object keys; assigning
// past the end of an array is an error.

/// Runs `source` on `state`, returning the new state printed as a literal.
private func run(_ source: String, on state: Value = sampleState, action: Value? = nil) throws -> String {
    var state = state
    try StatementBlock(source).execute(state: &state, bindings: Bindings(action: action), in: SampleEnvironment())
    return state.description
}

/// The problem running `source` on `state` reports; `state` must be left as it was.
private func problem(running source: String, on state: Value = sampleState) -> Problem? {
    var changed = state
    do {
        try StatementBlock(source).execute(state: &changed, in: SampleEnvironment())
        return nil
    } catch {
        #expect(changed.description == state.description, "the state changed although \(source) failed")
        return Problem(error, in: source)
    }
}

@Suite("Statements: assignment")
struct AssignmentTests {
    @Test func assigningReplacesAValueInPlace() throws {
        #expect(try run("state.count = 3", on: ["count": 2, "other": true]) == "{count: 3, other: true}")
        #expect(try run("state.user.name = 'Ada'", on: ["user": ["name": "Max", "age": 3]]) == #"{user: {name: "Ada", age: 3}}"#)
    }

    @Test func assigningCreatesMissingKeysAtTheEnd() throws {
        #expect(try run("state.user.address.city = 'Berlin'", on: ["user": ["name": "Max"], "n": 1])
            == #"{user: {name: "Max", address: {city: "Berlin"}}, n: 1}"#)
        #expect(try run("state.a.b.c = 1", on: [:]) == "{a: {b: {c: 1}}}")
        #expect(try run("state.first = 1", on: nil) == "{first: 1}")
    }

    @Test func assigningThroughIndexes() throws {
        #expect(try run("state.items[1].done = false; state.xs[0] = 10", on: ["items": [["done": true], ["done": true]], "xs": [1, 2]])
            == "{items: [{done: true}, {done: false}], xs: [10, 2]}")
        #expect(try run("state.xs[state.count - 1] = 'x'", on: ["count": 2, "xs": [1, 2]]) == #"{count: 2, xs: [1, "x"]}"#)
        #expect(try run(#"state["with space"] = 1; state.m["k"].n = 2"#, on: ["m": ["k": [:]]]) == #"{m: {k: {n: 2}}, "with space": 1}"#)
    }

    @Test func assigningTheWholeState() throws {
        #expect(try run("state = {fresh: true}") == "{fresh: true}")
        #expect(try run("state = state.count") == "2")
    }

    @Test func theValueIsComputedFromTheStateBeforeTheAssignment() throws {
        #expect(try run("state.xs = append(state.xs, len(state.xs))", on: ["xs": [0]]) == "{xs: [0, 1]}")
        #expect(try run("state.self = state", on: ["a": 1]) == "{a: 1, self: {a: 1}}")
    }

    @Test func laterStatementsSeeEarlierOnes() throws {
        #expect(try run("state.count += 1; state.double = state.count * 2", on: ["count": 1]) == "{count: 2, double: 4}")
    }

    @Test func actionsAndNodesCanBeRead() throws {
        #expect(try run("state.count = state.count + action.by + counter", on: ["count": 1], action: ["by": 10]) == "{count: 16}")
    }

    @Test func plusAndMinusAssign() throws {
        #expect(try run("state.n += 2; state.d -= 0.5; state.s += '!'; state.l += [3]; state.o += {b: 2}",
                        on: ["n": 1, "d": 1, "s": "hi", "l": [1], "o": ["a": 1]])
            == #"{n: 3, d: 0.5, s: "hi!", l: [1, 3], o: {a: 1, b: 2}}"#)
        #expect(try run("state.xs[0] -= 1", on: ["xs": [1]]) == "{xs: [0]}")
    }
}

@Suite("Statements: delete, if and emit")
struct ControlStatementTests {
    @Test func deleteRemovesAKeyOrAnElement() throws {
        #expect(try run("delete state.user.name", on: ["user": ["name": "Max", "age": 3], "n": 1]) == "{user: {age: 3}, n: 1}")
        #expect(try run("delete state.xs[0]", on: ["xs": [1, 2, 3]]) == "{xs: [2, 3]}")
        #expect(try run("delete state.items[1].tag", on: ["items": [[:], ["tag": 1, "n": 2]]]) == "{items: [{}, {n: 2}]}")
    }

    @Test func deletingWhatIsNotThereDoesNothing() throws {
        #expect(try run("delete state.missing", on: ["a": 1]) == "{a: 1}")
        #expect(try run("delete state.missing.deeper", on: ["a": 1]) == "{a: 1}")
    }

    @Test func ifElse() throws {
        let source = "if state.count > 1 { state.size = 'big' } else { state.size = 'small' }"
        #expect(try run(source, on: ["count": 2]) == #"{count: 2, size: "big"}"#)
        #expect(try run(source, on: ["count": 0]) == #"{count: 0, size: "small"}"#)
        #expect(try run("if false { state.x = 1 }", on: [:]) == "{}")
    }

    @Test func elseIfChains() throws {
        let source = """
            if state.n < 0 {
              state.sign = -1
            } else if state.n == 0 {
              state.sign = 0
            }
            else {
              state.sign = 1
            }
            """
        #expect(try run(source, on: ["n": -5]) == "{n: -5, sign: -1}")
        #expect(try run(source, on: ["n": 0]) == "{n: 0, sign: 0}")
        #expect(try run(source, on: ["n": 7]) == "{n: 7, sign: 1}")
    }

    @Test func ifBodiesHoldSeveralStatements() throws {
        #expect(try run("if true { state.a = 1; state.b = 2\n state.c = 3 }", on: [:]) == "{a: 1, b: 2, c: 3}")
    }

    @Test func emitSendsValuesOutInOrder() throws {
        var state: Value = ["count": 1]
        let block = try StatementBlock("emit out state.count; state.count += 1; emit out state.count\nif true { emit log 'done' }")
        let emitted = try block.execute(state: &state)
        #expect(emitted == [Emission(port: "out", value: 1), Emission(port: "out", value: 2), Emission(port: "log", value: "done")])
        #expect(state == ["count": 2])
    }

    @Test func emitMayUseTheIncomingValue() throws {
        var state: Value = nil
        let emitted = try StatementBlock("emit doubled $ * 2").execute(state: &state, bindings: Bindings(input: 21))
        #expect(emitted == [Emission(port: "doubled", value: 42)])
    }
}

@Suite("Statements: layout")
struct StatementLayoutTests {
    @Test func statementsAreSeparatedBySemicolonsOrNewLines() throws {
        #expect(try run("state.a = 1; state.b = 2\nstate.c = 3;\n\n;state.d = 4;", on: [:]) == "{a: 1, b: 2, c: 3, d: 4}")
    }

    @Test func aBlockMayBeWrappedInBraces() throws {
        let source = """
            {
              state.count += 1

              if state.count > 2 {
                state.big = true
              }
            }
            """
        #expect(try run(source, on: ["count": 2]) == "{count: 3, big: true}")
        #expect(try run("{ state.a = 1; state.b = [\n  1,\n  2\n] }", on: [:]) == "{a: 1, b: [1, 2]}")
    }

    @Test func anEmptyBlockDoesNothing() throws {
        #expect(try StatementBlock("").isEmpty)
        #expect(try StatementBlock("{ }").isEmpty)
        #expect(try StatementBlock(" ;\n ").isEmpty)
        #expect(try run("{}") == sampleState.description)
    }

    @Test func theBlockKeepsItsSource() throws {
        #expect(try StatementBlock("state.a = 1").description == "state.a = 1")
    }
}

@Suite("Statements: errors")
struct StatementErrorTests {
    @Test func assigningPastTheEndOfAnArrayIsAnError() {
        #expect(problem(running: "state.xs[3] = 4")
            == Problem("index 3 out of range (count 3); use append(...) to add an element in 'state.xs[3] = 4'", column: 1))
        #expect(problem(running: "state.xs[-1] = 4")
            == Problem("index -1 out of range (count 3); use append(...) to add an element in 'state.xs[-1] = 4'", column: 1))
    }

    @Test func theStateIsUnchangedAfterAnErrorMidBlock() {
        // `problem(running:)` also checks that the state is as it was.
        #expect(problem(running: "state.count = 10; state.user.name = 'Ada'; delete state.xs[0]; state.items[5].done = true")
            == Problem("index 5 out of range (count 2); use append(...) to add an element in 'state.items[5].done = true'", column: 64))
        #expect(problem(running: "state.count += 1\nemit out 1\nstate.count += 'x'")
            == Problem("cannot apply '+' to an int and a string in 'state.count += 'x''", column: 1))
    }

    @Test func errorsInsideTheValuePointIntoIt() {
        #expect(problem(running: "state.count = state.count / 0") == Problem("division by zero in 'state.count / 0'", column: 15))
    }

    @Test func plusAssignNeedsAnExistingValue() {
        #expect(problem(running: "state.total += 1")
            == Problem("no key 'total' (keys: count, user, items, xs, nothing) in 'state.total += 1'; use ?. or ?? to read optional data", column: 1))
    }

    @Test func writingIntoAScalarIsAnError() {
        #expect(problem(running: "state.count.x = 1") == Problem("cannot read .x of an int in 'state.count.x = 1'", column: 1))
        #expect(problem(running: "state.user[0] = 1") == Problem("cannot read [0] of an object in 'state.user[0] = 1'", column: 1))
        #expect(problem(running: "state.xs[true] = 1") == Problem("cannot apply '[]' to a bool in 'true'", column: 10))
    }

    @Test func deleteErrors() {
        #expect(problem(running: "delete state.xs[7]") == Problem("index 7 out of range (count 3) in 'delete state.xs[7]'", column: 1))
        #expect(problem(running: "delete state") == Problem("cannot delete state itself; assign it instead (state = {}) in 'delete state'", column: 1))
        #expect(problem(running: "delete state.count.x") == Problem("cannot read .x of an int in 'delete state.count.x'", column: 1))
    }

    @Test func theConditionOfIfMustBeABool() {
        #expect(problem(running: "if state.count { state.x = 1 }") == Problem("the condition of 'if' must be a bool, not an int in 'state.count'", column: 4))
    }

    @Test(arguments: [
        ("x = 1", "can only assign to a path of state; for example state.items[0].done = true", 1),
        ("state.user?.name = 'x'", "can only assign to a path of state; for example state.items[0].done = true", 1),
        ("len(state.xs) = 1", "can only assign to a path of state; for example state.items[0].done = true", 1),
        ("state.a == 1", "expected '=', '+=' or '-=' after the path, found '=='", 9),
        ("state 1", "expected '=', '+=' or '-=' after state, found '1'", 7),
        ("state.a = 1 state.b = 2", "expected ';' or a new line between statements, found 'state'", 13),
        ("if true state.a = 1", "expected '{' to start the block, found 'state'", 9),
        ("if true { state.a = 1", "expected '}' to close the block, found the end of the input", 22),
        ("{ state.a = 1 } state.b = 2", "expected the end of the statements, found 'state'", 17),
        ("emit 1", "expected the output port to emit on, found '1'", 6),
        ("state.a = ", "expected a value, found the end of the input", 11),
        ("state.a = x => x", "a lambda (x => ...) can only be an argument of a function such as map or filter", 13),
    ])
    func syntaxErrors(_ source: String, _ message: String, _ column: Int) {
        #expect(problem(running: source) == Problem(message, column: column))
    }

    @Test func stateCannotNestWithoutEnd() throws {
        var state: Value = ["a": 0]
        let wrap = try StatementBlock("state.a = [state.a]")
        for _ in 0..<511 { try wrap.execute(state: &state) }
        #expect(state.nestingDepth(upTo: 1000) == 512)
        #expect(problem(running: "state.a = [state.a]", on: state)
            == Problem("the nesting of the state is too large in 'state.a = [state.a]'; the limit is 512", column: 1))
    }

    @Test func tenThousandNestedIfsAreAnErrorNotACrash() {
        let levels = 10_000
        let source = String(repeating: "if true { ", count: levels) + "state.a = 1" + String(repeating: " }", count: levels)
        // Each `if` is a level; the 129th begins at column 128 * 10 + 1.
        #expect(problem(running: source) == Problem("expression nested too deeply; the limit is 128 levels", column: 1281))
        let elseIfs = "if false { }" + String(repeating: " else if false { }", count: levels)
        #expect(problem(running: elseIfs)?.message == "expression nested too deeply; the limit is 128 levels")
        let brackets = "state.a = " + String(repeating: "[", count: levels)
        #expect(problem(running: brackets)?.message == "expression nested too deeply; the limit is 128 levels")
    }
}

@Suite("Statements: appending to a state array in place")
struct AppendInPlaceTests {
    /// Runs `statement` on `state` the way a reducer does and returns the state and its changes.
    private func run(_ statement: String, on state: Value) throws -> (Value, [ValueChange]) {
        let graph = Graph()
        try graph.createStore("s", state: state)
        try graph.addReducer(to: "s", on: "A", body: StatementBlock(statement))
        let step = try #require(try graph.dispatch("s", ["type": "A", "v": 7]))
        return (try graph.storeState("s"), step.changes)
    }

    @Test func anAppendToTheSamePathIsOneAddAtTheEnd() throws {
        let (state, changes) = try run("state.items = append(state.items, action.v)", on: ["items": [1, 2, 3]])
        #expect(state == ["items": [1, 2, 3, 7]])
        #expect(changes == [ValueChange(path: [.key("items"), .index(3)], operation: .add, old: nil, new: 7)])
    }

    @Test func otherShapesTakeTheGeneralPathWithTheSameResult() throws {
        let (other, _) = try run("state.items = append(state.other, action.v)", on: ["items": [1], "other": [5]])
        #expect(other == ["items": [5, 7], "other": [5]])
        let notArray = Graph()
        try notArray.createStore("s", state: ["items": "x"])
        try notArray.addReducer(to: "s", on: "A", body: StatementBlock("state.items = append(state.items, 1)"))
        #expect { try notArray.dispatch("s", ["type": "A"]) } throws: { "\($0)".contains("argument 1 must be an array") }
        #expect(try notArray.storeState("s") == ["items": "x"])
    }
}
