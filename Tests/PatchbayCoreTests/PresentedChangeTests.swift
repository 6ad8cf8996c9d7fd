@_spi(Shell) import PatchbayCore
import PatchbayTestSupport
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

    /// The shortcut that shows changes as they are without the states when no element can have
    /// changed place (one item of 100,000 changed) gives what matching every array does, on
    /// random edits of arrays of objects with ids, nested, duplicated and id-less ones included.
    @Test func theShortcutAgreesWithMatchingEveryArray() {
        let seed = TestBudget.seed(default: 0x1D)
        let runs = TestBudget.count("PATCHBAY_PRESENTED_RUNS", default: 3_000)
        for run in 0..<runs {
            var random = SplitMix64(seed: SplitMix64.seed(seed, run: run))
            let old = RandomIdentityArrays.state(&random)
            let new = RandomIdentityArrays.edited(old, &random)
            let changes = old.changes(to: new)
            let quick = old.presented(changes, to: new, identity: "id", shortcut: true)
            let full = old.presented(changes, to: new, identity: "id", shortcut: false)
            #expect(quick == full, "seed \(seed) run \(run): \(old) -> \(new)")
            if quick != full { return }
        }
    }
}

/// Random states `{items: [{id, qty, tags: [{id, n}]}]}` for the presentation's shortcut, and
/// random edits of them: elements inserted, removed, moved, changed inside, their ids changed.
private enum RandomIdentityArrays {
    static func state(_ random: inout SplitMix64) -> Value {
        ["items": .array((0..<random.int(0...6)).map { element(id: $0, &random) })]
    }

    static func element(id: Int, _ random: inout SplitMix64) -> Value {
        var members: Value.Members = [:]
        if !random.chance(5) { members["id"] = .int(id) }
        members["qty"] = .int(random.int(0...3))
        members["tags"] = .array((0..<random.int(0...3)).map { ["id": .int($0), "n": .int(random.int(0...2))] })
        return .object(members)
    }

    static func edited(_ state: Value, _ random: inout SplitMix64) -> Value {
        guard case .object(var root) = state, case .array(var items)? = root["items"] else { return state }
        for _ in 0..<random.int(1...3) {
            switch random.int(0...5) {
            case 0: items.insert(element(id: 100 + random.int(0...9), &random), at: random.int(0...items.count))
            case 1 where !items.isEmpty: items.remove(at: random.int(0...items.count - 1))
            case 2 where items.count > 1: items.insert(items.remove(at: random.int(0...items.count - 1)), at: random.int(0...items.count - 1))
            case 3 where !items.isEmpty: items[random.int(0...items.count - 1)] = edited(element: items[random.int(0...items.count - 1)], &random)
            case 4 where !items.isEmpty:
                let index = random.int(0...items.count - 1)
                items[index] = edited(element: items[index], &random)
            default: if !items.isEmpty { items[random.int(0...items.count - 1)] = element(id: random.int(0...9), &random) }
            }
        }
        root["items"] = .array(items)
        return .object(root)
    }

    static func edited(element: Value, _ random: inout SplitMix64) -> Value {
        guard case .object(var members) = element else { return element }
        switch random.int(0...3) {
        case 0: members["qty"] = .int(random.int(0...5))
        case 1: members["id"] = .int(random.int(0...9))
        case 2:
            if case .array(var tags)? = members["tags"], !tags.isEmpty {
                tags.swapAt(0, tags.count - 1)
                members["tags"] = .array(tags)
            }
        default: members["tags"] = .array([["id": .int(random.int(0...3)), "n": 1]])
        }
        return .object(members)
    }
}
