@_spi(Shell) @testable import PatchbayCore
import Testing

// Sets and dictionaries iterate in Swift's hash order, which differs from process to process
// and with a collection's capacity: encoded (or reflected) as values, they come in one
// canonical order instead, so that the same state always gives the same value.

private enum Color: String, Codable, Hashable { case red, green, blue }

private struct Point: Codable, Hashable {
    var x: Int
    var y: Int
}

private struct Tags: Codable, Equatable {
    var seen: Set<String>
    var counts: [String: Int]
    var byID: [Int: String]
    var byColor: [Color: Int]
}

private let words = ["kiwi", "alpha", "mango", "beta", "fig", "delta", "cherry", "gamma", "apple", "echo", "lime", "zulu"]

/// The same set content, built in different insertion orders and with different capacities:
/// Swift iterates them in different orders.
private func sameSetsBuiltDifferently() -> [Set<String>] {
    var small = Set<String>()
    for word in words { small.insert(word) }
    var large = Set<String>(minimumCapacity: 4_096)
    for word in words.reversed() { large.insert(word) }
    var grownAndShrunk = Set<String>((0..<500).map { "filler\($0)" })
    for word in words { grownAndShrunk.insert(word) }
    grownAndShrunk.subtract((0..<500).map { "filler\($0)" })
    return [small, large, grownAndShrunk]
}

@Suite("Canonical order of sets and dictionaries")
struct ValueCanonicalOrderTests {
    @Test func theSameSetEncodesTheSameWhateverItsInsertionOrderAndCapacity() throws {
        let sets = sameSetsBuiltDifferently()
        // The test means something only when Swift's own orders differ (they do for these).
        #expect(Set(sets.map { Array($0) }).count > 1)
        let sorted = Value.array(words.sorted().map { .string($0) })
        for set in sets {
            #expect(try ValueEncoder().encode(set) == sorted)
            #expect(Value(reflecting: set) == sorted)
        }
        #expect(try ValueEncoder().encode(Set([3, -1, 20, 0])) == [-1, 0, 3, 20])
        #expect(try ValueEncoder().encode(Set([Point(x: 2, y: 0), Point(x: 1, y: 5), Point(x: 1, y: 2)]))
            == [["x": 1, "y": 2], ["x": 1, "y": 5], ["x": 2, "y": 0]])
    }

    @Test func dictionariesHaveTheirKeysSortedIntKeysByNumber() throws {
        var counts: [String: Int] = [:]
        for (position, word) in words.enumerated() { counts[word] = position }
        let byID: [Int: String] = [100: "c", 2: "a", 10: "b", -5: "z"]
        let byColor: [Color: Int] = [.red: 1, .green: 2, .blue: 3]
        let value = try ValueEncoder().encode(Tags(seen: [], counts: counts, byID: byID, byColor: byColor))
        guard case .object(let encodedCounts)? = value["counts"], case .object(let encodedIDs)? = value["byID"] else {
            Issue.record("counts and byID are not objects: \(value)")
            return
        }
        #expect(encodedCounts.keys.map(\.string) == words.sorted())
        #expect(Array(encodedIDs.keys) == ["-5", "2", "10", "100"])
        // Keys that are neither String nor Int: Swift's flat [key, value, ...], the pairs by key.
        #expect(value["byColor"] == ["blue", 3, "green", 2, "red", 1])
        // The same through reflection.
        let reflected = Value(reflecting: Tags(seen: [], counts: counts, byID: byID, byColor: byColor))
        guard case .object(let reflectedCounts)? = reflected["counts"], case .object(let reflectedIDs)? = reflected["byID"] else {
            Issue.record("counts and byID are not objects: \(reflected)")
            return
        }
        #expect(reflectedCounts.keys.map(\.string) == words.sorted())
        #expect(Array(reflectedIDs.keys) == ["-5", "2", "10", "100"])
        #expect(reflected["byColor"] == ["blue", 3, "green", 2, "red", 1])
    }

    @Test func theMemoryKeepsTheOrder() throws {
        let memory = ValueEncoder.Memory()
        var state = Tags(seen: [], counts: [:], byID: [:], byColor: [:])
        for word in words {
            state.seen.insert(word)
            state.counts[word] = state.seen.count
            let remembered = try ValueEncoder().encode(state, memory: memory)
            let plain = try ValueEncoder().encode(state)
            #expect(remembered == plain)
            #expect(remembered["seen"] == .array(state.seen.sorted().map { .string($0) }))
        }
        // An equal set built otherwise is taken over, already in order.
        for set in sameSetsBuiltDifferently() {
            state.seen = set
            #expect(try ValueEncoder().encode(state, memory: memory)["seen"] == .array(words.sorted().map { .string($0) }))
        }
    }

    @Test func theCanonicalOrderIsTotalAcrossKinds() {
        let ascending: [Value] = [
            .null, false, true, .int(Int.min), -2.5, -1, .decimal(-0.5), 0, .decimal(0), 0.5, 1, .decimal(1), 1.5, .int(Int.max), .decimal(1e19),
            "", "a", "ab", "b", [], [1], [1, 2], [2], [:], ["a": 1], ["a": 2], ["a": 2, "b": 0], ["b": 0],
        ]
        for (i, a) in ascending.enumerated() {
            for (j, b) in ascending.enumerated() {
                #expect(Value.canonicallyPrecedes(a, b) == (i < j), "\(a) before \(b)")
            }
        }
        // Objects are placed by their members, not by their key order.
        #expect(!Value.canonicallyPrecedes(["a": 1, "b": 2], ["b": 2, "a": 1]))
        #expect(!Value.canonicallyPrecedes(["b": 2, "a": 1], ["a": 1, "b": 2]))
    }
}
