import Foundation
@_spi(Shell) @testable import PatchbayShell
@_spi(Shell) import PatchbayCore
import Testing

// `use STORE`: the store that commands leaving out STORE go to, how the prompt shows where the
// session is, and what a recording holds of it.

@Suite("use STORE and the prompt")
struct UseShellTests {
    private static let twoStores = """
        store app = {n: 0}
        store cart = {n: 0}
        reducer app on Inc : state.n += 1
        reducer cart on Inc : state.n += 10
        """

    @Test func commandsThatLeaveOutTheStoreUseTheSelectedOneAndANamedStoreStillWins() throws {
        let session = DataflowSession()
        session.run(Self.twoStores)
        #expect(session.run("use cart") == ["using cart: commands that leave out STORE use it ('use' alone clears it)"])
        expectStep(try session.step("dispatch Inc"), 1, "Inc", [.at("n", from: 0, to: 10)])
        expectStep(try session.step("dispatch {type: 'Inc'}"), 2, "Inc", [.at("n", from: 10, to: 20)])
        #expect(try session.value("state").isIdentical(to: ["n": 20]))
        #expect(try session.value("state .n").isIdentical(to: 20))
        #expect(session.run("history --last 1") == [">  #2 Inc  n"])
        try session.expectJump("jump 1", "cart", 1, of: 2, ["n": 10])
        #expect(session.run("reducer list") == ["r2: cart on Inc : state.n += 10"])
        #expect(session.run("branch") == ["* main  2 actions"])
        // Named, another store.
        expectStep(try session.step("dispatch app Inc"), 1, "Inc", [.at("n", from: 0, to: 1)])
        #expect(try session.value("state app").isIdentical(to: ["n": 1]))
        #expect(try session.value("state cart").isIdentical(to: ["n": 10]))
    }

    @Test func useAloneClearsTheSelection() {
        let session = DataflowSession()
        session.run(Self.twoStores + "\nuse app")
        #expect(session.run("use") == ["no store is selected now (was app): commands name their store, or use the only one"])
        #expect(session.shell.selectedStore == nil)
        #expect(session.error("state") == "error: there are several stores (app, cart); name the one you mean, or select one with 'use STORE'")
    }

