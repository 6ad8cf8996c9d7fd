@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
import Testing

/// The shell's engine and expression language used from Swift, as the shell uses them: a typed
/// variable through a transaction, and a statement and an expression on values.
@Suite("The engine in Swift")
struct EngineExampleTests {
    @Test func typedValuesTransactionsAndStatements() throws {
        var printed: [String] = []
        let engine = Engine()
        let count = Variable(0, in: engine)
        let label = count.map { "count is \($0)" }
        let connection = label.subscribe { printed.append($0) }
        engine.transaction {
            count.value = 1
            count.value = 2
        }
        #expect(printed == ["count is 0", "count is 2"])
        withExtendedLifetime(connection) {}

        let reducer = try StatementBlock("state.count += action.by; if state.count > 9 { state.big = true }")
        var state: Value = ["count": 8]
        try reducer.execute(state: &state, bindings: Bindings(action: ["by": 2]))
        #expect(state.description == "{count: 10, big: true}")

        let total = try Expression("reduce(state.items, 0, (acc, x) => acc + x)")
        #expect(try total.evaluate(Bindings(state: ["items": [1, 2, 3]])) == 6)
    }
}
