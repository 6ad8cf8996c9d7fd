import Foundation
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayRecorder
@_spi(Shell) import PatchbayHistory
@_spi(Shell) @testable import PatchbayShell
import Testing

// `inspect FILE --follow` through the shell: what arrives prints as `dispatch` prints a step,
// every time-travel command works on it, and following stops with one line when it must.

@Suite("Sessions: inspect --follow")
struct InspectFollowShellTests {
    /// A recording an app is still writing: the store `app` at `{count: 0}`, then actions that
    /// set `count`, each with its digest, appended on demand.
    /// (Unchecked: a test thread that plays the app appends while the shell reads only `path`.)
    final class AppRecording: @unchecked Sendable {
        let directory = TemporaryDirectory()
        let path: String
        private var state: Value = ["count": 0]
        private var digest: StateDigest
        private(set) var actions = 0

        init(actions: Int = 0) {
            digest = StateDigest(state)
            path = directory.write("app.jsonl", SessionHeader(created: "2026-11-21T10:00:00Z").line + "\n"
                                   + #"{"seq":1,"kind":"store","store":"app","state":{"count":0}}"# + "\n")
            append(actions)
        }

        /// The next action's line, without its line break: it sets `count` to ten times its index.
        func nextLine() -> String {
            let index = actions + 1
            let change = ValueChange(path: [.key("count")], operation: .replace, old: state["count"], new: .int(index * 10))
            var after = state
            try! after.apply(change)
            var newDigest = digest
            newDigest.apply([change], after: after)
            return #"{"seq":\#(index + 1),"kind":"action","store":"app","index":\#(index),"action":{"type":"Set","to":\#(index * 10)},"#
                + #""patch":[{"op":"replace","path":"/count","value":\#(index * 10)}],"hash":"\#(newDigest.text)"}"#
        }

        /// Appends `count` whole action lines.
        func append(_ count: Int) {
            for _ in 0..<count { write(nextLine() + "\n") }
        }

        /// Appends text as it stands; an action line completed by it counts.
        func write(_ text: String) {
            let handle = FileHandle(forWritingAtPath: path)!
            handle.seekToEndOfFile()
            handle.write(Data(text.utf8))
            try? handle.close()
            for _ in text.filter({ $0 == "\n" }) {
                actions += 1
                let change = ValueChange(path: [.key("count")], operation: .replace, old: state["count"], new: .int(actions * 10))
                try! state.apply(change)
                digest.apply([change], after: state)
            }
        }
    }

    private func followed(_ session: DataflowSession) -> [String] {
        session.shell.readFollowed().map(\.text)
    }

