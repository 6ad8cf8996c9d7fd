import Foundation
import PatchbayCore
import Testing

/// The library example of the Dataflow article (`PatchbayHost.docc/Dataflow.md`, "The engine in
/// Swift"), line for line, with what its comments say it prints.
@Suite("Dataflow article's library example")
struct DataflowArticleExampleTests {
    @Test func aTypedStore() throws {
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
    }

    /// The article shows the code above: each of its lines that prints nothing is here as it is,
    /// without its comment (a line that prints is here with `counts.append` or an expectation).
    @Test func theArticleShowsThisCode() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let article = try String(contentsOf: root.appendingPathComponent("Sources/PatchbayHost/PatchbayHost.docc/Dataflow.md"), encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let sourceLines = Set(source.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        let blocks = article.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        let example = try #require(blocks.first { $0.contains("let store = Store(") }, "the article has no library example")
        // Without the comments that say what a line prints.
        let lines = example.split(separator: "\n")
            .map { line in (line.range(of: " //").map { line[..<$0.lowerBound] } ?? line).trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        #expect(lines.count >= 8)
        for line in lines where !line.contains("print(") {
            #expect(sourceLines.contains(line), "the article's '\(line)' is not in the test")
        }
    }
}
