import Foundation
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) @testable import PatchbayShell
import Testing

// What makes a recording trustworthy: it begins with what exists when it starts, it needs no
// other file, a replay of it runs no file command it was not allowed, and nothing a user made
// is replaced or dropped without a word.

/// A fresh shell whose recordings start at a fixed time.
private func liveShell() -> DataflowSession {
    let session = DataflowSession()
    session.shell.options.now = { Date(timeIntervalSince1970: 1_795_255_200) }
    return session
}

/// What `replay FILE --verify` says in a fresh shell.
private func verify(_ path: String, _ options: String = "") -> [String] {
    DataflowSession().run("replay \(path) --verify \(options)")
}

/// A fresh shell that has inspected `path`.
private func inspecting(_ path: String) -> DataflowSession {
    let session = DataflowSession()
    session.run("inspect \(path)")
    return session
}

/// The `history` and `state` of store `s` in `session`.
private func view(of session: DataflowSession, store: String = "s") -> [String] {
    session.run("history \(store)\nstate \(store)\nbranch \(store)")
}

@Suite("Recordings: a recording that starts in the middle of a session")
struct MidSessionRecordingTests {
    @Test func itBeginsWithTheStoresHistoriesAndDefinitionsAndVerifies() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/mid.jsonl"
        let live = liveShell()
        live.run("""
            store s = {n: 0}
            reducer s on Add : state.n += action.by
            dispatch s Add {by: 1}
            dispatch s Add {by: 10}
            jump 1
            dispatch s Add {by: 5}
            checkout main
            """)
        #expect(live.run("record \(path)") == ["recording into \(path) (it starts with what exists: 1 store and the definitions)"])
        live.run("dispatch s Add {by: 100}\nskip 2\nrecord stop")
        let expected = view(of: live)

        #expect(verify(path).last == "verified 2 steps of \(path): every effect matches the recording")
        let replayed = DataflowSession()
        replayed.run("replay \(path)")
        #expect(view(of: replayed) == expected)
        let inspected = DataflowSession()
        #expect(inspected.run("inspect \(path)") == ["inspected \(path): s (3 actions)"])
        #expect(view(of: inspected) == expected)
    }

    @Test func aSkipOnABranchsSharedStepsIsInTheOpening() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/branch-skip.jsonl"
        let live = liveShell()
        live.run("store s = {n: 0}\nreducer s on Inc : state.n += 1\ndispatch s Inc\ndispatch s Inc\njump s -1\ndispatch s Other\nskip s 1")
        live.run("record \(path)\nrecord stop")
        let inspected = inspecting(path)
        #expect(inspected.run("history s\nstate s") == live.run("history s\nstate s"))
        #expect(inspected.run("checkout s main\nhistory s") == live.run("checkout s main\nhistory s"))
    }

    @Test func aLoopAfterASkipThatCannotBeTakenBackIsRecordedAsItHappened() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/skip-loop.jsonl"
        let live = liveShell()
        live.run("store s = {count: 3, n: 0}\nreducer s on * when action.type != 'Inc' : state.n += 1\ndispatch s Later")
        live.run("wire s.state -> s.dispatch when $.count > 2 : {type: 'Push'}\nrecord \(path)\nskip s 1\nrecord stop")
        let inspected = inspecting(path)
        #expect(inspected.run("state s\nhistory s --last 2") == live.run("state s\nhistory s --last 2"))
        #expect(verify(path).last?.hasPrefix("verified ") == true)
    }

    /// Timers pending when the recording starts are in its opening: an `after` reducer's, a
    /// delay patch's and a timer patch's fire in the replay when they fire live. (Before, the
    /// recording left them out and `record` warned: the replay's clock had no timer.)
    @Test func itHoldsThePendingTimersAndTheReplayFiresThem() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/timers.jsonl"
        let live = liveShell()
        live.run("""
            store s = {later: 0, seen: []}
            reducer s on Later after 4 : state.later += 1
            reducer s on Saw : state.seen += [action.value]
            patch t timer ms=3
            patch d delay ms=5
            signal x
            wire x.out -> d.in
            wire d.out -> s.dispatch : {type: 'Saw', value: $}
            wire t.tick -> s.dispatch : {type: 'Saw', value: $ * 100}
            tick 3
            send x 7
            dispatch s Later
            tick 1
            """)
        try live.expectClock(now: 4, pending: 3, next: 6)
        #expect(live.run("record \(path)") == ["recording into \(path) (it starts with what exists: 1 store, 3 pending timers and the definitions)"])
        live.run("tick 2\nrecord stop")
        let expected = live.run("clock\nstate s\nhistory s")

        #expect(verify(path).last == "verified 1 step of \(path): every effect matches the recording")
        let replayed = DataflowSession()
        replayed.run("replay \(path)")
        #expect(replayed.run("clock\nstate s\nhistory s") == expected)
        // And after the recording: the timers go on as they do live.
        let later = "tick 20\nclock\nstate s\nhistory s --last 3"
        #expect(replayed.run(later) == live.run(later))
    }

    @Test func aTimerOfANodeTheOpeningDoesNotMakeIsAnErrorAtItsLine() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/lost-timer.jsonl"
        let live = liveShell()
        live.run("store s = {n: 0}\nreducer s on Later after 4 : state.n += 1\ndispatch s Later\nrecord \(path)\nrecord stop")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(#""kind":"timer","node":"s","due":4,"fires":"reducer","value":{"type":"Later"},"reducer":"r1","from":1"#))
        try text.replacingOccurrences(of: #""reducer":"r1","from""#, with: #""reducer":"r9","from""#)
            .write(toFile: path, atomically: false, encoding: .utf8)
        let replayed = DataflowSession()
        let lines = replayed.run("replay \(path)")
        #expect(lines.last?.hasPrefix("error: \(path): line ") == true)
        #expect(lines.last?.contains("r9") == true)
    }

    @Test func anEmptySessionRecordsNoOpening() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/empty.jsonl"
        let live = liveShell()
        #expect(live.run("record \(path)") == ["recording into \(path)"])
        live.run("record stop")
        #expect(try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").count == 1)
    }
}

