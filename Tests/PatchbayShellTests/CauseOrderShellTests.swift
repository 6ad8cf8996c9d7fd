@_spi(Shell) @testable import PatchbayShell
@_spi(Shell) import PatchbayCore
import Testing

// What a command sets off prints after it, in the order it happened, with its cause: the
// actions that follow-ups dispatch, `why` across a delay edge, and warnings in scripts.

@Suite("Order and causes of what a command sets off")
struct CauseOrderShellTests {
    @Test func followUpsPrintAfterTheActionThatCausedThemAndNameIt() {
        let session = DataflowSession()
        session.run("""
            store app = {n: 0, log: 0}
            store audit = {count: 0}
            reducer app on A : state.n += 1
            reducer app on B : state.log += 1
            reducer audit on Seen : state.count += 1
            middleware app on A : dispatch B {}
            wire app.action -> audit.dispatch : {type: 'Seen'}
            """)
        #expect(session.run("dispatch app A") == [
            "#1 A  n: 0 → 1",
            "#1 Seen  count: 0 → 1",
            "#2 B (from #1)  log: 0 → 1",
            "#2 Seen  count: 1 → 2",
        ])
        // In JSON the command's line stays last, and the follow-up's event names its cause.
        let json = DataflowSession(json: true)
        json.run("store app = {n: 0}\nreducer app on A : state.n += 1\nreducer app on B : state.n += 10\nmiddleware app on A : dispatch B")
        let lines = json.run("dispatch app A")
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix(#"{"event":"dispatch","store":"app","index":2,"#) == true)
        #expect(lines.first?.hasSuffix(#","cause":1}"#) == true)
        #expect(lines.last?.hasPrefix(#"{"ok":true,"command":"dispatch app A","result":{"store":"app","index":1,"#) == true)
    }

    @Test func whyAcrossADelayEdgeNamesTheTickThatMovedTheValue() throws {
        let session = DataflowSession()
        session.run("var a = 1\nvar b = 0\nderive c = b + 1\nwire a.value ~> b.set\nset a = 5")
        #expect(try session.report("why b", as: CauseChain.self).causes == ["var b = 0", "b.value"])
        session.run("tick 3")
        #expect(try session.report("why b", as: CauseChain.self).causes == ["set a = 5", "a.value", "tick 3 (a.value ~> b.set)", "b.value"])
        #expect(try session.report("why c", as: CauseChain.self).causes == ["set a = 5", "a.value", "tick 3 (a.value ~> b.set)", "b.value", "c.value"])
    }

    @Test func aWarningInAScriptNamesItsLineAndIsNotRepeated() throws {
        let run = ShellRun("""
            store app = {n: 0}
            reducer app on Add : state.n += 1
            dispatch app Ad
            dispatch app Ad
            dispatch app Other
            """)
        #expect(run.errors.isEmpty)
        #expect(run.output.filter { $0.contains("warning") } == [
            "test.pb:3: warning: no reducer of app handles 'Ad'; did you mean 'Add'?",
            "test.pb:5: warning: no reducer of app handles 'Other'",
        ])
        // At the prompt, no place to name; a store made again warns again.
        let session = DataflowSession()
        session.run("store app = {n: 0}\ndispatch Go")
        expectStep(try session.step("dispatch Go"), 2, "Go", [])
        session.run("rm app\nstore app = {n: 0}")
        #expect(session.run("dispatch Go") == ["warning: no reducer of app handles 'Go' (it has no reducers yet)", "#1 Go  (no changes)"])
    }
}
