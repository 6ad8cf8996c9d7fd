@testable import PatchbayCore
import PatchbayTestSupport
import Testing

/// `ValueEncoder.encode(_:memory:)`: equal parts take over last time's encoding; the result is
/// always what a plain encoding gives.
@Suite("ValueEncoder memory")
struct ValueEncoderMemoryTests {
    struct Item: Codable, Equatable {
        var id: Int
        var tags: [String]
        var note: String?
    }

    struct Board: Codable, Equatable {
        var owner = "Max"
        var items: [Item] = []
        var lanes: [String: [Item]] = [:]
        var ratio = 0.5
    }

    /// Not `Equatable`: never taken over, always encoded again.
    struct Opaque: Codable { var items: [Item] }

    @Test func unchangedPartsAreTakenOverWithTheirStorage() throws {
        let memory = ValueEncoder.Memory()
        var board = Board(items: (1...10).map { Item(id: $0, tags: ["t\($0)"]) })
        let first = try ValueEncoder().encode(board, memory: memory)
        board.items[3].tags.append("changed")
        let second = try ValueEncoder().encode(board, memory: memory)
        #expect(second == (try ValueEncoder().encode(board)))
        guard case .array(let before)? = first["items"], case .array(let after)? = second["items"] else {
            Issue.record("items is not an array")
            return
        }
        for index in before.indices {
            #expect(before[index].sharesStorage(with: after[index]) == (index != 3), "item \(index)")
        }
        #expect(first.changes(to: second).map(\.pathText) == ["items[3].tags[1]"])
    }

    @Test func partsThatAreNotEquatableAreEncodedAgain() throws {
        let memory = ValueEncoder.Memory()
        let opaque = Opaque(items: [Item(id: 1, tags: [])])
        let first = try ValueEncoder().encode(opaque, memory: memory)
        let second = try ValueEncoder().encode(opaque, memory: memory)
        #expect(first == second)
        // The Opaque itself is encoded again; its Equatable items are taken over.
        #expect(!first.sharesStorage(with: second))
        #expect(first["items"]?.sharesStorage(with: second["items"] ?? .null) == true)
    }

    @Test func aFailedEncodingEmptiesTheMemory() throws {
        struct Reading: Codable, Equatable { var value: Double }
        let memory = ValueEncoder.Memory()
        _ = try ValueEncoder().encode([Reading(value: 1)], memory: memory)
        #expect(throws: ValueCodingError.self) { try ValueEncoder().encode([Reading(value: .nan)], memory: memory) }
        #expect(try ValueEncoder().encode([Reading(value: 2)], memory: memory) == [["value": 2.0]])
    }

    /// Random edits of a board, each encoded with the memory and without: always the same value.
    @Test func aRandomRunEncodesAsAPlainEncoderDoes() throws {
        var random = SplitMix64(seed: 0x5EED_2026)
        let memory = ValueEncoder.Memory()
        var board = Board()
        for step in 0..<2_000 {
            switch random.next() % 7 {
            case 0: board.items.append(Item(id: step, tags: [], note: random.next() % 2 == 0 ? nil : "n\(step)"))
            case 1: if !board.items.isEmpty { board.items.remove(at: Int(random.next() % UInt64(board.items.count))) }
            case 2: if !board.items.isEmpty { board.items[Int(random.next() % UInt64(board.items.count))].tags.append("x\(step)") }
            case 3: board.lanes["lane\(random.next() % 4)", default: []].append(Item(id: step, tags: ["l"]))
            case 4: board.lanes["lane\(random.next() % 4)"] = nil
            case 5: board.owner = "owner\(random.next() % 3)"
            default: board.ratio = Double(random.next() % 100) / 8
            }
            let remembered = try ValueEncoder().encode(board, memory: memory)
            let plain = try ValueEncoder().encode(board)
            #expect(Value.isIdentical(remembered, plain), "step \(step)")
            if !Value.isIdentical(remembered, plain) { return }
        }
    }
}