extension MidSessionRecordingTests {
    /// A branch forked after a step that a sweep of its parent dropped shares only the steps
    /// before it: the recording's opening rebuilds it, and `inspect` shows what the shell shows.
    @Test func aBranchForkedAfterASweptStepOpensAsItIs() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/swept.jsonl"
        let live = liveShell()
        live.run("""
            store s = {n: 0}
            reducer s on Add : state.n += action.by
            dispatch s Add {by: 1}
            dispatch s Add {by: 10}
            dispatch s Add {by: 100}
            dispatch s Add {by: 5}
            skip 2
            jump 3
            dispatch s Add {by: 1000}
            checkout main
            history sweep
            checkout b1
            """)
        #expect(live.run("branch s") == ["  main  3 actions", "* b1  4 actions, from main at #1"])
        live.run("record \(path)\nrecord stop")
        #expect(view(of: inspecting(path)) == view(of: live))
        live.run("checkout main")
        let inspected = inspecting(path)
        inspected.run("checkout main")
        #expect(view(of: inspected) == view(of: live))
    }

    @Test func aSweepThatWouldLeaveABranchWithNothingOfItsOwnIsRefused() {
        let live = liveShell()
        live.run("""
            store s = {n: 0}
            reducer s on Add : state.n += action.by
            dispatch s Add {by: 1}
            dispatch s Add {by: 10}
            jump 1
            dispatch s Add {by: 5}
            skip 2
            """)
        let before = view(of: live)
        #expect(live.error("history sweep") == "error: every action b1 of s added is skipped, so the sweep would leave nothing to tell it "
                + "from main: unskip one to keep the branch, or 'checkout main' and sweep there")
        #expect(view(of: live) == before)
    }
}

@Suite("Recordings: skips carry their recomputed steps")
struct RecordedSkipTests {
    private func record(_ commands: String, into path: String) -> DataflowSession {
        let live = liveShell()
        live.run("record \(path)\nstore s = {n: 0}\nreducer s on Add : state.n += action.by")
        live.run("dispatch s Add {by: 1}\ndispatch s Add {by: 10}\ndispatch s Add {by: 100}")
        live.run(commands + "\nrecord stop")
        return live
    }

