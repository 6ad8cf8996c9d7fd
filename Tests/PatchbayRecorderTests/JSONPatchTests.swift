@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayRecorder
import PatchbayTestSupport
@_spi(Shell) import PatchbayHistory
import Testing

@Suite struct JSONPatchTests {
    @Test func operationsComeFromChanges() {
        let changes = [
            ValueChange(path: [.key("count")], operation: .replace, old: 1, new: 2),
            ValueChange(path: [.key("items"), .index(3)], operation: .add, old: nil, new: "milk"),
            ValueChange(path: [.key("user"), .key("a/b~c")], operation: .remove, old: true, new: nil),
        ]
        let operations = JSONPatch.operations(changes)
        #expect(operations.map(\.op) == [.replace, .add, .remove])
        #expect(operations.map(\.path.description) == ["/count", "/items/3", "/user/a~1b~0c"])
        #expect(operations.map(\.value) == [2, "milk", nil])
    }

    @Test func pointersReadAndWriteTheirEscapes() {
        #expect(JSONPointer("")?.tokens == [])
        #expect(JSONPointer("/")?.tokens == [""])
        #expect(JSONPointer("/a~1b/~0c/~01/2")?.tokens == ["a/b", "~c", "~1", "2"])
        #expect(JSONPointer("/é~1ü//😀/")?.tokens == ["é/ü", "", "😀", ""])
        #expect(JSONPointer("//")?.tokens == ["", ""])
        #expect(JSONPointer("a/b") == nil)
        #expect(JSONPointer("/a~") == nil)
        #expect(JSONPointer("/a~2") == nil)
        #expect(JSONPointer([.key("a/b"), .index(2), .key("")]).description == "/a~1b/2/")
        #expect(JSONPointer([.key("items"), .index(2)]) == JSONPointer("/items/2"))
        #expect(JSONPointer([.key("items"), .index(2)]).hashValue == JSONPointer("/items/2")!.hashValue)
        #expect(JSONPointer([.key("items")]) != JSONPointer("/items/2"))
    }