    @Test func newActionsPrintAsDispatchPrintsThemAndTimeTravelSeesThem() throws {
        let recording = AppRecording(actions: 2)
        let session = DataflowSession()
        #expect(session.run("inspect \(recording.path) --follow") == [
            "inspected \(recording.path): app (2 actions)",
            "following \(recording.path): new actions appear as they arrive, until Ctrl-C",
        ])
        #expect(session.shell.isFollowing)
        #expect(followed(session).isEmpty)
        recording.append(2)
        #expect(followed(session) == ["#3 Set  count: 20 → 30", "#4 Set  count: 30 → 40"])
        #expect(try session.value("state").isIdentical(to: ["count": 40]))
        try session.expectJump("jump 1", "app", 1, of: 4, ["count": 10])
        #expect(try session.report("diff 2 4", as: StateDiff.self).changes.isIdentical(to: [.at("count", from: 20, to: 40)]))
        #expect(session.run("blame count").count == 4)
        // A new action takes the store back to the end of the recording, then one step on.
        recording.append(1)
        #expect(followed(session) == ["#5 Set  count: 40 → 50"])
        #expect(try session.value("state").isIdentical(to: ["count": 50]))
        #expect(session.run("history").last == ">  #5 Set {to: 50}  count")
    }

    @Test func aLongBacklogIsReadOverSeveralCalls() throws {
        let recording = AppRecording(actions: 1)
        let session = DataflowSession()
        session.run("inspect \(recording.path) --follow")
        recording.append(5000)
        let first = followed(session)
        #expect(first.count == 4096)
        #expect(first.last == "#4097 Set  count: 40960 → 40970")
        let second = followed(session)
        #expect(second.count == 5000 - 4096)
        #expect(second.last == "#5001 Set  count: 50000 → 50010")
        #expect(try session.value("state").isIdentical(to: ["count": 50010]))
    }

    @Test func aLineArrivingInPiecesPrintsOnceWhole() {
        let recording = AppRecording(actions: 1)
        let session = DataflowSession()
        session.run("inspect \(recording.path) --follow")
        let line = recording.nextLine()
        for piece in [line.prefix(10), line.dropFirst(10).prefix(40), line.dropFirst(50)] {
            recording.write(String(piece))
            #expect(followed(session).isEmpty)
        }
        recording.write("\n")
        #expect(followed(session) == ["#2 Set  count: 10 → 20"])
    }

    @Test func aDamagedNewLineStopsFollowingAtItsLineAndKeepsWhatCameBefore() throws {
        let recording = AppRecording(actions: 1)
        let session = DataflowSession()
        session.run("inspect \(recording.path) --follow")
        recording.append(1)
        recording.write(#"{"seq":4,"kind":"action","store":"app","index":3,"patch":[]}"# + "\n")
        let lines = session.shell.readFollowed()
        #expect(lines.first?.text == "#2 Set  count: 10 → 20")
        let errors = lines.filter { $0.stream == .error }.map(\.text)
        #expect(errors == ["error: \(recording.path): line 5: missing \"action\" (any JSON value); following stopped, and everything read "
                           + "before is kept"])
        #expect(!session.shell.isFollowing)
        #expect(try session.value("state").isIdentical(to: ["count": 20]))
        try session.expectJump("jump 1", "app", 1, of: 2, ["count": 10])
    }

    @Test func aTruncatedFileStopsFollowingWithOneLine() throws {
        let recording = AppRecording(actions: 2)
        let session = DataflowSession()
        session.run("inspect \(recording.path) --follow")
        #expect(truncate(recording.path, 100) == 0)
        let lines = session.shell.readFollowed()
        #expect(lines.count == 1)
        #expect(lines.first?.stream == .error)
        #expect(lines.first?.text.hasPrefix("error: \(recording.path): the file shrank to 100 bytes") == true)
        #expect(lines.first?.text.contains("\n") == false)
        #expect(!session.shell.isFollowing)
        #expect(try session.value("state").isIdentical(to: ["count": 20]))
    }

    @Test func followingStopsWhenTheFileDoesNotGrowForIdleSeconds() throws {
        let recording = AppRecording(actions: 1)
        let session = DataflowSession()
        #expect(session.run("inspect \(recording.path) --follow --idle 0.2").last
            == "following \(recording.path): new actions appear as they arrive, until it does not grow for 0.2 s or Ctrl-C")
        recording.append(1)
        #expect(followed(session) == ["#2 Set  count: 10 → 20"])
        Thread.sleep(forTimeInterval: 0.3)
        #expect(followed(session) == ["stopped following \(recording.path): it did not grow for 0.2 s (1 new action read)"])
        #expect(!session.shell.isFollowing)
        recording.append(1)
        #expect(followed(session).isEmpty)
        #expect(try session.value("state").isIdentical(to: ["count": 20]))
    }

    @Test func anotherInspectOrAResetEndsTheFollowing() {
        let recording = AppRecording(actions: 1)
        let session = DataflowSession()
        session.run("inspect \(recording.path) --follow")
        // Refused (the session holds the store): the following goes on.
        #expect(session.error("inspect \(recording.path)").contains("add --force"))
        #expect(session.shell.isFollowing)
        session.run("inspect \(recording.path) --force")
        #expect(!session.shell.isFollowing)
        session.run("inspect \(recording.path) --force --follow")
        #expect(session.shell.isFollowing)
        session.run("reset")
        #expect(!session.shell.isFollowing)
        recording.append(1)
        #expect(followed(session).isEmpty)
        #expect(session.shell.stopFollowing().isEmpty)
    }

    @Test(arguments: [
        ("inspect a.jsonl --idle 2", "--idle goes with --follow"),
        ("inspect a.jsonl --follow --idle 0", "--idle takes a number of seconds above 0"),
        ("inspect a.jsonl --follow --idle soon", "--idle takes a number of seconds above 0"),
        ("inspect a.jsonl --follow --idle", "a number of seconds after --idle"),
        ("inspect a.jsonl --tail", "unexpected '--tail' (options: --force, --follow, --idle SECONDS)"),
    ])
    func badOptionsAreOneLineErrors(command: String, message: String) {
        let session = DataflowSession()
        let error = session.error(command)
        #expect(error.contains(message), "\(error)")
        #expect(!session.shell.isFollowing)
    }

    @Test func aReplayedInspectDoesNotFollow() {
        let recording = AppRecording(actions: 1)
        let replayed = recording.directory.write("replayed.jsonl", SessionHeader(created: nil).line + "\n"
                                                   + #"{"seq":1,"kind":"command","text":"inspect app.jsonl --follow"}"# + "\n")
        let session = DataflowSession()
        let printed = session.run("replay \(replayed) --allow-files").joined(separator: "\n")
        #expect(printed.contains("a replayed 'inspect' does not follow its file"), "\(printed)")
        #expect(!session.shell.isFollowing)
    }

    @Test func jsonOutputSaysItFollowsAndPrintsEachStepAsAnEvent() {
        let recording = AppRecording(actions: 1)
        let session = DataflowSession(json: true)
        let started = session.run("inspect \(recording.path) --follow")
        #expect(started.count == 1 && started[0].contains(#""following":true"#))
        recording.append(1)
        #expect(followed(session) == [
            #"{"event":"dispatch","store":"app","index":2,"action":{"type":"Set","to":20},"changes":[{"path":"count","op":"replace","old":10,"new":20}]}"#,
        ])
    }

    @Test func aScriptFollowsInPlaceBeforeItsNextLine() throws {
        let recording = AppRecording(actions: 1)
        // The app appends once the script follows (it says so, then follows).
        let run = ShellRun("inspect \(recording.path) --follow --idle 0.5\nstate\njump 2\n") { line in
            if line.text.hasPrefix("following ") { recording.append(2) }
        }
        #expect(run.errors == [])
        #expect(run.output == [
            "inspected \(recording.path): app (1 action)",
            "following \(recording.path): new actions appear as they arrive, until it does not grow for 0.5 s or Ctrl-C",
            "#2 Set  count: 10 → 20", "#3 Set  count: 20 → 30",
            "stopped following \(recording.path): it did not grow for 0.5 s (2 new actions read)",
            "{count: 30}", "app at #2 of 3: {count: 20}",
        ])
    }

    @Test func ctrlCInAScriptStopsTheFollowingAndTheScriptGoesOn() throws {
        let recording = AppRecording(actions: 1)
        let interruption = Interruption()
        var run = ShellRun("")
        // Ctrl-C comes once the script follows (it says so, then follows).
        interruption.during {
            run = ShellRun("inspect \(recording.path) --follow\nstate\n") { line in
                if line.text.hasPrefix("following ") { interruption.request() }
            }
        }
        #expect(run.errors == [])
        #expect(run.output.suffix(2) == ["stopped following \(recording.path) (0 new actions read)", "{count: 10}"])
    }
}