    @Test func inspectShowsTheStatesTheReducersRecomputed() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/skip.jsonl"
        let live = record("skip 2", into: path)
        let inspected = DataflowSession()
        #expect(inspected.run("inspect \(path)") == ["inspected \(path): s (3 actions)"])
        try live.expectJump("jump 3", "s", 3, of: 3, ["n": 101])
        try inspected.expectJump("jump 3", "s", 3, of: 3, ["n": 101])
        #expect(inspected.run("history\njump 1\nstate") == live.run("history\njump 1\nstate"))
        #expect(verify(path).last?.hasPrefix("verified ") == true)
    }

    @Test func skipThenUnskipInspectsAsTheLiveHistory() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/unskip.jsonl"
        let live = record("skip 1\nunskip 1", into: path)
        let inspected = DataflowSession()
        #expect(inspected.run("inspect \(path)") == ["inspected \(path): s (3 actions)"])
        let history = inspected.run("history")
        #expect(!history.contains { $0.contains("(no changes)") })
        #expect(history == live.run("history"))
        #expect(try inspected.value("state").isIdentical(to: ["n": 111]))
    }

    @Test func aRecordingWhoseSkipLinesLieIsCaughtByVerify() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/lie.jsonl"
        _ = record("skip 2", into: path)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(of: #""value":101"#, with: #""value":111"#).write(toFile: path, atomically: true, encoding: .utf8)
        // The checkpoint after the skip holds the state the app had, which the lying patches
        // contradict: damage at its line, as inspect says it.
        let damage = "checkpoint #3 of s differs from the state the patches before it give: the file is damaged here"
        #expect(verify(path).last?.contains("line 14: \(damage); the replay stopped agreeing with it at line 12") == true)
        #expect(inspecting(path).run("history").isEmpty == false)
    }
}

