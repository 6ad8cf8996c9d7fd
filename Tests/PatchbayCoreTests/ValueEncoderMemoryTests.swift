@_spi(Shell) @testable import PatchbayCore
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

    /// A state with arrays of `Equatable` elements in several places: at the root, in a nested
    /// struct, under dictionary keys, in an optional, and as elements of enums.
    struct Shelf: Codable, Equatable {
        enum Mode: Codable, Equatable { case idle, picking([Item]), done(count: Int) }
        struct Section: Codable, Equatable { var title: String; var items: [Item] }
        var items: [Item] = []
        var section = Section(title: "s", items: [])
        var lanes: [String: [Item]] = [:]
        var pinned: [Item]?
        var mode = Mode.idle
        var count = 0
    }

    /// One random edit of `shelf`.
    private static func edit(_ shelf: inout Shelf, _ random: inout SplitMix64, step: Int) {
        func item() -> Item { Item(id: random.int(0...9), tags: random.chance(30) ? ["t\(step)"] : [], note: random.chance(20) ? "n" : nil) }
        func editArray(_ items: inout [Item]) {
            switch random.int(0...5) {
            case 0: items.insert(item(), at: random.int(0...items.count))
            case 1 where !items.isEmpty: items.remove(at: random.int(0...items.count - 1))
            case 2 where items.count > 1: items.insert(items.remove(at: random.int(0...items.count - 1)), at: random.int(0...items.count - 1))
            case 3 where !items.isEmpty: items[random.int(0...items.count - 1)].tags.append("x")
            case 4: items.append(contentsOf: (0..<random.int(0...3)).map { _ in item() })
            default: if !items.isEmpty { items[random.int(0...items.count - 1)].id += 1 }
            }
        }
        switch random.int(0...7) {
        case 0, 1: editArray(&shelf.items)
        case 2: editArray(&shelf.section.items)
        case 3: editArray(&shelf.lanes["lane\(random.int(0...2))", default: []])
        case 4: if shelf.pinned == nil || random.chance(20) { shelf.pinned = random.chance(50) ? [] : nil } else { editArray(&shelf.pinned!) }
        case 5:
            if case .picking(var items) = shelf.mode, random.chance(70) {
                editArray(&items)
                shelf.mode = .picking(items)
            } else {
                shelf.mode = random.pick([.idle, .picking([item()]), .done(count: step)])
            }
        case 6: shelf.section.title = "s\(random.int(0...3))"
        default: shelf.lanes["lane\(random.int(0...2))"] = nil
        }
        shelf.count += 1
    }

    /// Random edits, each encoded from the last encoding with `encode(_:memory:replacing:)`: the
    /// value is what a plain encoder gives, and the changes are exactly those `changes(to:)`
    /// finds between plain encodings of the two states (which apply to give the new one).
    @Test func encodingInPlaceGivesThePlainValueAndChanges() throws {
        let seed = TestBudget.seed(default: 0x1A_2026)
        let runs = TestBudget.count("PATCHBAY_ENCODER_RUNS", default: 40)
        for run in 0..<runs {
            var random = SplitMix64(seed: SplitMix64.seed(seed, run: run))
            let memory = ValueEncoder.Memory()
            var shelf = Shelf(items: (0..<random.int(0...8)).map { Item(id: $0, tags: [], note: nil) })
            var current = try ValueEncoder().encode(shelf, memory: memory)
            for step in 0..<60 {
                let before = shelf
                Self.edit(&shelf, &random, step: step)
                let (value, changes) = try ValueEncoder().encode(shelf, memory: memory, replacing: consume current)
                current = value
                let old = try ValueEncoder().encode(before), new = try ValueEncoder().encode(shelf)
                #expect(Value.isIdentical(value, new), "seed \(seed) run \(run) step \(step)")
                #expect(changes == old.changes(to: new), "seed \(seed) run \(run) step \(step): \(before) -> \(shelf)")
                var applied = old
                for change in changes { try applied.apply(change) }
                #expect(Value.isIdentical(applied, new))
                if changes != old.changes(to: new) || !Value.isIdentical(value, new) { return }
            }
        }
    }

    /// A history made by random edits (each encoded in place, its changes kept), then travelled
    /// at random as the shell's `jump` does: the state at the target step rebuilt from the
    /// current one by applying or undoing the steps' changes, decoded with the memory, and
    /// encoded again with it. The decoded state is the state the edits made at that step.
    @Test func decodingWithTheMemoryGivesTheStatesOfTheHistory() throws {
        let seed = TestBudget.seed(default: 0x1B_2026)
        let runs = TestBudget.count("PATCHBAY_ENCODER_RUNS", default: 40)
        for run in 0..<runs {
            var random = SplitMix64(seed: SplitMix64.seed(seed, run: run))
            let memory = ValueEncoder.Memory()
            var shelf = Shelf(items: (0..<random.int(0...8)).map { Item(id: $0, tags: [], note: nil) })
            var states = [shelf]
            var steps: [[(change: ValueChange, position: Int?)]] = []
            var current = try ValueEncoder().encode(shelf, memory: memory)
            for step in 0..<40 {
                Self.edit(&shelf, &random, step: step)
                let before = current
                let (value, changes) = try ValueEncoder().encode(shelf, memory: memory, replacing: consume current)
                current = value
                steps.append(changes.map { ($0, before.keyPosition(at: $0.path)) })
                states.append(shelf)
            }
            var index = states.count - 1
            for jump in 0..<30 {
                let target = random.int(0...states.count - 1)
                while index > target {
                    for (change, position) in steps[index - 1].reversed() { try current.undo(change, position: position) }
                    index -= 1
                }
                while index < target {
                    for (change, _) in steps[index] { try current.apply(change) }
                    index += 1
                }
                let decoded = try ValueDecoder().decode(Shelf.self, from: current, memory: memory)
                #expect(decoded == states[target], "seed \(seed) run \(run) jump \(jump) to \(target)")
                if decoded != states[target] { return }
                current = try ValueEncoder().encode(decoded, memory: memory)
            }
        }
    }

    /// Going back one step of 1,000 items decodes the item it changed: the other items are the
    /// memory's own, the same storage as before.
    @Test func decodingWithTheMemoryTakesOverTheUnchangedItems() throws {
        let memory = ValueEncoder.Memory()
        var board = Board(items: (0..<1_000).map { Item(id: $0, tags: ["t"], note: nil) })
        var current = try ValueEncoder().encode(board, memory: memory)
        let first = board
        board.items[500].tags.append("changed")
        let before = current
        let (value, changes) = try ValueEncoder().encode(board, memory: memory, replacing: consume current)
        current = value
        for change in changes.reversed() { try current.undo(change, position: before.keyPosition(at: change.path)) }
        let decoded = try ValueDecoder().decode(Board.self, from: current, memory: memory)
        #expect(decoded == first)
        decoded.items.withUnsafeBufferPointer { decodedItems in
            board.items.withUnsafeBufferPointer { liveItems in
                #expect(_SameBytes.equal(decodedItems.baseAddress! + 499, liveItems.baseAddress! + 499), "an unchanged item is the memory's own")
            }
        }
    }

    /// "Update one item" changes the encoded array in place: its storage stays where it was.
    @Test func anItemUpdatedChangesTheEncodedArrayInPlace() throws {
        let memory = ValueEncoder.Memory()
        var board = Board(items: (0..<1_000).map { Item(id: $0, tags: [], note: nil) })
        var current = try ValueEncoder().encode(board, memory: memory)
        func address(_ value: Value) -> UnsafeRawPointer? {
            guard case .array(let elements)? = value["items"] else { return nil }
            return elements.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
        }
        let before = address(current)
        board.items[500].tags.append("changed")
        let (value, changes) = try ValueEncoder().encode(board, memory: memory, replacing: consume current)
        current = value
        #expect(address(current) == before)
        #expect(changes.map(\.pathText) == ["items[500].tags[0]"])
    }
}
