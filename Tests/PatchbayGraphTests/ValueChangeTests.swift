@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
import PatchbayTestSupport
import Testing

// The change list of a dispatch: `old.changes(to: new)` lists, in an order that
// applies one after the other, what was added, removed or replaced, each at its deepest path.
// `dispatch` prints it (`items[2]: + {title: "milk", done: false}`), `--json` gives it as
// `[{path, op, old, new}]`, and the session file as an RFC 6902 JSON Patch with `jsonPointer`
// paths.

/// `(path, op, old, new)` of every change, the way `--json` gives them, for short expectations.
private func described(_ changes: [ValueChange]) -> [String] {
    changes.map { change in
        let old = change.old.map { "\($0)" } ?? "-"
        let new = change.new.map { "\($0)" } ?? "-"
        return "\(change.pathText) \(change.operation.rawValue) \(old) \(new)"
    }
}

private func key(_ name: String) -> ValueChange.PathComponent { .key(name) }
private func index(_ position: Int) -> ValueChange.PathComponent { .index(position) }

@Suite("Value changes: objects")
struct ValueChangeObjectTests {
    @Test func equalValuesHaveNoChanges() {
        let value: Value = ["count": 1, "user": ["name": "Max"], "items": [1, 2.5, nil]]
        #expect(value.changes(to: value).isEmpty)
    }

    @Test func aChangedMemberIsReplaced() {
        let changes = (["count": 0] as Value).changes(to: ["count": 1])
        #expect(changes == [ValueChange(path: [key("count")], operation: .replace, old: 0, new: 1)])
    }

    @Test func aNewMemberIsAddedAndAMissingOneRemoved() {
        #expect((["a": 1] as Value).changes(to: ["a": 1, "b": 2])
            == [ValueChange(path: [key("b")], operation: .add, old: nil, new: 2)])
        #expect((["a": 1, "b": 2] as Value).changes(to: ["b": 2])
            == [ValueChange(path: [key("a")], operation: .remove, old: 1, new: nil)])
    }

    @Test func aNestedChangeIsReportedAtItsDeepestPath() {
        let old: Value = ["user": ["name": "unknown", "age": 30], "count": 1]
        let new: Value = ["user": ["name": "Max", "age": 30], "count": 1]
        let changes = old.changes(to: new)
        #expect(changes == [ValueChange(path: [key("user"), key("name")], operation: .replace, old: "unknown", new: "Max")])
        #expect(changes.map(\.pathText) == ["user.name"])
    }

    @Test func membersComeInTheOldOrderThenTheAddedOnesInTheNewOrder() {
        let old: Value = ["a": 1, "b": 2, "c": 3]
        let new: Value = ["e": 6, "c": 4, "d": 5, "a": 1]
        #expect(described(old.changes(to: new)) == ["b remove 2 -", "c replace 3 4", "e add - 6", "d add - 5"])
    }

    @Test func theOrderOfKeysIsNotAChange() {
        #expect((["a": 1, "b": 2] as Value).changes(to: ["b": 2, "a": 1]).isEmpty)
    }

    @Test func aMemberAddedInsideANestedObject() {
        let old: Value = ["userState": ["userName": "unknown"]]
        let new: Value = ["userState": ["userName": "unknown", "settings": ["dark": true]]]
        #expect(described(old.changes(to: new)) == ["userState.settings add - {dark: true}"])
    }
}