@Suite("Recordings: self-contained")
struct SelfContainedRecordingTests {
    @Test func aLoadIsRecordedAsTheCommandsItRan() throws {
        let directory = TemporaryDirectory()
        let script = directory.write("defs.pb", "store s = {n: 0}\nreducer s on Add : state.n += action.by\n")
        let path = directory.path + "/load.jsonl"
        let live = liveShell()
        live.run("record \(path)\nload \(script)\ndispatch s Add {by: 2}\nrecord stop")
        try FileManager.default.removeItem(atPath: script)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!text.contains("load "))
        #expect(verify(path).last == "verified 3 steps of \(path): every effect matches the recording")
    }

    /// Found by the session oracle: an import that failed (no file yet) was recorded as itself,
    /// and a replay after the file was written imported it. It is a note with its error now.
    @Test func aFileCommandThatFailedIsANoteThatAReplayDoesNotRunAgain() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/failed-import.jsonl"
        let exported = directory.path + "/devtools.json"
        let live = liveShell()
        live.run("store s = {n: 0}\nrecord \(path)")
        #expect(live.run("import devtools \(exported) t").last?.hasPrefix("error: cannot read") == true)
        live.run("load \(directory.path)/missing.pb\nexport devtools s \(exported)\nrecord stop")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(##""kind":"setup","text":"# import devtools "##))
        #expect(text.contains(##""kind":"setup","text":"# load "##))
        #expect(!text.contains(#""kind":"command""#))
        let replayed = DataflowSession()
        #expect(replayed.run("replay \(path) --verify --allow-files").last == "verified 0 steps of \(path): every effect matches the recording")
        #expect(replayed.run("nodes") == live.run("nodes"))
    }

    @Test func aReplayAndAnInspectAreRecordedAsTheSessionTheyMade() throws {
        let directory = TemporaryDirectory()
        let first = directory.path + "/first.jsonl"
        let live = liveShell()
        live.run("record \(first)\nstore s = {n: 0}\nreducer s on Add : state.n += action.by\ndispatch s Add {by: 2}\nrecord stop")
        let second = directory.path + "/second.jsonl"
        let recorder = liveShell()
        recorder.run("record \(second)\nreplay \(first) --verify\ndispatch s Add {by: 3}\ninspect \(first) --force\nstate s\nrecord stop")
        try FileManager.default.removeItem(atPath: first)
        #expect(!(try String(contentsOfFile: second, encoding: .utf8)).contains("first.jsonl"))
        #expect(verify(second).last?.hasPrefix("verified ") == true)
        let inspected = inspecting(second)
        #expect(try inspected.value("state s").isIdentical(to: ["n": 2]))
    }

    /// Found by the session oracle: an import dispatches its actions through the reducers, so a
    /// replay must too (the delayed reducer's timers it schedules included), without the file.
    @Test func anImportIsRecordedAsTheDispatchesItRan() throws {
        let directory = TemporaryDirectory()
        let exported = directory.path + "/devtools.json"
        let path = directory.path + "/import.jsonl"
        let live = liveShell()
        live.run("""
            store s = {later: 0}
            record \(path)
            dispatch s Later
            reducer s on Later after 4 : state.later += 1
            export devtools s \(exported)
            import devtools \(exported) s --force
            record stop
            """)
        try FileManager.default.removeItem(atPath: exported)
        try live.expectClock(now: 0, pending: 1, next: 4)
        #expect(inspecting(path).run("history s") == live.run("history s"))
        let replayed = liveShell()
        #expect(replayed.run("replay \(path) --verify").last == "verified 3 steps of \(path): every effect matches the recording")
        #expect(replayed.run("clock\ntick 4\nstate s\nhistory s") == live.run("clock\ntick 4\nstate s\nhistory s"))
    }

    /// Found by the session oracle: the import's new start publishes the store's state, and
    /// what is wired to its dispatch runs then; a replay rebuilds that start from the recording
    /// without running the wire a second time.
    @Test func anImportIntoAStoreWiredToItsOwnDispatchVerifies() throws {
        let directory = TemporaryDirectory()
        let exported = directory.path + "/devtools.json"
        let path = directory.path + "/import.jsonl"
        let live = liveShell()
        live.run("""
            store s = {count: 3}
            record \(path)
            reducer s on Inc : state.count += action.by
            wire s.state -> s.dispatch when $.count > 2 : {type: 'Push', v: $.count}
            export devtools s \(exported)
            dispatch s Inc {by: 1}
            import devtools \(exported) s --force
            record stop
            """)
        let replayed = liveShell()
        #expect(replayed.run("replay \(path) --verify").last?.hasPrefix("verified ") == true)
        #expect(view(of: replayed) == view(of: live))
        #expect(view(of: inspecting(path)) == view(of: live))
    }

    /// Found by the session oracle: the import's new start sets off a wire into another store,
    /// whose action the recording holds; a replay took that action for one of a store no store
    /// line created, and stopped.
    @Test func anImportWhoseStartDispatchesIntoAnotherStoreVerifies() throws {
        let directory = TemporaryDirectory()
        let exported = directory.path + "/devtools.json"
        let path = directory.path + "/other.jsonl"
        let live = liveShell()
        live.run("""
            store cart = {count: 2}
            store log = {count: 3}
            wire cart.state -> log.dispatch when $.count > 2 : {type: 'Push', v: $.count}
            record \(path)
            export devtools log \(exported)
            import devtools \(exported) cart --force
            record stop
            """)
        #expect(view(of: live, store: "log").first == "   #0 (initial state)")
        let replayed = liveShell()
        #expect(replayed.run("replay \(path) --verify").last?.hasPrefix("verified ") == true)
        for store in ["cart", "log"] {
            #expect(view(of: replayed, store: store) == view(of: live, store: store))
            #expect(view(of: inspecting(path), store: store) == view(of: live, store: store))
        }
    }

    @Test func aResetIsRecordedAndReplayed() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/reset.jsonl"
        let live = liveShell()
        live.run("""
            record \(path)
            store s = {n: 0}
            reducer s on Add : state.n += action.by
            dispatch s Add {by: 2}
            reset
            store s = {n: 5}
            reducer s on Add : state.n += action.by
            dispatch s Add {by: 1}
            record stop
            """)
        #expect(verify(path).last == "verified 7 steps of \(path): every effect matches the recording")
    }

    /// A wire whose first delivery sets off a loop that never settles fails as a whole: the
    /// wire goes with the actions, live and in a replay.
    @Test func aWireThatSetsOffALoopIsNotMade() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/wire.jsonl"
        let live = liveShell()
        live.run("record \(path)\nstore s = {count: 3, n: 0}\nreducer s on * : state.n += 1")
        let before = live.run("show s.state\nhistory s")
        #expect(live.run("wire s.state -> s.dispatch when $.count > 2 : {type: 'Push'}").first?.hasPrefix("error: did not settle") == true)
        #expect(live.run("show s.state\nhistory s") == before)
        live.run("dispatch s Other\nrecord stop")
        #expect(try live.value("state s").isIdentical(to: ["count": 3, "n": 1]))
        let replayed = liveShell()
        #expect(replayed.run("replay \(path) --verify").last?.hasPrefix("verified ") == true)
        #expect(replayed.run("show s.state\nhistory s") == live.run("show s.state\nhistory s"))
    }

    /// Found by the session oracle: a checkout that set off a loop grew the branch it checked
    /// out, and taking the command back left those actions there.
    @Test func aLoopSetOffByACheckoutIsTakenBackOnTheBranchItGrew() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/checkout.jsonl"
        let live = liveShell()
        live.run("""
            store s = {count: 3, n: 0}
            reducer s on * : state.n += 1
            dispatch s Echo
            jump s 0
            reducer s on Div : state.count = state.count / action.d
            dispatch s Div {d: 2}
            record \(path)
            wire s.state -> s.dispatch when $.count > 2 : {type: 'Push'}
            """)
        let before = view(of: live)
        #expect(live.run("checkout s main").first?.hasPrefix("error: did not settle") == true)
        #expect(view(of: live) == before)
        #expect(live.run("branch s") == ["  main  1 action", "* b1  1 action, from main at #0"])
        live.run("record stop")
        #expect(view(of: inspecting(path)) == before)
        #expect(verify(path).last?.hasPrefix("verified ") == true)
    }

    @Test func aDispatchLoopThatNeverSettlesIsTakenBackLiveInReplayAndInInspect() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/loop.jsonl"
        let live = liveShell()
        live.run("""
            record \(path)
            store s = {n: 0}
            reducer s on Add : state.n += 1
            dispatch s Add
            wire s.action -> s.dispatch
            dispatch s Add
            record stop
            """)
        #expect(try live.value("state s").isIdentical(to: ["n": 1]))
        #expect(verify(path).last == "verified 5 steps of \(path): every effect matches the recording")
        let inspected = inspecting(path)
        #expect(inspected.run("state s\nhistory s") == live.run("state s\nhistory s"))
    }

    @Test func aFailedCommandReplaysAsTheSameFailure() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/typo.jsonl"
        let live = liveShell()
        live.run("record \(path)\nstore s = {n: 0}\ndispatc s Add\ndispatch nope Add\n= 1 / 0\nrecord stop")
        #expect(verify(path).last == "verified 4 steps of \(path): every effect matches the recording")
    }
}

