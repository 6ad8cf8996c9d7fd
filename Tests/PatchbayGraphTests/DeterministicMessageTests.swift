@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
import Testing

/// Error messages must not depend on the order of a dictionary's keys, which changes from run to
/// run: the same input gives the same message.
@Suite("Deterministic messages")
struct DeterministicMessageTests {
    @Test func equallyCloseSuggestionsDoNotDependOnTheCandidatesOrder() {
        let candidates = ["baz", "bar", "bat", "bay"]
        #expect(Spelling.closest(to: "bax", among: candidates) == "bar")
        #expect(Spelling.closest(to: "bax", among: candidates.reversed()) == "bar")
        #expect(Spelling.closest(to: "bax", among: ["bar", "baxter"]) == "bar")
        #expect(Spelling.closest(to: "counter", among: ["countr", "counter"]) == "countr")
    }

    @Test func anUnknownNameSuggestsTheSameNameWhateverTheEnvironmentsOrder() throws {
        struct Names: ExpressionEnvironment {
            var knownNames: [String]
            func lookup(name: String) -> NameLookup { knownNames.contains(name) ? .value(1) : .unknown }
        }
        let names = ["totalB", "totalA", "totals"]
        var messages: Set<String> = []
        for order in [names, names.reversed(), [names[2], names[0], names[1]]] {
            do {
                _ = try Expression("totalX + 1").evaluate(in: Names(knownNames: order))
                Issue.record("totalX is unknown")
            } catch {
                messages.insert(error.message(in: "totalX + 1"))
            }
        }
        #expect(messages == ["unknown name 'totalX'; did you mean 'totalA'?"])
    }
}