    @Test func applyingReturnsTheChangesWithTheirOldValues() throws {
        var state: Value = ["count": 1, "items": ["a", "c"], "user": ["name": "unknown", "1": "one"]]
        let operations = [
            JSONPatch.Operation(.replace, path: JSONPointer("/count")!, value: 2),
            JSONPatch.Operation(.add, path: JSONPointer("/items/1")!, value: "b"),
            JSONPatch.Operation(.add, path: JSONPointer("/items/-")!, value: "d"),
            JSONPatch.Operation(.remove, path: JSONPointer("/user/1")!),
            JSONPatch.Operation(.add, path: JSONPointer("/user/name")!, value: "Max"),
        ]
        let changes = try JSONPatch.apply(operations, to: &state)
        #expect(state == ["count": 2, "items": ["a", "b", "c", "d"], "user": ["name": "Max"]])
        #expect(changes == [
            ValueChange(path: [.key("count")], operation: .replace, old: 1, new: 2),
            ValueChange(path: [.key("items"), .index(1)], operation: .add, old: nil, new: "b"),
            ValueChange(path: [.key("items"), .index(3)], operation: .add, old: nil, new: "d"),
            ValueChange(path: [.key("user"), .key("1")], operation: .remove, old: "one", new: nil),
            ValueChange(path: [.key("user"), .key("name")], operation: .replace, old: "unknown", new: "Max"),
        ])
    }

    @Test func theWholeValueCanBeReplaced() throws {
        var state: Value = [1, 2]
        let changes = try JSONPatch.apply([JSONPatch.Operation(.replace, path: JSONPointer([]), value: "x")], to: &state)
        #expect(state == "x")
        #expect(changes == [ValueChange(path: [], operation: .replace, old: [1, 2], new: "x")])
    }

    @Test(arguments: [
        ("/missing/x", ValueChange.Operation.replace, JSONPatchError.Reason.noKey("missing"), ""),
        ("/user/age", .remove, .noKey("age"), "/user"),
        ("/items/5", .replace, .indexOutOfRange(5, count: 2), "/items"),
        ("/items/3", .add, .indexOutOfRange(3, count: 2), "/items"),
        ("/items/-", .remove, .notAnIndex("-"), "/items"),
        ("/items/01", .replace, .notAnIndex("01"), "/items"),
        ("/items/x", .replace, .notAnIndex("x"), "/items"),
        ("/count/x", .add, .notAContainer(typeName: "int"), "/count"),
        ("", .remove, .removeRoot, ""),
    ])
    func aFailedOperationSaysWhereAndWhy(pointer: String, op: ValueChange.Operation, reason: JSONPatchError.Reason, at: String) {
        let before: Value = ["count": 1, "items": ["a", "b"], "user": ["name": "Max"]]
        var state = before
        let operations = [
            JSONPatch.Operation(.replace, path: JSONPointer("/count")!, value: 5),
            JSONPatch.Operation(.remove, path: JSONPointer("/user/name")!),
            JSONPatch.Operation(.add, path: JSONPointer("/user/name")!, value: "Moritz"),
            JSONPatch.Operation(.add, path: JSONPointer("/items/0")!, value: "z"),
            JSONPatch.Operation(.remove, path: JSONPointer("/items/0")!),
            JSONPatch.Operation(op, path: JSONPointer(pointer)!, value: 0),
        ]
        #expect(throws: JSONPatchError(index: 5, operation: operations[5], at: JSONPointer(at)!, reason: reason)) {
            try JSONPatch.apply(operations, to: &state)
        }
        #expect(state == before)
        #expect(state.changes(to: before).isEmpty)
        guard case .object(let members) = state else { return }
        #expect(Array(members.keys) == ["count", "items", "user"])
    }

    @Test func errorsReadAsOneLine() {
        let operation = JSONPatch.Operation(.remove, path: JSONPointer("/items/5")!)
        #expect(
            JSONPatchError(index: 1, operation: operation, at: JSONPointer("/items")!, reason: .indexOutOfRange(5, count: 3)).description
                == "patch operation 2 (remove /items/5): index 5 is out of range (/items has 3 elements)")
        #expect(
            JSONPatchError(index: 0, operation: operation, at: JSONPointer("")!, reason: .noKey("items")).description
                == #"patch operation 1 (remove /items/5): the value has no key "items""#)
        let add = JSONPatch.Operation(.add, path: JSONPointer("")!)
        #expect(
            JSONPatchError(index: 0, operation: add, at: JSONPointer("")!, reason: .missingValue).description
                == #"patch operation 1 (add ""): add needs a value"#)
    }

    @Test func anOperationWithoutAValueIsRefused() {
        var state: Value = ["a": 1]
        #expect(throws: JSONPatchError.self) { try JSONPatch.apply([JSONPatch.Operation(.replace, path: JSONPointer("/a")!)], to: &state) }
        #expect(state == ["a": 1])
    }

    @Test func tokensResolveByTheContainerTheyMeet() throws {
        var state: Value = ["0": ["x"], "list": [["0": "zero"]]]
        let changes = try JSONPatch.apply([
            JSONPatch.Operation(.replace, path: JSONPointer("/0/0")!, value: "y"),
            JSONPatch.Operation(.replace, path: JSONPointer([.key("list"), .index(0), .index(0)]), value: "nil"),
        ], to: &state)
        #expect(state == ["0": ["y"], "list": [["0": "nil"]]])
        #expect(changes.map(\.path) == [[.key("0"), .index(0)], [.key("list"), .index(0), .key("0")]])
    }

    @Test func changesRoundTripThroughTextAndBack() throws {
        var generator = ValueGenerator(seed: 21)
        for _ in 0..<1000 {
            let before = generator.value(depth: 4)
            var after = before
            var expected: [ValueChange] = []
            for _ in 0..<generator.int(1..<5) {
                guard let change = generator.change(of: after) else { continue }
                try after.apply(change)
                expected.append(change)
            }
            let line = SessionEvent.action(StoreStep<JSONPatch.Operation>(store: "s", index: 1, action: ["type": "T"], changes: JSONPatch.operations(expected)), hash: nil)
                .line(seq: 1)
            let load = try SessionReader.read(sessionBytes([line]))
            guard case .action(let action, _)? = load.events.first?.event else {
                Issue.record("not read back: \(line)")
                continue
            }
            var state = before
            let changes = try JSONPatch.apply(#require(action.recordedChanges), to: &state)
            #expect(Value.isSameKind(state, after))
            #expect(changes == expected)
            for change in changes.reversed() {
                try state.apply(ValueChange(
                    path: change.path, operation: change.operation == .add ? .remove : change.operation == .remove ? .add : .replace,
                    old: change.new, new: change.old))
            }
            #expect(Value.isSameKind(state, before))
        }
    }
}