@Suite("Replays: what a replayed command may do")
struct ReplayTrustTests {
    /// A recording (written by hand) whose commands touch files.
    private func recording(in directory: TemporaryDirectory, commands: [String]) -> String {
        var lines = [#"{"patchbay":"session","version":1,"created":"2026-11-21T10:00:00Z"}"#]
        for (seq, command) in commands.enumerated() {
            lines.append(#"{"seq":\#(seq + 1),"kind":"command","text":"\#(command)"}"#)
        }
        return directory.write("shared.jsonl", lines.joined(separator: "\n") + "\n")
    }

    @Test func fileCommandsAreRefusedWithoutAllowFiles() throws {
        let directory = TemporaryDirectory()
        let victim = directory.write("victim.txt", "precious\n")
        let path = recording(in: directory, commands: ["var a = 1", "save \(victim) --force"])
        let session = DataflowSession()
        let output = session.run("replay \(path)")
        #expect(output.contains { $0.contains("error: cannot write '\(victim)': a replayed command writes no file unless the replay has --allow-files") })
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
    }

    @Test func allowFilesReachesOnlyFilesBesideTheRecording() throws {
        let directory = TemporaryDirectory()
        let path = recording(in: directory, commands: ["var a = 1", "save out.pb", "save ../escape.pb", "save /tmp/abs.pb"])
        let session = DataflowSession()
        let output = session.run("replay \(path) --allow-files")
        #expect(FileManager.default.fileExists(atPath: directory.path + "/out.pb"))
        #expect(output.contains { $0.contains("only files beside the recording") })
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/../escape.pb"))
    }

    @Test(arguments: ["load lnk/secret.pb", "load sl.pb", "save lnk/x.pb", "graph --dot lnk/y.dot", "record lnk/r.jsonl",
                      "export devtools s lnk/e.json", "import devtools lnk/secret.pb", "save lnk/new/x.pb"])
    func allowFilesDoesNotLeadOutThroughASymbolicLink(command: String) throws {
        let directory = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.path + "/rec", withIntermediateDirectories: false)
        try FileManager.default.createDirectory(atPath: directory.path + "/outside", withIntermediateDirectories: false)
        _ = directory.write("outside/secret.pb", "var leaked = 1\n")
        try FileManager.default.createSymbolicLink(atPath: directory.path + "/rec/lnk", withDestinationPath: "../outside")
        try FileManager.default.createSymbolicLink(atPath: directory.path + "/rec/sl.pb", withDestinationPath: "../outside/secret.pb")
        let lines = [#"{"patchbay":"session","version":1,"created":"2026-11-21T10:00:00Z"}"#,
                     #"{"seq":1,"kind":"command","text":"store s = {n: 0}"}"#,
                     #"{"seq":2,"kind":"command","text":"\#(command)"}"#]
        let path = directory.write("rec/r.jsonl", lines.joined(separator: "\n") + "\n")
        let session = DataflowSession()
        let output = session.run("replay \(path) --allow-files")
        #expect(output.contains { $0.contains("a symbolic link leads this path out of the recording's directory") })
        #expect(session.error("= leaked").contains("leaked"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path + "/outside") == ["secret.pb"])
    }

    @Test func allowFilesFollowsASymbolicLinkThatStaysInside() throws {
        let directory = TemporaryDirectory()
        _ = directory.write("defs.pb", "var inside = 1\n")
        try FileManager.default.createSymbolicLink(atPath: directory.path + "/same.pb", withDestinationPath: "defs.pb")
        let path = recording(in: directory, commands: ["load same.pb"])
        let session = DataflowSession()
        session.run("replay \(path) --allow-files")
        #expect(try session.value("= inside").isIdentical(to: 1))
    }

    @Test(arguments: ["save out.pb", "graph --dot out.dot", "export devtools s out.json"])
    func aVerifiedReplayWhoseFileCommandIsRefusedDiverges(command: String) throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/crafted.jsonl"
        liveShell().run("record \(path)\nstore s = {n: 0}\nrecord stop")
        // The file command as a command line without an error: the recording says it ran.
        let recorded = try String(contentsOfFile: path, encoding: .utf8)
        let seq = recorded.split(separator: "\n").count
        try (recorded + #"{"seq":\#(seq),"kind":"command","text":"\#(command)"}"# + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let output = verify(path)
        #expect(output.contains {
            $0.contains("replay diverged at step 2 (line 4: \(command)): it failed where the recording has it succeed: cannot write")
        }, "\(output)")
        #expect(!output.contains { $0.hasPrefix("verified") })
        #expect(verify(path, "--allow-files").last == "verified 2 steps of \(path): every effect matches the recording")
    }

