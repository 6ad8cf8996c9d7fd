@_spi(Shell) import PatchbayCore
import Testing

@Suite struct StoreStepTests {
    let entry = StoreStep<ValueChange>(store: "app", index: 1, action: ["type": "Rename", "name": "Max"], changes: [ValueChange(path: [.key("user"), .key("name")], operation: .replace, old: "unknown", new: "Max")])

    @Test func aStepTouchesItsPathsTheirParentsAndTheirChildren() {
        #expect(entry.touches([.key("user"), .key("name")]))
        #expect(entry.touches([.key("user")]))
        #expect(entry.touches([]))
        #expect(entry.touches([.key("user"), .key("name"), .index(0)]))
    }

    @Test func aStepDoesNotTouchSiblings() {
        #expect(!entry.touches([.key("user"), .key("email")]))
        #expect(!entry.touches([.key("items")]))
    }

    @Test func theTypeComesFromTheAction() {
        #expect(entry.type == "Rename")
        #expect(StoreStep<ValueChange>(store: "app", index: 2, action: ["kind": 1], changes: []).type == "?")
    }

    @Test func itsChangesChangeFormAndTheRestStays() {
        var skipped = entry
        skipped.skipped = true
        skipped.cause = 7
        let other = skipped.withChanges(["a", "b"])
        #expect(other.changes == ["a", "b"])
        #expect(other.withChanges(skipped.changes) == skipped)
        #expect(entry.recordedChanges == entry.changes)
        var unrecorded = entry
        unrecorded.unrecorded = true
        #expect(unrecorded.recordedChanges == nil)
    }
}