@Suite("Value changes: arrays")
struct ValueChangeArrayTests {
    @Test func anElementAppendedAtTheEnd() {
        let old: Value = ["items": [["title": "tea", "done": true], ["title": "bread", "done": false]]]
        let new: Value = ["items": [["title": "tea", "done": true], ["title": "bread", "done": false], ["title": "milk", "done": false]]]
        let changes = old.changes(to: new)
        #expect(changes == [ValueChange(path: [key("items"), index(2)], operation: .add, old: nil,
                                        new: ["title": "milk", "done": false])])
        #expect(described(changes) == [#"items[2] add - {title: "milk", done: false}"#])
    }

    @Test func anElementInsertedInTheMiddleOrAtTheFrontIsOneAdd() {
        // Not a replace of every element after it.
        #expect(described(([1, 3, 4] as Value).changes(to: [1, 2, 3, 4])) == ["[1] add - 2"])
        #expect(described(([2, 3] as Value).changes(to: [1, 2, 3])) == ["[0] add - 1"])
        #expect(described(([1, 4] as Value).changes(to: [1, 2, 3, 4])) == ["[1] add - 2", "[2] add - 3"])
    }

    @Test func removedElementsAreRemovedFromTheBackSoEachIndexIsStillRight() {
        #expect(described(([1, 2, 3] as Value).changes(to: [1, 3])) == ["[1] remove 2 -"])
        #expect(described(([1, 2, 3, 4] as Value).changes(to: [1, 4])) == ["[2] remove 3 -", "[1] remove 2 -"])
        #expect(described(([1, 2] as Value).changes(to: [])) == ["[1] remove 2 -", "[0] remove 1 -"])
    }

    @Test func aChangedElementIsReplacedAtItsIndex() {
        #expect(described(([1, 2, 3] as Value).changes(to: [1, 9, 3])) == ["[1] replace 2 9"])
    }

    @Test func elementsPairUpByPositionThenTheRestIsAddedOrRemoved() {
        #expect(described(([1, 2] as Value).changes(to: [9, 8, 7])) == ["[0] replace 1 9", "[1] replace 2 8", "[2] add - 7"])
        #expect(described(([1, 2, 3, 4] as Value).changes(to: [1, 8, 4])) == ["[1] replace 2 8", "[2] remove 3 -"])
    }

    @Test func aChangeInsideAnElementIsReportedInsideIt() {
        let old: Value = ["items": [["done": false], ["done": false], ["title": "milk", "done": false]]]
        let new: Value = ["items": [["done": false], ["done": false], ["title": "milk", "done": true]]]
        let changes = old.changes(to: new)
        #expect(changes == [ValueChange(path: [key("items"), index(2), key("done")], operation: .replace, old: false, new: true)])
        #expect(changes[0].pathText == "items[2].done")
        #expect(changes[0].jsonPointer == "/items/2/done")
    }
}

@Suite("Value changes: types, the root, paths")
struct ValueChangeTypeAndPathTests {
    @Test func aChangeOfTypeIsAReplaceOfTheWholeValue() {
        #expect(described((["a": 1] as Value).changes(to: ["a": "1"])) == [#"a replace 1 "1""#])
        #expect(described((["a": [1, 2]] as Value).changes(to: ["a": ["x": 1]])) == ["a replace [1, 2] {x: 1}"])
        #expect(described((["a": nil] as Value).changes(to: ["a": ["b": 1]])) == ["a replace null {b: 1}"])
        #expect(described((["a": ["b": 1]] as Value).changes(to: ["a": nil])) == ["a replace {b: 1} null"])
    }

    @Test func anIntegerThatBecomesADecimalIsAChangeAtAnyDepth() {
        // `==` finds 1 and 1.0 equal, but the state did change: applying the changes must give
        // the new value exactly.
        #expect(described((1 as Value).changes(to: 1.0)) == ["state replace 1 1.0"])
        #expect(described((["a": 1] as Value).changes(to: ["a": 1.0])) == ["a replace 1 1.0"])
        #expect(described((["a": [1, 2]] as Value).changes(to: ["a": [1, 2.0]])) == ["a[1] replace 2 2.0"])
        #expect(described(([["n": 2.0], 3] as Value).changes(to: [["n": 2], 3])) == ["[0].n replace 2.0 2"])
    }

    @Test func replacingTheRootHasTheEmptyPathWrittenState() {
        let changes = (["count": 1] as Value).changes(to: [1, 2])
        #expect(changes == [ValueChange(path: [], operation: .replace, old: ["count": 1], new: [1, 2])])
        #expect(changes[0].pathText == "state")
        #expect(changes[0].jsonPointer == "")
        #expect(described((nil as Value).changes(to: 5)) == ["state replace null 5"])
    }

    @Test func pathsAreWrittenAsExpressionsWriteThem() {
        #expect(ValueChange.pathText([key("user"), key("name")]) == "user.name")
        #expect(ValueChange.pathText([key("items"), index(2), key("done")]) == "items[2].done")
        #expect(ValueChange.pathText([index(0), key("title")]) == "[0].title")
        #expect(ValueChange.pathText([index(1), index(0)]) == "[1][0]")
        #expect(ValueChange.pathText([]) == "state")
    }