    @Test func aReplayedRecordStopsWhenTheReplayEnds() throws {
        let directory = TemporaryDirectory()
        let path = recording(in: directory, commands: ["record inner.jsonl", "var a = 1"])
        let session = DataflowSession()
        session.run("replay \(path) --allow-files")
        #expect(session.run("record") == ["not recording (start with: record FILE)"])
        session.run("var b = 2")
        #expect(!(try String(contentsOfFile: directory.path + "/inner.jsonl", encoding: .utf8)).contains("var b"))
    }

    @Test func aFileThatReplaysItselfStopsAtTheNestingLimit() throws {
        let directory = TemporaryDirectory()
        let path = recording(in: directory, commands: ["replay shared.jsonl --allow-files --force"])
        let session = DataflowSession()
        let output = session.run("replay \(path) --allow-files")
        #expect(output.contains { $0.contains("more than 16 deep") })
    }
}

@Suite("Nothing a user made disappears silently")
struct NoSilentLossTests {
    @Test func recordOntoAnExistingFileNeedsForce() throws {
        let directory = TemporaryDirectory()
        let path = directory.write("keep.jsonl", "mine\n")
        let session = liveShell()
        #expect(session.error("record \(path)") == "error: cannot write '\(path)': the file exists; add --force to replace it, or choose another name")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "mine\n")
        #expect(session.run("record \(path) --force") == ["recording into \(path)"])
    }

