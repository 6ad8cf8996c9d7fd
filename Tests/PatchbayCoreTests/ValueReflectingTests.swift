@_spi(Shell) import PatchbayCore
import Testing

// Value(reflecting:): states that are not Codable, read through Mirror.

private struct Profile {
    var name: String
    var age: UInt8
    var nickname: String?
    var scores: [Double]
    var status: Status
    var settings: [String: Bool]
    var point: (x: Int, y: Int)
    var pair: (Int, String)
    var tags: Set<String>
}

private enum Status { case active, away(minutes: Int, note: String), busy(String) }

private class Base {
    var id = 1
}

private final class Node: Base {
    var label = "root"
    var onTap: () -> Void = {}
    var next: Node?
    var ints: [Int: String] = [1: "one"]
}

private final class Opaque {}

private func keys(_ value: Value) -> [String] {
    guard case .object(let members) = value else { return [] }
    return members.keys.map(\.string)
}

@Suite struct ValueReflectingTests {
    @Test func structsEnumsAndCollectionsBecomeValues() {
        let profile = Profile(
            name: "Ada", age: 36, nickname: nil, scores: [1.5, 2], status: .away(minutes: 5, note: "lunch"),
            settings: ["b": true, "a": false], point: (x: 1, y: 2), pair: (3, "c"), tags: ["t"])
        let value = Value(reflecting: profile)
        #expect(value == [
            "name": "Ada", "age": 36, "nickname": nil, "scores": [1.5, 2.0], "status": ["type": "away", "minutes": 5, "note": "lunch"],
            "settings": ["a": false, "b": true], "point": ["x": 1, "y": 2], "pair": [3, "c"], "tags": ["t"],
        ])
        #expect(keys(value) == ["name", "age", "nickname", "scores", "status", "settings", "point", "pair", "tags"])
        #expect(keys(value["settings"]!) == ["a", "b"])
        #expect(Value(reflecting: Status.active) == "active")
        #expect(Value(reflecting: Status.busy("x")) == ["type": "busy", "_0": "x"])
        #expect(Value(reflecting: Optional(3) as Any) == 3)
        let given: Value = ["a": [1, 2.5]]
        #expect(Value(reflecting: ["x": given]) == ["x": given])
    }

    @Test func aClassWithAClosureAndACycleShowsPlaceholders() {
        let root = Node()
        let child = Node()
        child.label = "child"
        root.next = child
        child.next = root
        // The cycle is the test's own: broken at the end, so that the two nodes are freed.
        defer { child.next = nil }
        let value = Value(reflecting: root)
        #expect(keys(value) == ["id", "label", "onTap", "next", "ints"])
        #expect(value["label"] == "root")
        #expect(value["onTap"]?["$unrepresentable"] == "() -> ()")
        #expect(value["onTap"]?["description"] == "(Function)")
        #expect(value["next"]?["label"] == "child")
        let cycle = value["next"]?["next"]
        #expect(cycle?["$unrepresentable"] == "Node")
        #expect(cycle?["description"] == "a cycle: a reference back to an enclosing Node")
        #expect(value["ints"] == ["1": "one"])
    }

    @Test func whatCannotBeAValueIsNeverAnEmptyObject() {
        #expect(Value(reflecting: Opaque())["$unrepresentable"] == "Opaque")
        #expect(Value(reflecting: Double.nan) == ["$unrepresentable": "Double", "description": "nan"])
        #expect(Value(reflecting: UInt64.max)["$unrepresentable"] == "UInt64")
        struct Empty {}
        #expect(Value(reflecting: Empty()) == [:])
    }

    @Test func nestingDeeperThanTheLimitIsAPlaceholder() {
        var nested: Any = 1
        for _ in 0..<(Value.maxReflectionDepth + 10) { nested = [nested] }
        var value = Value(reflecting: nested)
        var depth = 0
        while case .array(let elements) = value {
            value = elements[0]
            depth += 1
        }
        #expect(depth == Value.maxReflectionDepth)
        #expect(value["description"] == .string("nested deeper than \(Value.maxReflectionDepth) levels"))
    }
}
