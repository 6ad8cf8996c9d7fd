@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
import Testing

// Object keys compare by their Unicode scalars, as JSON does: "é" (U+00E9) and "e\u{301}"
// (e and a combining acute accent) are two keys, although Swift's String == finds them equal
// (issue 28, point 8). Values, paths, patches and hashes all tell them apart.

@Suite("Object keys: Unicode scalars, not canonical equivalence")
struct UnicodeKeyTests {
    static let composed = "\u{E9}"
    static let decomposed = "e\u{301}"

    @Test func theTwoSpellingsAreEqualStringsButTwoKeys() {
        #expect(Self.composed == Self.decomposed)
        #expect(ObjectKey(Self.composed) != ObjectKey(Self.decomposed))
        #expect(Set([ObjectKey(Self.composed), ObjectKey(Self.decomposed)]).count == 2)
        // Scalar order: U+0065 U+0301 before U+00E9.
        #expect(ObjectKey(Self.decomposed) < ObjectKey(Self.composed))
    }

    @Test func aLiteralKeepsBothMembers() {
        let value: Value = [Self.composed: 1, Self.decomposed: 2]
        guard case .object(let members) = value else { Issue.record("not an object"); return }
        #expect(members.count == 2)
        #expect(value[Self.composed] == 1)
        #expect(value[Self.decomposed] == 2)
    }

    @Test func jsonKeepsBothMembersInTheirOrder() throws {
        let value = try JSONReader.parse("{\"\u{E9}\": 1, \"e\u{301}\": 2}")
        guard case .object(let members) = value else { Issue.record("not an object"); return }
        #expect(members.keys.map { "\($0)".unicodeScalars.count } == [1, 2])
        #expect(value[Self.composed] == 1 && value[Self.decomposed] == 2)
    }

    @Test func objectsWithEitherSpellingAreNotEqual() {
        let a: Value = [Self.composed: 1]
        let b: Value = [Self.decomposed: 1]
        #expect(a != b)
        #expect(Set([a, b]).count == 2)
    }

    @Test func aPathNamesTheKeyItsScalarsSpell() throws {
        var value: Value = [Self.composed: 1]
        try value.set(2, at: [.key(Self.decomposed)])
        #expect(value == [Self.composed: 1, Self.decomposed: 2])
        #expect(value.value(at: [.key(Self.composed)]) == 1)
        #expect(ValueChange.PathComponent.key(Self.composed) != .key(Self.decomposed))
    }

    @Test func aChangeOfSpellingIsARemoveAndAnAdd() throws {
        let old: Value = [Self.composed: 1]
        let new: Value = [Self.decomposed: 1]
        let changes = old.changes(to: new)
        #expect(changes.map(\.operation) == [.remove, .add])
        var patched = old
        for change in changes { try patched.apply(change) }
        #expect(patched == new)
    }

    @Test func anExpressionObjectKeepsBothMembers() throws {
        let value = try Expression("{\"\u{E9}\": 1, \"e\u{301}\": 2}").evaluate()
        #expect(value == [Self.composed: 1, Self.decomposed: 2])
        #expect(try Expression("len(keys({\"\u{E9}\": 1, \"e\u{301}\": 2}))").evaluate() == 2)
    }
}

@Suite("Object keys by scalars: JSON and canonical order")
struct UnicodeKeyEncodingTests {
    @Test func jsonWritesBothMembersAndReadsThemBack() throws {
        let value: Value = ["\u{E9}": 1, "e\u{301}": 2]
        var json = ""
        value.writeJSON(to: &json)
        #expect(json.unicodeScalars.elementsEqual("{\"\u{E9}\":1,\"e\u{301}\":2}".unicodeScalars))
        #expect(try JSONReader.parse(json) == value)
    }
}