    @Test func aFileBeingReadIsNeverRecordedInto() throws {
        let directory = TemporaryDirectory()
        let script = directory.write("script.pb", "var a = 1\nrecord \(directory.path)/script.pb --force\n")
        let session = liveShell()
        let output = session.run("load \(script)")
        #expect(output.contains { $0.contains("this session is reading it (a script, load, replay or inspect); choose another file") })
        #expect(try String(contentsOfFile: script, encoding: .utf8).hasPrefix("var a = 1\n"))
    }

    @Test func theFileBeingRecordedIsNeverReplayedOrInspected() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/live.jsonl"
        let session = liveShell()
        session.run("record \(path)\nvar a = 1")
        #expect(session.error("replay \(path) --force") == "error: cannot read '\(path)': it is being recorded; 'record stop' first")
        #expect(session.error("inspect \(path) --force") == "error: cannot read '\(path)': it is being recorded; 'record stop' first")
    }

    @Test func replayAndInspectKeepASessionThatHoldsSomething() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/r.jsonl"
        let first = liveShell()
        first.run("record \(path)\nvar x = 1\nrecord stop")
        let session = DataflowSession()
        session.run("var mine = 42")
        let refusal = "it starts a fresh session and this one holds 1 node; 'save FILE' or 'reset' first, or add --force"
        #expect(session.error("replay \(path)") == "error: replay: \(refusal)")
        #expect(session.error("inspect \(path)") == "error: inspect: \(refusal)")
        #expect(try session.value("= mine").isIdentical(to: 42))
        #expect(session.run("replay \(path) --force").last == "replayed 1 step of \(path)")
    }

    @Test func commitAndRevertKeepOtherBranchesUnlessForced() throws {
        let session = DataflowSession()
        session.run("store s = {n: 0}\nreducer s on Add : state.n += 1\ndispatch s Add\ndispatch s Add\njump 1\ndispatch s Add")
        let refusal = "it keeps only the current branch (b1) and s also has branch main; add --force to drop it, or 'checkout' the branch to keep first"
        #expect(session.error("history commit") == "error: history commit: \(refusal)")
        #expect(session.error("history revert") == "error: history revert: \(refusal)")
        #expect(session.run("branch").count == 2)
        #expect(session.run("history commit --force") == ["committed: the current state is the initial state now (2 actions squashed)"])
        #expect(session.run("branch").count == 1)
    }

    @Test func importIntoAStoreWithHistoryNeedsForceAndStartsFromItsInitialState() throws {
        let directory = TemporaryDirectory()
        let file = directory.write("rdt.json", #"{"payload":"[{\"type\":\"Add\"}]"}"#)
        let session = DataflowSession()
        session.run("store s = {n: 10}\nreducer s on Add : state.n += 1\ndispatch s Add")
        #expect(session.error("import devtools \(file) s").hasPrefix("error: \(file): s has 1 action in its history, which the import would replace"))
        #expect(try session.value("state s").isIdentical(to: ["n": 11]))
        #expect(session.run("import devtools \(file) s --force") == ["imported 1 action into s; the 1 action it had before was replaced"])
        #expect(try session.value("state s").isIdentical(to: ["n": 11]))
        try session.expectJump("jump 0", "s", 0, of: 1, ["n": 10])
    }

    @Test(arguments: ["save FILE --force", "graph --dot FILE --force", "export devtools s FILE --force"])
    func theFileBeingRecordedIsNeverWrittenByAnotherCommand(command: String) throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/x1.jsonl"
        let session = liveShell()
        session.run("store s = {n: 0}\nrecord \(path)")
        #expect(session.error(command.replacingOccurrences(of: "FILE", with: path))
            == "error: cannot write '\(path)': this session is recording into it; 'record stop' first, or choose another file")
        #expect(session.run("= 42\nrecord stop").last == "stopped recording into \(path) (5 events)")
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains(#""text":"= 42""#))
    }

    @Test(arguments: ["save FILE --force", "graph --dot FILE --force", "export devtools s FILE --force", "record FILE --force"])
    func aScriptBeingRunIsNeverWritten(command: String) throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/s1.pb"
        let script = "store s = {n: 0}\n" + command.replacingOccurrences(of: "FILE", with: path) + "\n"
        _ = directory.write("s1.pb", script)
        let output = liveShell().run("load \(path)")
        #expect(output.contains { $0.contains("error: cannot write '\(path)': this session is reading it (a script, load, replay or inspect)") })
        #expect(try String(contentsOfFile: path, encoding: .utf8) == script)
    }

    @Test func aRecordingBeingReplayedOrPausedIsNeverWritten() throws {
        let directory = TemporaryDirectory()
        let recorded = [#"{"patchbay":"session","version":1,"created":"2026-11-21T10:00:00Z"}"#,
                        #"{"seq":1,"kind":"command","text":"var a = 1"}"#,
                        #"{"seq":2,"kind":"command","text":"save self2.jsonl --force"}"#].joined(separator: "\n") + "\n"
        let path = directory.write("self2.jsonl", recorded)
        let output = DataflowSession().run("replay \(path) --allow-files")
        #expect(output.contains { $0.contains("error: cannot write '\(path)': this session is reading it") })
        #expect(try String(contentsOfFile: path, encoding: .utf8) == recorded)
        let paused = DataflowSession()
        paused.run("replay \(path) --step")
        #expect(paused.error("save \(path) --force").hasPrefix("error: cannot write '\(path)': this session is reading it"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == recorded)
    }

    @Test(arguments: ["save FILE --force", "graph --dot FILE --force", "export devtools s FILE --force", "record FILE --force"])
    func aFileAnotherProcessRecordsIntoIsNeverWritten(command: String) throws {
        let directory = TemporaryDirectory()
        let path = directory.write("locked.jsonl", "theirs\n")
        // Another recorder's lock: flock locks belong to an open file, so one of our own stands for another process.
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        #expect(flock(descriptor, LOCK_EX) == 0)
        let session = liveShell()
        session.run("store s = {n: 0}")
        #expect(session.error(command.replacingOccurrences(of: "FILE", with: path))
            == "error: cannot write '\(path)': another process is recording into it; choose another file")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "theirs\n")
    }

    @Test func exportOntoAnExistingFileNeedsForce() throws {
        let directory = TemporaryDirectory()
        let file = directory.write("out.json", "mine\n")
        let session = DataflowSession()
        session.run("store s = {n: 0}")
        #expect(session.error("export devtools s \(file)").hasSuffix("the file exists; add --force to replace it, or choose another name"))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "mine\n")
        #expect(session.run("export devtools s \(file) --force") == ["exported 0 actions of s to \(file)"])
    }
}