    @Test func keysThatAreNotNamesAreQuotedInBrackets() {
        #expect(ValueChange.pathText([key("a b")]) == #"["a b"]"#)
        #expect(ValueChange.pathText([key("user"), key("first name")]) == #"user["first name"]"#)
        #expect(ValueChange.pathText([key("1x"), index(0)]) == #"["1x"][0]"#)
        #expect(ValueChange.pathText([key("")]) == #"[""]"#)
        #expect(ValueChange.pathText([key(#"say "hi""#)]) == #"["say \"hi\""]"#)
        #expect(ValueChange.pathText([key("snake_case1")]) == "snake_case1")
        let changes = (["a b": 1] as Value).changes(to: ["a b": 2])
        #expect(described(changes) == [#"["a b"] replace 1 2"#])
    }

    @Test func jsonPointersEscapeTildeAndSlash() {
        // RFC 6901: `~` is written `~0` and `/` is written `~1`, tilde first.
        func pointer(_ path: [ValueChange.PathComponent]) -> String {
            ValueChange(path: path, operation: .remove, old: nil, new: nil).jsonPointer
        }
        #expect(pointer([key("user"), key("name")]) == "/user/name")
        #expect(pointer([key("items"), index(2)]) == "/items/2")
        #expect(pointer([key("a/b")]) == "/a~1b")
        #expect(pointer([key("m~n")]) == "/m~0n")
        #expect(pointer([key("~/")]) == "/~0~1")
        #expect(pointer([key("a~1b")]) == "/a~01b")
        #expect(pointer([key("a b"), key("")]) == "/a b/")
        #expect(pointer([]) == "")
    }
}

// MARK: - Applying the changes gives the new value

/// Applies `changes` in order as a JSON Patch would: `add` at an array index inserts there (at
/// the count, it appends), `remove` takes the element out, `replace` and `add` of a key set it.
/// Each change is checked against the value as it is at that point: a replaced or removed value
/// must be the change's `old`, an added key must be new.
private func apply(_ changes: [ValueChange], to value: Value, sourceLocation: SourceLocation = #_sourceLocation) throws -> Value {
    var result = value
    for change in changes {
        let parentPath = Array(change.path.dropLast())
        let current = result.value(at: change.path)
        switch change.operation {
        case .replace:
            let old = try #require(change.old, sourceLocation: sourceLocation)
            #expect(current.map { identical($0, old) } == true, "\(change.pathText): old", sourceLocation: sourceLocation)
            try result.set(try #require(change.new, sourceLocation: sourceLocation), at: change.path)
        case .add:
            let new = try #require(change.new)
            #expect(change.old == nil, sourceLocation: sourceLocation)
            switch try #require(change.path.last) {
            case .key:
                #expect(current == nil, "\(change.pathText) is added but exists", sourceLocation: sourceLocation)
                try result.set(new, at: change.path)
            case .index(let position):
                guard case .array(var elements)? = result.value(at: parentPath) else {
                    Issue.record("\(change.pathText): not in an array", sourceLocation: sourceLocation)
                    return result
                }
                try #require(position <= elements.count, "\(change.pathText): past the end", sourceLocation: sourceLocation)
                elements.insert(new, at: position)
                try result.set(.array(elements), at: parentPath)
            }
        case .remove:
            #expect(change.new == nil, sourceLocation: sourceLocation)
            let old = try #require(change.old, sourceLocation: sourceLocation)
            #expect(current.map { identical($0, old) } == true, "\(change.pathText): old", sourceLocation: sourceLocation)
            switch (try #require(change.path.last), result.value(at: parentPath)) {
            case (.key(let name), .object(var members)?):
                members[name] = nil
                try result.set(.object(members), at: parentPath)
            case (.index(let position), .array(var elements)?):
                elements.remove(at: position)
                try result.set(.array(elements), at: parentPath)
            default:
                Issue.record("\(change.pathText): cannot remove", sourceLocation: sourceLocation)
            }
        }
    }
    return result
}

/// Equal, and with the same kind of number everywhere (`==` finds 1 and 1.0 equal); key order
/// does not count.
private func identical(_ a: Value, _ b: Value) -> Bool {
    switch (a, b) {
    case (.null, .null): true
    case (.bool(let x), .bool(let y)): x == y
    case (.int(let x), .int(let y)): x == y
    case (.decimal(let x), .decimal(let y)): x == y
    case (.string(let x), .string(let y)): x == y
    case (.array(let x), .array(let y)): x.count == y.count && zip(x, y).allSatisfy(identical)
    case (.object(let x), .object(let y)):
        x.count == y.count && x.allSatisfy { name, value in y[name].map { identical(value, $0) } ?? false }
    default: false
    }
}

