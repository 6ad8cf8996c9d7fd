@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayRecorder
@_spi(Shell) import PatchbayHistory
import PatchbayTestSupport
import Testing

@Suite struct StateDigestTests {
    @Test func theOrderOfKeysDoesNotCount() {
        #expect(StateDigest(["a": 1, "b": [2, 3]]) == StateDigest(["b": [2, 3], "a": 1]))
    }

    @Test func everythingElseCounts() {
        let digests = [
            StateDigest(["a": 1]), StateDigest(["a": 1.0]), StateDigest(["a": "1"]), StateDigest(["a": true]), StateDigest(["a": nil]),
            StateDigest(["a": []]), StateDigest(["a": [:]]), StateDigest([:]), StateDigest([]), StateDigest(["b": 1]),
            StateDigest(["a": [1, 2]]), StateDigest(["a": [2, 1]]), StateDigest(["a": ["b": 1]]), StateDigest(["a": [1]]),
            StateDigest(["a": 1, "b": 2]), StateDigest(["a": 2, "b": 1]), StateDigest(["ab": 1]), StateDigest(["a": ["": 1]]),
            StateDigest(["a": [[]]]), StateDigest(["a": [[:]]]), StateDigest(nil), StateDigest(0), StateDigest(""),
        ]
        #expect(Set(digests).count == digests.count)
    }

    @Test func appendingAndRemovingAtTheEndKeepsTheDigestOfTheWholeState() throws {
        var state: Value = ["items": [], "n": 0]
        var digest = StateDigest(state)
        for element in 0..<50 {
            let change = ValueChange(path: [.key("items"), .index(element)], operation: .add, old: nil, new: ["v": .int(element)])
            try state.apply(change)
            digest.apply([change], after: state)
            #expect(digest == StateDigest(state))
        }
        for element in (40..<50).reversed() {
            let change = ValueChange(path: [.key("items"), .index(element)], operation: .remove, old: ["v": .int(element)], new: nil)
            try state.apply(change)
            digest.apply([change], after: state)
            #expect(digest == StateDigest(state))
        }
        // In the middle, the elements after it move: still the digest of the whole state.
        let inserted = ValueChange(path: [.key("items"), .index(3)], operation: .add, old: nil, new: "x")
        try state.apply(inserted)
        digest.apply([inserted], after: state)
        #expect(digest == StateDigest(state))
    }

    @Test func negativeZeroIsZero() {
        #expect(StateDigest(["a": .decimal(-0.0)]) == StateDigest(["a": .decimal(0.0)]))
    }

    @Test func theTextIsSixteenLowercaseHexDigits() throws {
        let digest = StateDigest(["count": 2])
        #expect(digest.text.count == 16)
        #expect(digest.text.allSatisfy { "0123456789abcdef".contains($0) })
        #expect(StateDigest(text: digest.text) == digest)
        #expect(StateDigest(text: digest.text.uppercased()) == digest)
        #expect(digest.description == digest.text)
        #expect(StateDigest(text: "123") == nil)
        #expect(StateDigest(text: "+123456789abcdef") == nil)
        #expect(StateDigest(text: "0123456789abcdeg") == nil)
        #expect(StateDigest(text: "0000000000000001")?.text == "0000000000000001")
    }

    @Test func aReplacementUpdatesTheDigest() {
        let before: Value = ["count": 1, "user": ["name": "unknown"]]
        let after: Value = ["count": 2, "user": ["name": "Max", "age": 3]]
        var digest = StateDigest(before)
        digest.apply(before.changes(to: after), after: after)
        #expect(digest == StateDigest(after))
    }

    @Test func anInsertInTheMiddleOfAnArrayUpdatesTheDigest() {
        let before: Value = ["items": ["a", "b", "c"], "n": 1]
        let after: Value = ["items": ["a", "x", "b", "c"], "n": 1]
        var digest = StateDigest(before)
        digest.apply([ValueChange(path: [.key("items"), .index(1)], operation: .add, old: nil, new: "x")], after: after)
        #expect(digest == StateDigest(after))
    }

    @Test func changesInsideAndAboveAMovedArrayInOneStep() throws {
        let before: Value = ["a": ["list": [1, 2, 3], "k": 0], "z": [[1], [2]]]
        let changes = [
            ValueChange(path: [.key("a"), .key("list"), .index(0)], operation: .remove, old: 1, new: nil),
            ValueChange(path: [.key("a"), .key("list"), .index(1)], operation: .replace, old: 3, new: 30),
            ValueChange(path: [.key("a")], operation: .replace, old: ["list": [2, 30], "k": 0], new: ["list": [7]]),
            ValueChange(path: [.key("a"), .key("list"), .index(1)], operation: .add, old: nil, new: 8),
            ValueChange(path: [.key("z"), .index(1), .index(0)], operation: .replace, old: 2, new: 20),
            ValueChange(path: [.key("z"), .index(0)], operation: .remove, old: [1], new: nil),
            ValueChange(path: [.key("z"), .index(0), .index(1)], operation: .add, old: nil, new: 21),
        ]
        var after = before
        for change in changes { try after.apply(change) }
        #expect(after == ["a": ["list": [7, 8]], "z": [[20, 21]]])
        var digest = StateDigest(before)
        digest.apply(changes, after: after)
        #expect(digest == StateDigest(after))
    }

    @Test func anEmptyStepChangesNothing() {
        var digest = StateDigest(["a": 1])
        digest.apply([], after: ["a": 1])
        #expect(digest == StateDigest(["a": 1]))
    }

    @Test func theIncrementalDigestMatchesTheDigestOfTheState() throws {
        for seed in 0..<40 {
            var generator = ValueGenerator(seed: UInt64(seed))
            var state = generator.value(depth: 4)
            var digest = StateDigest(state)
            for _ in 0..<60 {
                var changes: [ValueChange] = []
                for _ in 0..<generator.int(1..<6) {
                    guard let change = generator.change(of: state) else { continue }
                    try state.apply(change)
                    changes.append(change)
                }
                digest.apply(changes, after: state)
                #expect(digest == StateDigest(state), "seed \(seed)")
            }
        }
    }

    @Test func theDigestFollowsTheChangesAStoreReports() {
        var generator = ValueGenerator(seed: 99)
        var state = generator.value(depth: 4)
        var digest = StateDigest(state)
        for _ in 0..<500 {
            var next = state
            if let change = generator.change(of: state) { try? next.apply(change) }
            if let change = generator.change(of: next) { try? next.apply(change) }
            digest.apply(state.changes(to: next), after: next)
            #expect(digest == StateDigest(next))
            state = next
        }
    }
}
