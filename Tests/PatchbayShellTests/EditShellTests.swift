import Foundation
@_spi(Shell) @testable import PatchbayShell
@_spi(Shell) import PatchbayCore
import Testing

// `edit REDUCER` (as psql's `\e`): the reducer's statements go to the user's editor in a
// temporary file and come back applied; a body that does not parse goes back with the error as a
// comment, and nothing changes until it parses, or until the user leaves the file as it was or
// empty, which cancels. Here the editor is a function that the test gives the shell.

/// An editor that answers each opening with the next of `answers` (given the text it was
/// opened with), and keeps what it was opened with.
private final class ScriptedEditor {
    var openings: [String] = []
    private var answers: [(String) -> String]

    init(_ answers: [(String) -> String]) { self.answers = answers }

    var editor: ExternalEditor {
        ExternalEditor(name: "test-editor") { text throws(EditorFailure) in
            self.openings.append(text)
            guard !self.answers.isEmpty else { throw EditorFailure("was opened more often than the test expected") }
            return self.answers.removeFirst()(text)
        }
    }
}

/// The text with its statement lines (those that are no # comment) replaced by `body`.
private func replacingBody(_ body: String) -> (String) -> String {
    { text in text.split(separator: "\n").filter { $0.hasPrefix("#") }.joined(separator: "\n") + "\n" + body + "\n" }
}

private func counter(_ editor: ScriptedEditor?) -> DataflowSession {
    let session = DataflowSession()
    session.shell.editor = editor?.editor
    session.run("store app = {n: 0}\nreducer app on Add when action.by > 0 : state.n += action.by")
    return session
}

@Suite("Shell stores: edit REDUCER")
struct EditShellTests {
    @Test func theEditedBodyIsApplied() throws {
        let editor = ScriptedEditor([replacingBody("state.n += action.by * 10")])
        let session = counter(editor)
        #expect(session.run("edit r1") == ["r1: app on Add when action.by > 0 : state.n += action.by * 10"])
        expectStep(try session.step("dispatch app Add {by: 2}"), 1, "Add", [.at("n", from: 0, to: 20)])
        let opened = try? #require(editor.openings.first)
        #expect(opened?.hasSuffix("\nstate.n += action.by\n") == true)
        #expect(opened?.hasPrefix("# reducer r1 = app on Add when action.by > 0\n") == true)
    }

