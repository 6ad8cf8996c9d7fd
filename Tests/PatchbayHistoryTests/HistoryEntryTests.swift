@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayRecorder
@_spi(Shell) import PatchbayHistory
import Testing

@Suite struct HistoryEntryTests {
    let entry = StoreStep<ValueChange>(store: "the store", index: 1, action: ["type": "Rename", "name": "Max"], changes: [ValueChange(path: [.key("user"), .key("name")], operation: .replace, old: "unknown", new: "Max")])

    @Test func anEntryTouchesItsPathsTheirParentsAndTheirChildren() {
        #expect(entry.touches([.key("user"), .key("name")]))
        #expect(entry.touches([.key("user")]))
        #expect(entry.touches([]))
        #expect(entry.touches([.key("user"), .key("name"), .index(0)]))
    }

    @Test func anEntryDoesNotTouchSiblings() {
        #expect(!entry.touches([.key("user"), .key("email")]))
        #expect(!entry.touches([.key("items")]))
    }

    @Test func theTypeComesFromTheAction() {
        #expect(entry.type == "Rename")
        #expect(StoreStep<ValueChange>(store: "the store", index: 2, action: ["kind": 1], changes: []).type == "?")
    }
}