    @Test func anUnknownStoreIsAnErrorWithSuggestionsAndKeepsTheSelection() {
        let session = DataflowSession()
        session.run(Self.twoStores + "\nvar x = 1\nuse cart")
        #expect(session.failureText("use ap") == """
            error: no store 'ap'; did you mean 'app'? (stores: app, cart)
              use ap
                  ^~
            """)
        #expect(session.error("use x") == "error: no store 'x' (stores: app, cart)")
        #expect(session.shell.selectedStore == "cart")
        #expect(DataflowSession().error("use app") == "error: no store 'app'; there is no store yet: create one with store NAME = EXPR")
    }

    @Test func aRemovedStoreClearsTheSelection() {
        let session = DataflowSession()
        session.run(Self.twoStores + "\nuse cart")
        #expect(session.run("rm cart").last == "note: cart is gone, so no store is selected now")
        #expect(session.shell.selectedStore == nil)
        // A store of the same name made again is not selected by the old `use`.
        session.run("store cart = {n: 5}")
        #expect(session.error("state").hasPrefix("error: there are several stores"))
        session.run("use cart\nreset")
        #expect(session.shell.selectedStore == nil)
    }

    @Test func aRemovedStoreInAScriptClearsTheSelectionForTheLinesAfterIt() {
        let run = ShellRun(Self.twoStores + "\nuse cart\nrm cart\nstore cart = {n: 7}\nstate", keepGoing: true)
        #expect(run.errors.count == 1)
        #expect(run.errors.first?.hasPrefix("test.pb:8:1: error: there are several stores") == true)
    }

    @Test func thePromptSaysTheSelectedStoreItsPlaceItsBranchAndAnOpenTransaction() {
        let session = DataflowSession()
        #expect(session.shell.promptContext == "")
        session.run("store app = {n: 0}\nreducer app on Inc : state.n += 1\ndispatch Inc\ndispatch Inc\ndispatch Inc")
        // The only store, at the end of main: nothing to say.
        #expect(session.shell.promptContext == "")
        #expect(Prompt.primary(program: "patchbay", context: session.shell.promptContext) == Prompt.primary)
        session.run("jump 1")
        #expect(session.shell.promptContext == " app #1/3")
        session.run("dispatch Inc")
        #expect(session.shell.promptContext == " app@b1")
        session.run("jump 0")
        #expect(session.shell.promptContext == " app@b1 #0/2")
        session.run("begin")
        #expect(session.shell.promptContext == " app@b1 #0/2*")
        session.run("commit\ncheckout main\njump end")
        #expect(session.shell.promptContext == "")
        // Two stores: only a selected one is described.
        session.run("store cart = {n: 0}\njump app 0")
        #expect(session.shell.promptContext == "")
        session.run("use cart")
        #expect(session.shell.promptContext == " cart")
        #expect(Prompt.primary(program: "todo-inspector", context: session.shell.promptContext) == "todo-inspector cart> ")
        session.run("use app")
        #expect(session.shell.promptContext == " app #0/3")
        session.run("begin")
        #expect(session.shell.promptContext == " app #0/3*")
        session.run("use")
        #expect(session.shell.promptContext == "*")
    }

    @Test func completionOffersStoresAfterUseAndTheSelectedStoresTypesAndPaths() {
        let session = DataflowSession()
        session.run(Self.twoStores + "\nreducer cart on Checkout : state.n = 0\nstore other = {user: {name: 'Max'}}")
        #expect(session.shell.complete("use ", cursor: 4).candidates == ["app", "cart", "other"])
        #expect(session.shell.complete("use c", cursor: 5).candidates == ["cart"])
        #expect(session.shell.complete("dispatch Che", cursor: 12).candidates == ["Checkout"])
        session.run("use other")
        // The selected store's types and paths: no other store's.
        #expect(session.shell.complete("dispatch Che", cursor: 12).candidates == [])
        #expect(session.shell.complete("dispatch ca", cursor: 11).candidates == ["cart"])
        #expect(session.shell.complete("state .user.n", cursor: 13).candidates == [".user.name"])
        #expect(session.shell.complete("blame user.", cursor: 11).candidates == ["user.name"])
    }

    @Test func anEchoedTranscriptShowsThePromptAsTheTerminalDoes() {
        let shell = Shell.scratch(ShellOptions(echo: true))
        var printed: [String] = []
        var runner = ScriptRunner(shell: shell, name: "t.pb", keepGoing: false) { printed.append($0.text) }
        runner.run(Array("store app = {n: 0}\nreducer app on Inc : state.n += 1\ndispatch Inc\ndispatch Inc\njump 1\nuse app\n".utf8))
        #expect(printed.suffix(4) == [
            "patchbay> jump 1", "app at #1 of 2: {n: 1}",
            "patchbay app #1/2> use app", "using app: commands that leave out STORE use it ('use' alone clears it)",
        ])
    }

    @Test func dispatchingInThePastSaysItStartsANewBranchAndNamesIt() throws {
        let session = DataflowSession()
        session.run("store app = {n: 0}\nreducer app on Inc : state.n += 1\ndispatch Inc\ndispatch Inc\ndispatch Inc\njump 1")
        #expect(session.run("dispatch Inc") == [
            "#2 Inc  n: 1 → 2", "new branch b1 from main at #1: main keeps its 3 actions ('checkout app main' goes back)",
        ])
        // At the end of the new branch: no new branch.
        expectStep(try session.step("dispatch Inc"), 3, "Inc", [.at("n", from: 2, to: 3)])
        let json = DataflowSession(json: true)
        json.run("store app = {n: 0}\nreducer app on Inc : state.n += 1\ndispatch Inc\njump 0")
        #expect(json.run("dispatch Inc") == [
            #"{"ok":true,"command":"dispatch Inc","result":{"store":"app","index":1,"action":{"type":"Inc"},"#
                + #""changes":[{"path":"n","op":"replace","old":0,"new":1}],"branch":{"name":"b1","from":"main","at":0}}}"#,
        ])
    }

    @Test func aRecordingHoldsTheSelectionSoThatReplayAndInspectAgreeWithTheSession() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/use.jsonl"
        let session = DataflowSession()
        // Selected before the recording starts, and changed while it runs.
        session.run(Self.twoStores + "\nuse cart\nrecord \(path)\ndispatch Inc\nuse app\ndispatch Inc\ndispatch Inc\njump 1\nuse\nrecord stop")
        #expect(try session.value("state app").isIdentical(to: ["n": 1]))
        #expect(try session.value("state cart").isIdentical(to: ["n": 10]))
        let replayer = DataflowSession()
        #expect(replayer.run("replay \(path) --verify") == ["verified 6 steps of \(path): every effect matches the recording"])
        #expect(try replayer.value("state app").isIdentical(to: ["n": 1]))
        #expect(try replayer.value("state cart").isIdentical(to: ["n": 10]))
        let inspector = DataflowSession()
        inspector.run("inspect \(path)")
        #expect(try inspector.value("state app").isIdentical(to: ["n": 1]))
        #expect(try inspector.value("state cart").isIdentical(to: ["n": 10]))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(#"{"seq":"#) && text.contains(#""kind":"setup","text":"use cart"}"#))
    }
}

extension DataflowSession {
    /// Runs one command that must fail and returns its whole error (with the caret lines).
    func failureText(_ command: String) -> String {
        shell.execute(command).lines.filter { $0.stream == .error }.map(\.text).joined(separator: "\n")
    }
}
