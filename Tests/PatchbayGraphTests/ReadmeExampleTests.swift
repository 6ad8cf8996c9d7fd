import Foundation
import PatchbayCore
import PatchbayGraph
import Testing

/// The library example of the Dataflow article (`PatchbayHost.docc/Dataflow.md`, "The engine in
/// Swift"), line for line, with what its comments say it prints.
@Suite("Dataflow article's library example")
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

    /// The article shows the code above: each of its lines that prints nothing is here as it is,
    /// without its comment (a line that prints is here with `printed.append`, `counts.append` or
    /// an expectation).
    @Test func theArticleShowsThisCode() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let article = try String(contentsOf: root.appendingPathComponent("Sources/PatchbayHost/PatchbayHost.docc/Dataflow.md"), encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let sourceLines = Set(source.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        let blocks = article.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        let example = try #require(blocks.first { $0.contains("let engine = Engine()") }, "the article has no library example")
        // Without the comments that say what a line prints.
        let lines = example.split(separator: "\n")
            .map { line in (line.range(of: " //").map { line[..<$0.lowerBound] } ?? line).trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        #expect(lines.count > 20)
        for line in lines where !line.contains("print(") {
            #expect(sourceLines.contains(line), "the article's '\(line)' is not in the test")
        }
    }
}
