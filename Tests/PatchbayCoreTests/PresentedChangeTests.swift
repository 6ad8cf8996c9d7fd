import PatchbayCore
import Testing

// `Value.presented(_:to:identity:)`: the positional changes of a patch as people read them, the
// elements of arrays of objects matched by an identity key; the patch itself is not changed.

private func items(_ ids: [Int], qty: [Int: Int] = [:]) -> Value {
    ["items": .array(ids.map { ["id": .int($0), "qty": .int(qty[$0] ?? 1)] })]
}

private func presented(_ old: Value, _ new: Value, key: String? = "id") -> [PresentedChange] {
    old.presented(old.changes(to: new), to: new, identity: key)
}

@Suite("Presented changes: array elements by identity")
struct PresentedChangeTests {
    @Test func aRemovalAndAnInsertionAreOneEach() {
        let old = items(Array(1...15)), new = items(Array(2...16))
        #expect(old.changes(to: new).count == 15)
        #expect(presented(old, new) == [
            .change(ValueChange(path: [.key("items"), .index(14)], operation: .add, old: nil, new: ["id": 16, "qty": 1])),
            .change(ValueChange(path: [.key("items"), .index(0)], operation: .remove, old: ["id": 1, "qty": 1], new: nil)),
        ])
    }

    @Test func anElementChangedAfterARemovalIsAtItsNewIndex() {
        let result = presented(items([1, 2, 3]), items([2, 3], qty: [3: 5]))
        #expect(result.map(\.pathText) == ["items[1].qty", "items[0]"])
    }

    @Test func aMovedElementIsOneMove() {
        let result = presented(items([1, 2, 3, 4, 5]), items([2, 3, 4, 5, 1]))
        #expect(result == [.move(array: [.key("items")], from: 0, to: 4, key: "id", id: 1)])
    }

    @Test func withoutAKeyOrWithoutIDsTheChangesAreAsTheyAre() {
        let old = items([1, 2, 3]), new = items([3, 2, 1])
        #expect(presented(old, new, key: nil) == old.changes(to: new).map(PresentedChange.change))
        let plain: Value = ["a": [["n": 1], ["n": 2]]], reversed: Value = ["a": [["n": 2], ["n": 1]]]
        #expect(presented(plain, reversed) == plain.changes(to: reversed).map(PresentedChange.change))
    }

    @Test func theLongestIncreasingRunKeepsThoseAtTheirRank() {
        #expect(Value.longestIncreasing([0, 1, 2]) == [0, 1, 2])
        #expect(Value.longestIncreasing([2, 1, 0]) == [1])
        #expect(Value.longestIncreasing([1, 2, 3, 4, 0]).count == 4)
    }

    @Test func anIdentityPathFollowsTheElement() throws {
        let now = items([2, 3], qty: [3: 7])
        let path = try #require(IdentityPath([.key("items"), .index(1), .key("qty")], in: now, identity: "id"))
        #expect(path.watched == [.key("items")])
        #expect(path.value(in: items([1, 2, 3], qty: [3: 5])) == 5)
        #expect(path.value(in: items([1, 2])) == nil)
        #expect(IdentityPath([.key("items"), .index(0)], in: ["items": [1, 2]], identity: "id") == nil)
    }
}
