@_spi(Shell) import PatchbayShell
import Testing

// Diffs match the elements of arrays of objects by identity (an `id` field when every element
// has one, or the key `set identity` names): `dispatch`, `diff`, `history` and `blame` show
// moves, insertions and removals as such, not as changed positions. What is recorded stays
// the positional RFC 6902 patch, and `--json` output too.

/// A cart of `count` items `{id: N, qty: 1}`, with actions that remove, swap, reverse and set.
private func cart(_ count: Int = 15, json: Bool = false) -> DataflowSession {
    let session = DataflowSession(json: json)
    session.run("""
        store cart = {items: map(range(1, \(count + 1)), i => {id: i, qty: 1})}
        reducer cart on Remove : state.items = filter(state.items, x => x.id != action.id)
        reducer cart on Swap : state.items = append(filter(state.items, x => x.id != action.out), {id: action.in, qty: 1})
        reducer cart on Reverse : state.items = reverse(state.items)
        reducer cart on Set : state.items = map(state.items, x => x.id == action.id ? merge(x, {qty: action.qty}) : x)
        reducer cart on Drain : state.items = map(filter(state.items, x => x.id != action.id), x => x.id == action.last ? merge(x, {qty: 2}) : x)
        """)
    return session
}

@Suite("Shell: diffs match array elements by identity")
struct IdentityDiffShellTests {
    @Test func removingOneItemAndAddingAnotherIsOneRemovalAndOneInsertion() {
        let session = cart()
        #expect(session.run("dispatch cart Swap {out: 1, in: 16}") == [
            "#1 Swap  items[14]: + {id: 16, qty: 1}; items[0]: - {id: 1, qty: 1}",
        ])
    }

    @Test func aRemovalWithAChangeElsewhereIsOneRemovalAndOneChange() {
        let session = cart()
        #expect(session.run("dispatch cart Drain {id: 1, last: 15}") == [
            "#1 Drain  items[13].qty: 1 → 2; items[0]: - {id: 1, qty: 1}",
        ])
    }

    @Test func aReorderShowsMoves() {
        let session = cart(3)
        // The middle item keeps its place: the two others moved.
        #expect(session.run("dispatch cart Reverse") == ["#1 Reverse  items[2] → items[0]: moved (id: 3); items[0] → items[2]: moved (id: 1)"])
        #expect(session.run("diff cart 0 1") == ["items[2] → items[0]: moved (id: 3)", "items[0] → items[2]: moved (id: 1)"])
        #expect(session.run("history cart") == ["   #0 (initial state)", ">  #1 Reverse  items[0], items[2]"])
    }

    @Test func diffAndHistoryShowTheRemovalAsOne() {
        let session = cart()
        session.run("dispatch cart Drain {id: 1, last: 15}")
        #expect(session.run("diff cart 0 1") == ["items[13].qty: 1 → 2", "items[0]: - {id: 1, qty: 1}"])
        #expect(session.run("diff cart 0 1 --path items[13]") == ["items[13].qty: 1 → 2"])
        #expect(session.run("diff cart 0 1 --path items[5]") == ["#0 → #1: no differences at items[5]"])
        #expect(session.run("history cart") == ["   #0 (initial state)", ">  #1 Drain {id: 1, last: 15}  items[13].qty, items[0]"])
    }

    @Test func aDiffBetweenBranchesMatchesByIdentityToo() {
        let session = cart(3)
        session.run("dispatch cart Remove {id: 1}\njump cart 0\ndispatch cart Reverse")
        #expect(session.run("diff cart main b1") == ["items[2]: + {id: 1, qty: 1}", "items[0] → items[1]: moved (id: 2)"])
    }

    @Test func historyRecomputeShowsTheFirstChangedStateByIdentity() {
        let session = cart(3)
        session.run("dispatch cart Remove {id: 1}\nreducer r1 : state.items = filter(state.items, x => x.id != action.id + 1)")
        #expect(session.run("history recompute cart") == [
            "recomputed 1 action of cart with its reducers as they are now: 1 state changed, the first at #1:",
            "items[0]: + {id: 1, qty: 1}", "items[0]: - {id: 2, qty: 1}",
        ])
    }

    @Test func blameFollowsTheElementByItsID() {
        let session = cart(3)
        session.run("dispatch cart Set {id: 3, qty: 5}\ndispatch cart Remove {id: 1}\ndispatch cart Set {id: 3, qty: 7}")
        // items[1] is now the item with id 3: it was at items[2] when #1 changed it, and #2
        // (which removed another item) did not change it.
        #expect(session.run("blame cart items[1].qty") == ["#1 Set {id: 3, qty: 5}  1 → 5", "#3 Set {id: 3, qty: 7}  5 → 7"])
    }

    @Test func aSettingNamesAnotherKeyOrNone() {
        let session = DataflowSession()
        session.run("""
            store s = {rows: [{key: 'a', v: 1}, {key: 'b', v: 1}, {key: 'c', v: 1}]}
            reducer s on Drop : state.rows = map(filter(state.rows, r => r.key != 'a'), r => r.key == 'c' ? merge(r, {v: 2}) : r)
            """)
        #expect(session.run("set identity") == ["identity id"])
        #expect(session.run("set identity key") == ["identity key"])
        #expect(session.run("dispatch s Drop") == ["#1 Drop  rows[1].v: 1 → 2; rows[0]: - {key: \"a\", v: 1}"])
        #expect(session.run("set identity none") == ["identity none"])
        #expect(session.run("diff s 0 1") == ["rows[0].key: \"a\" → \"b\"", "rows[1].key: \"b\" → \"c\"", "rows[1].v: 1 → 2",
                                            "rows[2]: - {key: \"c\", v: 1}"])
    }

    @Test func theSettingCompletesAndTheRCFileTakesIt() {
        let session = DataflowSession()
        #expect(session.shell.complete("set identity ", cursor: 13).candidates == ["id", "none"])
        #expect(session.shell.complete("set ident", cursor: 9).candidates == ["identity"])
        let (settings, problems) = ShellSettings().applying(configuration: "identity sku\nidentity 9x\n")
        #expect(settings.identity == "sku")
        #expect(problems.count == 1 && problems[0].hasPrefix("2: identity takes a key such as id"))
    }

    @Test func aBadIdentityKeyIsAOneLineErrorWithItsColumn() {
        let session = DataflowSession()
        let outcome = session.shell.execute("set identity 9x")
        #expect(outcome.status == .failure)
        let error = outcome.lines.map(\.text).joined(separator: "\n")
        #expect(error.hasPrefix("error: identity takes a key such as id (a letter or _, then letters, digits or _), or none "
                                + "(match array elements by position), not '9x'"), "\(error)")
        #expect(error.hasSuffix("\n  set identity 9x\n               ^~"), "\(error)")
        #expect(session.shell.options.settings.identity == "id")
    }

    @Test func arraysWithoutIDsOrWithRepeatedIDsStayPositional() {
        let session = DataflowSession()
        session.run("""
            store s = {a: [{n: 1}, {n: 2}], b: [{id: 1, v: 1}, {id: 1, v: 2}]}
            reducer s on Go : state.a = reverse(state.a); state.b = reverse(state.b)
            """)
        #expect(session.run("dispatch s Go") == ["#1 Go  a[0].n: 1 → 2; a[1].n: 2 → 1; b[0].v: 1 → 2; b[1].v: 2 → 1"])
    }

    @Test func jsonOutputAndTheRecordingKeepThePositionalPatch() throws {
        let session = cart(3, json: true)
        let line = try #require(session.run("dispatch cart Remove {id: 1}").first)
        #expect(line.contains(#""changes":[{"path":"items[0]","op":"remove""#))
        let swapped = try #require(session.run("dispatch cart Swap {out: 2, in: 9}").first)
        #expect(swapped.contains(#"{"path":"items[0].id","op":"replace","old":2,"new":3}"#))
    }
}