/// Random values built from few keys and small numbers, so that pairs share a lot and differ in
/// the interesting ways: a key or element more or less, a number that changes kind.
private struct ValueGenerator {
    var random: SplitMix64
    static let keys = ["a", "b", "c", "items", "a b", "x/y", "m~n", ""]
    static let strings: [Value] = ["", "milk", "a b", "~/"]
    static let decimals: [Value] = [1.0, 2.0, 0.5, -1.5]

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }

    mutating func value(depth: Int) -> Value {
        switch int(0...(depth > 0 ? 7 : 4)) {
        case 0: return nil
        case 1: return .bool(int(0...1) == 1)
        case 2: return .int(int(-1...3))
        case 3: return Self.decimals[int(0...3)]
        case 4: return Self.strings[int(0...3)]
        case 5: return .array((0..<int(0...4)).map { _ in value(depth: depth - 1) })
        default:
            var object: Value = [:]
            for _ in 0..<int(0...4) {
                try! object.set(value(depth: depth - 1), at: [.key(Self.keys[int(0...7)])])
            }
            return object
        }
    }

    /// A few edits of `value`: replace a part, insert or remove an element, add or remove a key,
    /// turn an integer into a decimal.
    mutating func edited(_ value: Value, depth: Int) -> Value {
        switch value {
        case .array(var elements):
            for _ in 0..<int(1...3) {
                switch int(0...3) {
                case 0: elements.insert(self.value(depth: depth - 1), at: int(0...elements.count))
                case 1 where !elements.isEmpty: elements.remove(at: int(0...elements.count - 1))
                case 2 where !elements.isEmpty:
                    let position = int(0...elements.count - 1)
                    elements[position] = edited(elements[position], depth: depth - 1)
                default: break
                }
            }
            return .array(elements)
        case .object(var members):
            for _ in 0..<int(1...3) {
                let name = Self.keys[int(0...7)]
                switch int(0...2) {
                case 0: members[name] = self.value(depth: depth - 1)
                case 1: members[name] = nil
                default: if let member = members[name] { members[name] = edited(member, depth: depth - 1) }
                }
            }
            return .object(members)
        case .int(let n) where int(0...1) == 0:
            return .decimal(Double(n))
        default:
            return int(0...3) == 0 ? value : self.value(depth: depth)
        }
    }

    /// `value` with some numbers turned into the other kind (`2` into `2.0` and back) and nothing
    /// else changed: a new value that `==` finds equal to the old one.
    mutating func flippingNumbers(_ value: Value) -> Value {
        switch value {
        case .int(let n) where int(0...1) == 0: return .decimal(Double(n))
        case .decimal(let d) where d.rounded() == d && int(0...1) == 0: return .int(Int(d))
        case .array(let elements): return .array(elements.map { flippingNumbers($0) })
        case .object(var members):
            for name in members.keys { members[name] = flippingNumbers(members[name]!) }
            return .object(members)
        default: return value
        }
    }
}

/// Hand-picked pairs: each statement on its own, to keep type-checking fast.
private func applyExamples() -> [(Value, Value)] {
    var pairs: [(Value, Value)] = []
    pairs.append((["count": 0], ["count": 1]))
    pairs.append((["user": ["name": "unknown"], "n": 1], ["user": ["name": "Max", "age": 3]]))
    pairs.append(([1, 2, 3, 4, 5], [0, 1, 3, 5, 6, 7]))
    let undone: Value = ["done": false]
    pairs.append(([undone, undone, undone], [undone, undone, ["done": true], undone]))
    pairs.append((["items": [1, 2]], ["items": ["x": [1, 2]]]))
    pairs.append((["a b": ["m~n": [1, ["x/y": 2]]]], ["a b": ["m~n": [["x/y": 3], 1]]]))
    pairs.append(([1, [2, [3, 4]]], [1.0, [2, [3.0, 4], 5]]))
    pairs.append((nil, ["fresh": true]))
    pairs.append(([], [[]]))
    return pairs
}