@Suite("Time travel: user integers at the extremes")
struct TimeTravelExtremesTests {
    @Test(arguments: ["jump -9223372036854775808", "jump +9223372036854775807", "jump 9223372036854775807",
                      "diff -9223372036854775808", "diff 9223372036854775807 -9223372036854775808",
                      "skip -9223372036854775808", "unskip 9223372036854775807"])
    func anExtremeStepIsAnErrorThatChangesNothing(command: String) {
        let session = DataflowSession()
        session.run("store s = {n: 0}\nreducer s on Add : state.n += 1\ndispatch s Add")
        let before = session.run("history\nstate")
        #expect(session.error(command).hasPrefix("error: "))
        #expect(session.run("history\nstate") == before)
    }
}

@Suite("Ctrl-C: an interrupted command changes nothing and is not recorded")
struct InterruptedCommandTests {
    @Test func anInterruptedDispatchLeavesNoFailedActionAndNoRecordedLine() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/interrupted.jsonl"
        let session = liveShell()
        session.run("record \(path)\nstore s = {n: 0}\nreducer s on Big : state.n = len(map(range(100000), x => x))")
        let interruption = Interruption()
        let outcome = interruption.during { () -> CommandOutcome in
            interruption.request()   // Ctrl-C while the command runs
            return session.shell.execute("dispatch s Big")
        }
        #expect(outcome.status == .failure)
        #expect(outcome.lines.map(\.text).first?.hasPrefix("error: interrupted; nothing changed") == true)
        try session.expectNoActions("history s")
        session.run("record stop")
        #expect(!(try String(contentsOfFile: path, encoding: .utf8)).contains("dispatch s Big"))
        #expect(verify(path).last == "verified 3 steps of \(path): every effect matches the recording")
    }
}
