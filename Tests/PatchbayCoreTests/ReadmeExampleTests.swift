import PatchbayCore
import PatchbayGraph
import Testing

/// The README's library example, line for line, with what its comments say it prints.
@Suite("README library example")
struct ReadmeExampleTests {
    @Test func typedValuesTransactionsStoresAndStatements() throws {
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

        struct Counter { var count = 0 }
        enum CounterAction { case increment(by: Int) }
        let store = Store(initialState: Counter(), reducer: Reducer<Counter, CounterAction> { state, action in
            switch action { case .increment(let by): state.count += by }
        })
        var counts: [Int] = []
        let subscription = store.subscribe(select: \.count) { counts.append($0) }
        store.dispatch(.increment(by: 2))
        #expect(counts == [0, 2])
        withExtendedLifetime(subscription) {}

        let reducer = try StatementBlock("state.count += action.by; if state.count > 9 { state.big = true }")
        var state: Value = ["count": 8]
        try reducer.execute(state: &state, bindings: Bindings(action: ["by": 2]))
        #expect(state.description == "{count: 10, big: true}")

        let total = try Expression("reduce(state.items, 0, (acc, x) => acc + x)")
        #expect(try total.evaluate(Bindings(state: ["items": [1, 2, 3]])) == 6)
    }
}