@Suite("Value changes: linked values")
struct ValueChangeLinkedTests {
    /// `{prev: {prev: ... {prev: null, n: 0} ..., n: depth - 2}, n: depth - 1}`, as
    /// `state.undo = {prev: state.undo, n: state.n}` run `depth` times builds it.
    static func history(depth: Int) -> Value {
        var value = Value.null
        for n in 0..<depth { value = ["prev": value, "n": .int(n)] }
        return value
    }

    @Test func pushingOnALinkedHistoryIsOneReplacementAtAnyDepth() throws {
        for depth in [1, 2, 100, 400] {
            let old = Self.history(depth: depth)
            let new = Self.history(depth: depth + 1)
            let changes = old.changes(to: new)
            // Compared level by level the two differ at every level: `depth + 1` changes.
            #expect(changes == [ValueChange(path: [], operation: .replace, old: old, new: new)], "depth \(depth)")
            #expect(try apply(changes, to: old) == new)
            // Popping is one replacement too.
            #expect(new.changes(to: old) == [ValueChange(path: [], operation: .replace, old: new, new: old)], "depth \(depth)")
        }
        let state: Value = ["undo": Self.history(depth: 50), "n": 50]
        let pushed: Value = ["undo": ["prev": state["undo"]!, "n": 50], "n": 51]
        #expect(state.changes(to: pushed).map(\.pathText) == ["undo", "n"])
        let refined = ValueChange.refined([ValueChange(path: [], operation: .replace, old: state, new: pushed)])
        #expect(refined.map(\.pathText) == ["undo", "n"])
    }

    @Test func wrappingInAnArrayIsOneReplacement() throws {
        let old: Value = [1, [2, 3]]
        #expect(old.changes(to: [old, 4]) == [ValueChange(path: [], operation: .replace, old: old, new: [old, 4])])
        // A member equal but of another kind of number is no wrapping: the change is spelled out.
        #expect(Value.array([[1, 2]]).changes(to: [[1.0, 2]]).map(\.pathText) == ["[0][0]"])
    }
}

@Suite("Value changes: applying them gives the new value")
struct ValueChangeApplyTests {
    @Test(arguments: applyExamples())
    func examples(old: Value, new: Value) throws {
        let result = try apply(old.changes(to: new), to: old)
        #expect(identical(result, new), "\(old) → \(new) gave \(result)")
    }

    @Test func randomPairs() throws {
        // 300 edited pairs (which share most of their parts), 100 pairs that differ only in the
        // kind of some numbers, and 100 unrelated pairs.
        var generator = ValueGenerator(random: SplitMix64(seed: 0xC4A9_6E5))
        var nonEmpty = 0
        var kindOnly = 0
        for round in 0..<500 {
            let old = generator.value(depth: 3)
            let new = switch round {
            case ..<300: generator.edited(old, depth: 3)
            case ..<400: generator.flippingNumbers(old)
            default: generator.value(depth: 3)
            }
            if old == new, !identical(old, new) { kindOnly += 1 }
            let changes = old.changes(to: new)
            if !changes.isEmpty { nonEmpty += 1 }
            let result = try apply(changes, to: old)
            #expect(identical(result, new), "round \(round): \(old) → \(new) gave \(result) from \(described(changes))")
            #expect(changes.isEmpty == identical(old, new), "round \(round): \(old) → \(new)")
            // Each change is reported at its deepest path: nothing replaces two equal containers,
            // unless one holds the other.
            for change in changes where change.operation == .replace && !holdsTheOther(change.old!, change.new!) {
                if case .object? = change.old, case .object? = change.new { Issue.record("round \(round): \(change.pathText) replaces an object by an object") }
                if case .array? = change.old, case .array? = change.new { Issue.record("round \(round): \(change.pathText) replaces an array by an array") }
            }
        }
        // The generator does produce differences (most pairs differ), kind-only ones among them.
        #expect(nonEmpty > 300)
        #expect(kindOnly > 25)
    }
}

/// Whether `a` is a member of `b` or `b` a member of `a`, numbers of the same kind.
private func holdsTheOther(_ a: Value, _ b: Value) -> Bool {
    func members(_ value: Value) -> [Value] {
        switch value {
        case .array(let elements): elements
        case .object(let members): Array(members.values)
        default: []
        }
    }
    return members(b).contains { identical($0, a) } || members(a).contains { identical($0, b) }
}