    @Test func afterAHistoryItOffersRecompute() {
        let editor = ScriptedEditor([replacingBody("state.n += 100")])
        let session = counter(editor)
        session.run("dispatch app Add {by: 1}")
        #expect(session.run("edit r1") == ["r1: app on Add when action.by > 0 : state.n += 100",
                                           "note: app's 1 state was made by the old reducers; 'history recompute app' runs them again"])
        #expect(session.run("history recompute app") == ["recomputed 1 action of app with its reducers as they are now: 1 state changed, "
                                                         + "the first at #1:", "n: 1 → 100"])
    }

    @Test func aBodyOnSeveralLinesIsApplied() throws {
        let editor = ScriptedEditor([replacingBody("state.n += action.by\nstate.last = action.by")])
        let session = counter(editor)
        session.run("edit r1")
        expectStep(try session.step("dispatch app Add {by: 3}"), 1, "Add", [.at("n", from: 0, to: 3), .at("last", to: 3)])
    }

    @Test func aBodyThatDoesNotParseReopensWithTheErrorAndChangesNothingUntilItParses() throws {
        let session = DataflowSession()
        let editor = ScriptedEditor([replacingBody("state.n += (1"), { text in
            // The reducer is still the old one while the file is open again.
            #expect(session.run("reducer list") == ["r1: app on Add when action.by > 0 : state.n += action.by"])
            return replacingBody("state.n += 7")(text)
        }])
        session.shell.editor = editor.editor
        session.run("store app = {n: 0}\nreducer app on Add when action.by > 0 : state.n += action.by")
        #expect(session.run("edit r1") == ["r1: app on Add when action.by > 0 : state.n += 7"])
        #expect(editor.openings.count == 2)
        let reopened = try #require(editor.openings.last)
        let errorLine = try #require(reopened.split(separator: "\n").first { $0.hasPrefix("# error: line ") })
        #expect(errorLine.contains("line 4, column 14"), "\(errorLine)")
        #expect(reopened.hasSuffix("\nstate.n += (1\n"))
    }

    @Test func leavingTheFileUnchangedOrEmptyCancels() {
        let unchanged = ScriptedEditor([{ $0 }])
        let session = counter(unchanged)
        #expect(session.run("edit r1") == ["edit r1: cancelled (the file was left as it was); r1 is unchanged"])
        let emptied = ScriptedEditor([{ _ in "" }])
        session.shell.editor = emptied.editor
        #expect(session.run("edit r1") == ["edit r1: cancelled (the file was left empty); r1 is unchanged"])
        let commentsOnly = ScriptedEditor([replacingBody("")])
        session.shell.editor = commentsOnly.editor
        #expect(session.run("edit r1") == ["edit r1: cancelled (the file was left empty); r1 is unchanged"])
        #expect(session.run("reducer list") == ["r1: app on Add when action.by > 0 : state.n += action.by"])
    }

    @Test func withoutAnEditorItIsAOneLineError() {
        let session = counter(nil)
        let outcome = session.shell.execute("edit r1")
        #expect(outcome.status == .failure)
        #expect(session.error("edit r1")
            == "error: edit: no editor to open: edit runs $VISUAL or $EDITOR at an interactive terminal (set one, or use 'reducer r1 : STATEMENTS')")
    }

    @Test func anEditorThatFailsChangesNothing() {
        let session = counter(nil)
        session.shell.editor = ExternalEditor(name: "vi") { _ throws(EditorFailure) in throw EditorFailure("exited with status 1") }
        #expect(session.error("edit r1") == "error: edit: the editor 'vi' exited with status 1; r1 is unchanged")
        #expect(session.run("reducer list") == ["r1: app on Add when action.by > 0 : state.n += action.by"])
    }

    @Test func anUnknownReducerIsAnErrorUnderItsName() {
        let session = counter(ScriptedEditor([]))
        let outcome = session.shell.execute("edit r9")
        #expect(outcome.status == .failure)
        let text = outcome.lines.map(\.text).joined(separator: "\n")
        #expect(text == "error: no reducer 'r9' (reducers: r1)\n  edit r9\n       ^~")
        #expect(session.error("edit") == "error: missing the reducer's id (r1, r2, ...); usage: edit REDUCER (see 'help edit')")
    }

    @Test func aRecordingHoldsTheReducerAsEdited() throws {
        let directory = TemporaryDirectory()
        let file = directory.path + "/edit.jsonl"
        let session = counter(ScriptedEditor([replacingBody("state.n += 5")]))
        session.run("record \(file)\nedit r1\ndispatch app Add {by: 1}\nrecord stop")
        let recorded = try String(contentsOfFile: file, encoding: .utf8)
        #expect(recorded.contains("reducer r1 : state.n += 5"), "\(recorded)")
        #expect(!recorded.contains("edit r1"))
        let replay = DataflowSession()
        #expect(replay.run("replay \(file)").last?.hasPrefix("replayed") == true)
        #expect(try replay.value("state app").isIdentical(to: ["n": 5]))
    }

    @Test func completionOffersTheReducerIDs() {
        let session = counter(nil)
        #expect(session.shell.complete("edit ", cursor: 5).candidates == ["r1"])
        #expect(session.shell.complete("ed", cursor: 2).candidates == ["edit"])
    }

    @Test func helpShowsIt() {
        let session = counter(nil)
        let help = session.run("help edit")
        #expect(help.first == "edit REDUCER")
        #expect(session.run("help").contains { $0.hasPrefix("  edit REDUCER") })
    }
}
