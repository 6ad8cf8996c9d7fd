@_spi(Shell) import PatchbayCore
import Testing

/// Keeps the records a store tells its observers.
private final class RecordKeeper: StoreObserver {
    var records: [DispatchRecord<Int, Int>] = []

    func store(didReduce record: DispatchRecord<Int, Int>) {
        records.append(record)
    }
}

@Suite struct CallSiteTests {
    private static var adding: Reducer<Int, Int> { Reducer { state, action in state += action } }

    @Test func aDispatchRecordsTheFileAndLineThatCalledIt() {
        let store = Store(initialState: 0, reducer: Self.adding)
        let keeper = RecordKeeper()
        let connection = store.addObserver(keeper)
        defer { connection.disconnect() }

        let line = #line; store.dispatch(2)

        #expect(keeper.records.map(\.site) == [CallSite(file: "PatchbayCoreTests/CallSiteTests.swift", line: line)])
        #expect(keeper.records.first?.site == CallSite(file: #fileID, line: line))
    }

    @Test func anActionAMiddlewareDispatchesHasTheMiddlewaresLineAndItsCause() {
        var followUpLine = 0
        let doubling = Middleware<Int, Int> { action, context in
            if action == 1 { followUpLine = #line; context.dispatch(10) }
            return action
        }
        let store = Store(initialState: 0, reducer: Self.adding, middleware: [doubling])
        let keeper = RecordKeeper()
        let connection = store.addObserver(keeper)
        defer { connection.disconnect() }

        let line = #line; store.dispatch(1)

        #expect(keeper.records.map(\.action) == [1, 10])
        #expect(keeper.records.map(\.site.line) == [line, followUpLine])
        #expect(keeper.records.map(\.cause) == [nil, 1])
    }

    @Test(arguments: [
        ("TodoApp/TodoList.swift:42", CallSite(file: "TodoApp/TodoList.swift", line: 42)),
        ("C:/odd:name.swift:7", CallSite(file: "C:/odd:name.swift", line: 7)),
    ])
    func aSiteReadsBackFromWhatItWrites(text: String, site: CallSite) {
        #expect(CallSite(text) == site)
        #expect(site.description == text)
    }

    @Test(arguments: ["", "TodoList.swift", ":42", "TodoList.swift:", "TodoList.swift:0", "TodoList.swift:-3", "TodoList.swift:4x",
                      "TodoList.swift:+4", "TodoList.swift:042", "TodoList.swift:99999999999999999999"])
    func textThatIsNotFileColonLineIsNoSite(text: String) {
        #expect(CallSite(text) == nil)
    }

    @Test func aStepKeepsItsSiteWhenItsChangesChangeForm() {
        let site = ActionSite.source(CallSite(file: "App/A.swift", line: 3))
        let step = StoreStep<ValueChange>(store: "app", index: 1, action: ["type": "A"], changes: [], site: site)
        #expect(step.withChanges([Int]()).site == site)
        #expect(ActionSite.shell(["dispatch app A"]).callSite == nil)
        #expect(site.callSite == CallSite(file: "App/A.swift", line: 3))
    }
}
