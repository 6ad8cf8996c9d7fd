import Foundation
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayRecorder
@_spi(Shell) import PatchbayHistory
@_spi(Shell) @testable import PatchbayShell
import Testing

// Recording and replay through the shell: record, replay (--verify, --step, --until, break),
// inspect, damaged files, DevTools files, and a typed store's Recorder file inspected by the shell.

/// A shell whose recordings start at a fixed time.
private func recordingShell(json: Bool = false) -> DataflowSession {
    let session = DataflowSession(json: json)
    session.shell.options.now = { Date(timeIntervalSince1970: 1_795_255_200) }   // 2026-11-21T10:00:00Z
    return session
}

private func lines(of path: String) -> [String] {
    (try? String(contentsOfFile: path, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
}

/// A counter session recorded into `path`.
private func recordCounter(into path: String) {
    let session = recordingShell()
    session.run("""
        record \(path)
        store app = {count: 0}
        reducer app on Increment : state.count += action.by
        dispatch app Increment {by: 2}
        dispatch app Increment {by: 3}
        record stop
        """)
}

@Suite("Sessions: record")
struct RecordShellTests {
    @Test func aRecordingHasAHeaderThenEachCommandWithItsEffects() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/counter.jsonl"
        recordCounter(into: path)
        #expect(lines(of: path) == [
            #"{"patchbay":"session","version":1,"created":"2026-11-21T10:00:00Z"}"#,
            #"{"seq":1,"kind":"command","text":"store app = {count: 0}"}"#,
            #"{"seq":2,"kind":"store","store":"app","state":{"count":0}}"#,
            #"{"seq":3,"kind":"command","text":"reducer app on Increment : state.count += action.by"}"#,
            #"{"seq":4,"kind":"command","text":"dispatch app Increment {by: 2}"}"#,
            #"{"seq":5,"kind":"action","store":"app","index":1,"action":{"type":"Increment","by":2},"patch":[{"op":"replace","path":"/count","value":2}],"hash":"\#(StateDigest(["count": 2]).text)"}"#,
            #"{"seq":6,"kind":"command","text":"dispatch app Increment {by: 3}"}"#,
            #"{"seq":7,"kind":"action","store":"app","index":2,"action":{"type":"Increment","by":3},"patch":[{"op":"replace","path":"/count","value":5}],"hash":"\#(StateDigest(["count": 5]).text)"}"#,
        ])
    }

    @Test func recordShowsTheStatusAndStopSaysHowManyEvents() throws {
        let directory = TemporaryDirectory()
        let session = recordingShell()
        let idle = try session.report("record", as: RecordingStatus.self)
        #expect(idle.path == nil && idle.failure == nil)
        let started = try session.report("record \(directory.path)/a.jsonl", as: RecordingStarted.self)
        #expect(started.path == "\(directory.path)/a.jsonl" && started.stores == 0 && started.pendingTimers == 0 && !started.startsWithOpening)
        session.run("= 1")
        let status = try session.report("record", as: RecordingStatus.self)
        #expect(status.path == "\(directory.path)/a.jsonl" && status.events == 1 && status.failure == nil)
        #expect(session.error("record \(directory.path)/b.jsonl").contains("already recording"))
        let stopped = try session.report("record stop", as: RecordingStopped.self)
        #expect(stopped.path == "\(directory.path)/a.jsonl" && stopped.events == 1)
        #expect(try session.report("record stop", as: RecordingStopped.self).path == nil)
    }

    @Test func errorsProbesAndRoutesAreRecorded() {
        let directory = TemporaryDirectory()
        let path = directory.path + "/effects.jsonl"
        let session = recordingShell()
        session.run("""
            record \(path)
            var x = 1
            probe x --future
            set x = 3
            = nope
            route add /message/:username view=message option=modal
            route /message/Max
            """)
        let recorded = lines(of: path)
        #expect(recorded.contains(#"{"seq":4,"kind":"publish","port":"x.value","value":3}"#))
        #expect(recorded.contains { $0.contains(#""kind":"error","text":"= nope","message":"unknown name 'nope'"#) })
        #expect(recorded.contains { $0.contains(#""kind":"route","url":"/message/Max","pattern":"/message/:username","params":{"username":"Max"}"#) })
    }

    @Test func anUnwritableFileIsAnError() throws {
        let session = recordingShell()
        #expect(session.error("record /nonexistent-dir/x.jsonl").hasPrefix("error: cannot write '/nonexistent-dir/x.jsonl'"))
        #expect(try session.report("record", as: RecordingStatus.self).path == nil)
    }
}

@Suite("Sessions: replay")
struct ReplayShellTests {
    @Test func replayVerifyPassesOnAnUnchangedSession() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/counter.jsonl"
        recordCounter(into: path)
        let session = DataflowSession()
        // Like a test run, a verification prints its outcome only.
        try expectVerified(session.shell.reply(to: "replay \(path) --verify"), path, steps: 4)
        #expect(try session.value("state").isIdentical(to: ["count": 5]))
        let history = try session.report("history --last 1", as: HistoryListing.self)
        #expect(history.entries.map(\.index) == [2] && history.current == 2 && !history.showsInitialState && history.branch == nil)
        #expect(history.entries.map(\.action) == [["type": "Increment", "by": 3]] && history.entries.map { $0.changes.map(\.pathText) } == [["count"]])
    }

    @Test func replayVerifyStopsAtTheFirstDivergenceWithTheStepAndADiff() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/counter.jsonl"
        recordCounter(into: path)
        // The reducer changes: the third step now adds twice as much.
        let text = try String(contentsOfFile: path, encoding: .utf8)
            .replacingOccurrences(of: "state.count += action.by", with: "state.count += action.by * 2")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let session = DataflowSession()
        let outcome = session.shell.execute("replay \(path) --verify")
        #expect(outcome.status == .failure)
        let printed = outcome.lines.map(\.text)
        #expect(printed.contains { $0.hasPrefix("error: ") && $0.contains("replay diverged at step 3 (line 6: dispatch app Increment {by: 2}): the state after action #1 of app differs") })
        #expect(printed.contains("  count: 2 → 4"))
    }

    @Test func replayStepsUntilAndBreaks() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/counter.jsonl"
        recordCounter(into: path)
        let session = DataflowSession()
        try expectPaused(session.shell.reply(to: "replay \(path) --step"), path, step: 0, .stepped(next: "store app = {count: 0}"))
        try expectPaused(session.shell.reply(to: "step"), path, step: 1, .stepped(next: "reducer app on Increment : state.count += action.by"))
        let breakpoint = try session.report("break app when state.count > 1", as: BreakpointSet.self)
        #expect(breakpoint.store == "app" && breakpoint.condition.description == "state.count > 1")
        try expectPaused(session.shell.reply(to: "continue"), path, step: 3, .breakpoint(after: "dispatch app Increment {by: 2}"))
        #expect(try session.value("state").isIdentical(to: ["count": 2]))
        let finished = try session.report("continue", as: ReplayFinished.self)
        #expect(finished.path == path && finished.steps == 4 && !finished.verified && finished.failed == 0)
        #expect(session.error("step").contains("no replay is paused"))
        try expectPaused(DataflowSession().shell.reply(to: "replay \(path) --until 3"), path, step: 3, .stepped(next: "dispatch app Increment {by: 3}"))
    }

    @Test func aReplayPrintsWhatItsCommandsPrintAndAVerificationShowsItsSteps() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/counter.jsonl"
        recordCounter(into: path)
        let replayed = DataflowSession().run("replay \(path)")
        #expect(replayed.contains("#1 Increment  count: 0 → 2"))
        #expect(replayed.last == "replayed 4 steps of \(path)")
        let session = DataflowSession()
        session.run("replay \(path) --verify --step")
        session.run("step")
        session.run("step")
        // The step prints what its command printed: the action, then where the replay paused.
        #expect(session.run("step") == ["#1 Increment  count: 0 → 2", "replay of \(path) paused after step 3 of 4; next: dispatch app Increment {by: 3}"])
        try expectVerified(session.shell.reply(to: "continue"), path, steps: 4)
    }

    @Test func anAppsRecordingReplaysOnlyWhereItsStoreIsHosted() throws {
        let directory = TemporaryDirectory()
        let path = directory.write("app.jsonl", """
            {"patchbay":"session","version":1,"created":"2026-11-21T10:00:00Z"}
            {"seq":1,"kind":"store","store":"app","state":{"count":0}}

            """)
        #expect(DataflowSession().error("replay \(path)").contains("nothing to replay: no commands and no actions"))
        let app = directory.write("actions.jsonl", try String(contentsOfFile: path, encoding: .utf8)
            + #"{"seq":2,"kind":"action","store":"app","index":1,"action":{"type":"Increment"},"patch":[]}"# + "\n")
        #expect(DataflowSession().error("replay \(app)").contains("line 2: app is an app's store that this shell does not host"))
    }
}

@Suite("Sessions: inspect and damaged files")
struct InspectShellTests {
    /// A recording as a Swift app's Recorder writes it: no command lines.
    private func appRecording(_ directory: TemporaryDirectory, extra: String = "") -> String {
        var state: Value = ["count": 0]
        var digest = StateDigest(state)
        var text = #"{"patchbay":"session","version":1,"created":"2026-11-21T10:00:00Z"}"# + "\n"
        text += #"{"seq":1,"kind":"store","store":"app","state":{"count":0}}"# + "\n"
        for index in 1...3 {
            let change = ValueChange(path: [.key("count")], operation: .replace, old: state["count"], new: .int(index * 10))
            try! state.apply(change)
            digest.apply([change], after: state)
            text += #"{"seq":\#(index + 1),"kind":"action","store":"app","index":\#(index),"action":{"type":"Set","to":\#(index * 10)},"patch":[{"op":"replace","path":"/count","value":\#(index * 10)}],"hash":"\#(digest.text)"}"# + "\n"
        }
        return directory.write("app.jsonl", text + extra)
    }

    @Test func inspectRebuildsAHistoryWithoutCommandLines() throws {
        let directory = TemporaryDirectory()
        let path = appRecording(directory)
        let session = DataflowSession()
        try expectInspected(session, path, ["app": 3])
        #expect(try session.value("state").isIdentical(to: ["count": 30]))
        let jump = try session.report("jump 1", as: StoreAtStep.self)
        #expect(jump.store == "app" && jump.index == 1 && jump.move == .jump(count: 3) && jump.state.isIdentical(to: ["count": 10]))
        #expect(try session.report("diff 1 3", as: StateDiff.self).changes.isIdentical(to: [.at("count", from: 10, to: 30)]))
        let blames = try session.report("blame count", as: BlameListing.self).blames
        #expect(blames.map(\.index) == [1, 2, 3])
        #expect(Value.array(blames.map(\.action)).isIdentical(to: [["type": "Set", "to": 10], ["type": "Set", "to": 20], ["type": "Set", "to": 30]]))
        #expect(Value.array(blames.compactMap(\.old)).isIdentical(to: [0, 10, 20]) && Value.array(blames.compactMap(\.new)).isIdentical(to: [10, 20, 30]))
        #expect(session.error("skip 2").contains("no reducers"))
    }

    @Test func aTruncatedLastLineLoadsEverythingBeforeIt() throws {
        let directory = TemporaryDirectory()
        let path = appRecording(directory, extra: #"{"seq":5,"kind":"action","store":"app","ind"#)
        let session = DataflowSession()
        let outcome = session.shell.execute("inspect \(path)")
        #expect(outcome.status == .failure)
        #expect(outcome.lines.map(\.text).contains { $0.hasPrefix("error: ") && $0.contains("line 6") })
        #expect(try session.value("state").isIdentical(to: ["count": 30]))
    }

    @Test func aGarbageLineStopsLoadingThere() {
        let directory = TemporaryDirectory()
        let path = appRecording(directory, extra: "garbage\n" + #"{"seq":9,"kind":"store","store":"late","state":{}}"# + "\n")
        let session = DataflowSession()
        #expect(session.shell.execute("inspect \(path)").lines.map(\.text).contains { $0.contains("line 6") })
        #expect(session.run("history --last 1") == [">  #3 Set {to: 30}  count"])
        #expect(session.error("state late").hasPrefix("error: "))
    }

    @Test func aNewerVersionIsRefused() {
        let directory = TemporaryDirectory()
        let path = directory.write("future.jsonl", #"{"patchbay":"session","version":3,"created":"2030-01-01T00:00:00Z"}"# + "\n")
        let message = DataflowSession().error("inspect \(path)")
        #expect(message.contains("line 1") && message.contains("version 3"))
    }

    @Test func aFileThatIsNotASessionEndsAtOnceWithOneLine() {
        // A device is not read at all (only regular files are); a regular file that never ends
        // a line is stopped by the 64 MiB line limit, not by memory.
        let directory = TemporaryDirectory()
        let long = directory.write("long.jsonl", String(repeating: "x", count: (64 << 20) + 1))
        let session = DataflowSession()
        session.run("store app = {n: 1}")
        #expect(session.error("inspect /dev/zero --force") == "error: cannot read '/dev/zero': it is a device, not a regular file")
        #expect(session.error("replay /dev/urandom --force") == "error: cannot read '/dev/urandom': it is a device, not a regular file")
        #expect(session.error("inspect \(long) --force").hasPrefix("error: \(long): line 1: the line is longer than 64 MiB"))
        #expect(session.error("replay \(long) --force").contains("line 1: the line is longer than 64 MiB"))
        #expect(session.run("state") == ["{n: 1}"], "a refused file leaves the session as it was")
    }

    @Test func unknownKindsAndFieldsAreIgnored() {
        let directory = TemporaryDirectory()
        let path = directory.write("extra.jsonl", """
            {"patchbay":"session","version":1,"created":"2026-11-21T10:00:00Z","host":"x"}
            {"seq":1,"kind":"telemetry","cpu":3}
            {"seq":2,"kind":"store","store":"app","state":{"n":1},"color":"blue"}

            """)
        #expect(DataflowSession().run("inspect \(path)") == ["inspected \(path): app (0 actions)"])
    }
}

@Suite("Sessions: Redux DevTools files and the typed Recorder")
struct DevToolsShellTests {
    @Test func exportThenImportRoundTripsTheStates() throws {
        let directory = TemporaryDirectory()
        let file = directory.path + "/state.json"
        let session = DataflowSession()
        session.run("""
            store app = {items: [], count: 0}
            reducer app on Add : state.items = append(state.items, action.title); state.count += 1
            dispatch app Add {title: "milk"}
            dispatch app Add {title: "bread"}
            """)
        try expectExported(session, "export devtools app \(file)", "app", actions: 2, to: file)
        let exported = try JSONReader.parse(String(contentsOfFile: file, encoding: .utf8))
        #expect(exported["preloadedState"] == .string(#"{"items":[],"count":0}"#))

        let other = DataflowSession()
        other.run("store app = {items: [], count: 0}")
        other.run(#"reducer app on Add : state.items = append(state.items, action.title); state.count += 1"#)
        try expectImported(other, "import devtools \(file) app", into: "app", actions: 2)
        #expect(other.run("state") == session.run("state"))
        #expect(other.run("diff 0 1") == session.run("diff 0 1"))
    }

    @Test func aTypedStoresRecordingOpensInTheShell() throws {
        struct Counter: Codable { var count = 0 }
        enum Action: Codable { case increment(by: Int) }
        let directory = TemporaryDirectory()
        let path = directory.path + "/typed.jsonl"
        let store = Store(initialState: Counter(), reducer: Reducer { (state: inout Counter, action: Action) in
            switch action { case .increment(let by): state.count += by }
        })
        let recorder = try Recorder(store: store, path: path, storeName: "counter", detail: .everyChange)
        store.dispatch(.increment(by: 2))
        store.dispatch(.increment(by: 5))
        recorder.stop()
        let session = DataflowSession()
        #expect(session.run("inspect \(path)") == ["inspected \(path): counter (2 actions)"])
        #expect(try session.value("state").isIdentical(to: ["count": 7]))
        #expect(session.run("history") == [
            "   #0 (initial state)", "   #1 increment {by: 2}  count", ">  #2 increment {by: 5}  count",
        ])
    }

    @Test func aRecordingThroughReflectionIsInspectedButNotReplayed() throws {
        final class Session { var user = "ada"; var onChange: () -> Void = {} }
        struct Model { var count = 0; var session = Session() }
        enum Action { case increment(by: Int), reset }
        let directory = TemporaryDirectory()
        let path = directory.path + "/reflected.jsonl"
        var model = Model()
        let recorder = try Recorder<Model, Action>(path: path, storeName: "model", reflecting: model, detail: .everyChange)
        model.count += 2
        recorder.record(.increment(by: 2), state: model)
        model.count = 0
        recorder.record(.reset, state: model)
        recorder.stop()
        #expect(recorder.error == nil)

        let session = DataflowSession()
        // It says so when it opens, as the recorder promises.
        #expect(session.run("inspect \(path)") == [
            "inspected \(path): model (2 actions)",
            "warning: \(path) was recorded through reflection (a state that is not Codable): it inspects fully, but it cannot be replayed, "
                + "and no reducer can recompute its states",
        ])
        #expect(session.run("history") == ["   #0 (initial state)", "   #1 increment {by: 2}  count", ">  #2 reset  count"])
        #expect(session.run("jump 1").first?.hasPrefix("model at #1 of 2: {count: 2, session: {user: \"ada\", onChange: {") == true)
        #expect(try session.value("state").isIdentical(to: ["count": 2, "session": ["user": "ada", "onChange": ["$unrepresentable": "() -> ()", "description": "(Function)"]]]))
        let refusal = "recorded through reflection: it can be inspected but not replayed; open it with 'inspect \(path)'"
        #expect(DataflowSession().error("replay \(path)").contains(refusal))
        #expect(DataflowSession().error("replay \(path) --verify").contains(refusal))

        // The header decides, not the lack of commands: a file with commands is refused too.
        let withCommands = directory.write("commands.jsonl", """
            {"patchbay":"session","version":1,"created":"2026-11-21T10:00:00Z","reflection":true}
            {"seq":1,"kind":"command","text":"store app = {n: 1}"}

            """)
        let other = DataflowSession()
        #expect(other.error("replay \(withCommands)").contains("recorded through reflection"))
        #expect(other.error("state").hasPrefix("error: "), "a refused replay changes nothing")
    }
}

@Suite("Sessions: replay against the recorded lines")
struct ReplayRecordedLinesTests {
    /// The counter recording with its lines changed by `change` (given the lines without the
    /// header, numbered from 2), and its path.
    private func counter(_ directory: TemporaryDirectory, _ change: (inout [String]) -> Void) throws -> String {
        let path = directory.path + "/counter.jsonl"
        recordCounter(into: path)
        var recorded = lines(of: path)
        var body = Array(recorded.dropFirst())
        change(&body)
        recorded = [recorded[0]] + body
        try (recorded.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The counter recording, its last line cut in the middle (what a crash while writing it
    /// leaves).
    private func counterCutShort(_ directory: TemporaryDirectory) throws -> String {
        let path = try counter(directory) { body in body[6] = String(body[6].prefix(40)) }
        var text = try String(contentsOfFile: path, encoding: .utf8)
        text.removeLast()
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The first line of printed text (an error goes on with the command and a caret).
    private static func firstLine(_ text: String?) -> String? {
        text?.split(separator: "\n").first.map(String.init)
    }

    /// `line` as another tool might write it: its keys in reverse order, spaces, a field more.
    private func rewritten(_ line: String) throws -> String {
        guard case .object(let members) = try JSONReader.parse(line) else { return line }
        let fields = members.reversed().map { "\(Value.string($0.key.string).jsonText) : \($0.value.jsonText)" }
        return "{ " + (fields + [#""note" : "by hand""#]).joined(separator: " , ") + " }"
    }

    @Test func effectLinesInAnotherFormStillVerify() throws {
        let directory = TemporaryDirectory()
        let path = try counter(directory) { body in
            body = body.map { $0.contains(#""kind":"command""#) ? $0 : ((try? rewritten($0)) ?? $0) }
        }
        #expect(lines(of: path)[5].hasPrefix(#"{ "hash" : "#))
        #expect(DataflowSession().run("replay \(path) --verify") == ["verified 4 steps of \(path): every effect matches the recording"])
    }

    @Test(arguments: [false, true])
    func aChangedEffectDivergesAtItsStepWithTheDiff(rewrite: Bool) throws {
        let directory = TemporaryDirectory()
        let path = try counter(directory) { body in
            body[4] = body[4].replacingOccurrences(of: #""value":2}"#, with: #""value":9}"#)
            if rewrite { body[4] = (try? rewritten(body[4])) ?? body[4] }
        }
        let outcome = DataflowSession().shell.execute("replay \(path) --verify")
        #expect(outcome.status == .failure)
        let printed = outcome.lines.map(\.text)
        #expect(printed.dropLast() == ["  count: 9 → 2"])
        #expect(Self.firstLine(printed.last)
            == "error: \(path): replay diverged at step 3 (line 6: dispatch app Increment {by: 2}): the state after action #1 of app differs from the recording (recorded → now, above)")
    }

    @Test func aDivergenceElidesALongValueAsEveryCommandDoes() throws {
        let directory = TemporaryDirectory()
        let long = String(repeating: "x", count: 300)
        let path = try counter(directory) { body in
            body[4] = body[4].replacingOccurrences(of: #""value":2}"#, with: #""value":"\#(long)"}"#)
        }
        let printed = DataflowSession().shell.execute("replay \(path) --verify").lines.map(\.text)
        #expect(printed.dropLast() == ["  count: \"\(long.prefix(198))\"… (102 more characters) → 2"])
    }

    /// An action line taken out: the replay stops agreeing with the file at the command whose
    /// action it was, and the file is damaged where the next action shows the gap. The damage
    /// is what both `inspect` and the verification name, at its line.
    @Test func aMissingActionLineIsDamageWhereTheNextActionShowsIt() throws {
        let directory = TemporaryDirectory()
        let path = try counter(directory) { body in body.remove(at: 4) }
        let damage = "line 7: action #2 of app does not follow state #0"
        let printed = DataflowSession().shell.execute("replay \(path) --verify").lines.map(\.text)
        #expect(printed.map { Self.firstLine($0) } == ["error: \(path): \(damage); the replay stopped agreeing with it at line 5"])
        let inspected = DataflowSession().shell.execute("inspect \(path)").lines.map(\.text)
        #expect(Self.firstLine(inspected.last) == "error: \(path): \(damage); everything before that line is loaded")
    }

    /// The last action line taken out: nothing in the file shows the gap (a command may do
    /// nothing), and the verification finds the step that no longer does what the file says,
    /// noting that the file ends at it.
    @Test func aMissingLastEffectDivergesAtItsStep() throws {
        let directory = TemporaryDirectory()
        let path = try counter(directory) { body in body.removeLast() }
        let printed = DataflowSession().shell.execute("replay \(path) --verify").lines.map(\.text)
        #expect(printed.first == "  expected: nothing")
        #expect(printed.dropFirst().first?.hasPrefix(#"  actual:   {"seq":0,"kind":"action","store":"app","index":2,"#) == true)
        #expect(Self.firstLine(printed.last) == "error: \(path): replay diverged at step 4 (line 7: dispatch app Increment {by: 3}): "
            + "expected nothing more, got action #2 of app; it is the file's last line: if the file was cut there, what the command did is "
            + "what is missing")
    }

    @Test func anEffectTheReplayDoesNotDoDivergesAtItsStep() throws {
        let directory = TemporaryDirectory()
        let path = try counter(directory) { body in body.append(#"{"seq":8,"kind":"jump","store":"app","index":1}"#) }
        let printed = DataflowSession().shell.execute("replay \(path) --verify").lines.map(\.text)
        #expect(printed.dropLast() == [#"  expected: {"seq":0,"kind":"jump","store":"app","index":1}"#, "  actual:   nothing"])
        #expect(Self.firstLine(printed.last)
            == "error: \(path): replay diverged at step 4 (line 9: dispatch app Increment {by: 3}): expected a jump line, got nothing more")
    }

    @Test(arguments: [false, true])
    func aDamagedLineEndsTheReplayAfterTheStepsBeforeIt(verify: Bool) throws {
        let directory = TemporaryDirectory()
        let path = try counter(directory) { body in body.insert("garbage", at: 5) }
        let session = DataflowSession()
        let outcome = session.shell.execute("replay \(path)" + (verify ? " --verify" : ""))
        #expect(outcome.status == .failure)
        #expect(Self.firstLine(outcome.lines.last?.text)
            == "error: \(path): line 7: not JSON: unexpected character at byte 1; the steps before it ran")
        #expect(try session.value("state").isIdentical(to: ["count": 2]))
        #expect(DataflowSession().run("replay \(path) --step") == ["replay of \(path) paused before step 1 of 3: store app = {count: 0}"])
    }

    @Test func aLastLineCutShortEndsTheReplayAfterTheStepsBeforeIt() throws {
        let directory = TemporaryDirectory()
        let path = try counterCutShort(directory)
        let session = DataflowSession()
        let outcome = session.shell.execute("replay \(path)")
        #expect(Self.firstLine(outcome.lines.last?.text)
            == "error: \(path): line 8: the line is cut short (the recording stopped while writing it); the steps before it ran")
        #expect(try session.value("state").isIdentical(to: ["count": 5]))
    }

    @Test func aVerifyingReplayReportsAnEffectCutShortAsDamageNotAsADifference() throws {
        let directory = TemporaryDirectory()
        let path = try counterCutShort(directory)
        let session = DataflowSession()
        let outcome = session.shell.execute("replay \(path) --verify")
        #expect(outcome.lines.map(\.text).filter { $0.contains("diverged") }.isEmpty)
        #expect(Self.firstLine(outcome.lines.last?.text)
            == "error: \(path): line 8: the line is cut short (the recording stopped while writing it); the steps before it ran")
        #expect(try session.value("state").isIdentical(to: ["count": 5]))
    }
}

/// A replay of a file of more than a megabyte starts on the file's first part while the rest
/// is read: it runs, verifies, pauses and stops at damage as a replay of a whole file does.
@Suite("Sessions: replay of a large file")
struct ReplayLargeFileTests {
    /// A recording of a store and `count` dispatches, each line padded to about 500 bytes, and
    /// its lines (the header first).
    private func record(_ count: Int, into path: String) -> [String] {
        let padding = String(repeating: "p", count: 200)
        let session = recordingShell()
        session.run("record \(path)\nstore app = {n: 0}\nreducer app on Set : state.n = action.value")
        for value in 1...count { session.run("dispatch app Set {value: \(value), note: \"\(padding)\"}") }
        session.run("record stop")
        return lines(of: path)
    }

    /// The index in `lines` of the action line of dispatch `value`.
    private func actionLine(_ value: Int, in lines: [String]) throws -> Int {
        try #require(lines.firstIndex { $0.contains(#""kind":"action","store":"app","index":\#(value),"#) })
    }

    private func write(_ lines: [String], to path: String) throws {
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test func aLargeRecordingVerifiesAndPausesWithItsStepCount() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/large.jsonl"
        let recorded = record(3000, into: path)
        #expect(recorded.joined().utf8.count > 1 << 20)
        let session = DataflowSession()
        #expect(session.run("replay \(path) --verify") == ["verified 3002 steps of \(path): every effect matches the recording"])
        #expect(try session.value("state").isIdentical(to: ["n": 3000]))
        #expect(DataflowSession().run("replay \(path) --until 2950").last?
            .hasPrefix("replay of \(path) paused after step 2950 of 3002; next: dispatch app Set {value: 2949, note:") == true)
    }

    @Test func aChangeNearTheEndDivergesAtItsStep() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/large.jsonl"
        var recorded = record(3000, into: path)
        // The action of step 2902, the dispatch of 2900, on the line after its command.
        let action = try actionLine(2900, in: recorded)
        recorded[action] = recorded[action].replacingOccurrences(of: #""patch":[{"op":"replace","path":"/n","value":2900}]"#,
                                                                 with: #""patch":[{"op":"replace","path":"/n","value":7}]"#)
        try write(recorded, to: path)
        let session = DataflowSession()
        let printed = session.shell.execute("replay \(path) --verify").lines.map(\.text)
        #expect(printed.first == "  n: 7 → 2900")
        // The line of the recorded action that differs (1-based: the line after its command).
        #expect(printed.last?.hasPrefix("error: \(path): replay diverged at step 2902 (line \(action + 1): dispatch app Set {value: 2900,") == true)
        #expect(try session.value("state").isIdentical(to: ["n": 2900]))
    }

    @Test func damageNearTheEndStopsTheReplayThere() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/large.jsonl"
        var recorded = record(3000, into: path)
        let garbage = try actionLine(2900, in: recorded) + 1
        recorded.insert("garbage", at: garbage)
        try write(recorded, to: path)
        let session = DataflowSession()
        let outcome = session.shell.execute("replay \(path) --verify")
        #expect(outcome.lines.last?.text.hasPrefix("error: \(path): line \(garbage + 1): not JSON") == true)
        #expect(outcome.lines.last?.text.contains("the steps before it ran") == true)
        #expect(try session.value("state").isIdentical(to: ["n": 2900]))
        #expect(DataflowSession().run("replay \(path) --step").first?.hasPrefix("replay of \(path) paused before step 1 of 2902:") == true)
    }
}

@Suite("Sessions: Redux DevTools files as the tool writes them (Tests/DevToolsFixtures)")
struct DevToolsFixtureShellTests {
    static func fixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("DevToolsFixtures/\(name)").path
    }

    static let todoApp = """
        store app = {todos: [], filter: "none"}
        reducer app on ADD_TODO : state.todos = append(state.todos, {text: action.text, done: false})
        reducer app on TOGGLE_TODO : state.todos[action.index].done = !state.todos[action.index].done
        reducer app on SET_FILTER : state.filter = action.filter
        """

    static let liftedHistory = [
        "   #0 (initial state)", "   #1 ADD_TODO {text: \"milk\"}  todos[0]", " ~ #2 ADD_TODO {text: \"bread\"}  (skipped)",
        ">  #3 TOGGLE_TODO {index: 0}  todos[0].done", "   #4 SET_FILTER {filter: \"done\"}  filter",
    ]

    @Test func aLiftedStateKeepsItsSkippedActionsAndItsCurrentStep() throws {
        let session = DataflowSession()
        session.run(Self.todoApp)
        let file = Self.fixture("todos-lifted.json")
        try expectImported(session, "import devtools \(file) app", into: "app", actions: 4, skipped: 1, at: 3)
        #expect(session.run("history") == Self.liftedHistory)
        // The states the file computed: the skipped action added nothing; the store is at step 3.
        let lifted = try JSONReader.parse(String(contentsOfFile: file, encoding: .utf8))
        guard case .array(let computed)? = lifted["computedStates"] else { Issue.record("no computedStates"); return }
        for index in 0...4 {
            session.run("jump \(index)")
            #expect(session.run("state app") == [computed[index]["state"].map { "\($0)" } ?? "?"], "step \(index)")
        }
    }

    @Test func aJSANLiftedStateImportsRecordsReplaysAndInspects() throws {
        let directory = TemporaryDirectory()
        let recording = directory.path + "/import.jsonl"
        let session = DataflowSession()
        session.run(Self.todoApp.replacingOccurrences(of: "done: false}", with: "done: false, at: action.at}"))
        session.run("record \(recording)")
        try expectImported(session, "import devtools \(Self.fixture("todos-lifted-serialize.json")) app", into: "app", actions: 4, skipped: 1, at: 3)
        session.run("dispatch app SET_FILTER {filter: \"open\"}")
        session.run("record stop")
        let history = session.run("history")
        #expect(history.contains("   #1 ADD_TODO {text: \"milk\", at: \"2023-11-14T22:13:21.500Z\"}  todos[0]"))
        #expect(try session.value("state").isIdentical(to: ["todos": [["text": "milk", "done": true, "at": "2023-11-14T22:13:21.500Z"]], "filter": "open"]))

        #expect(DataflowSession().run("replay \(recording) --verify").last?.hasPrefix("verified ") == true)
        let inspector = DataflowSession()
        inspector.run("inspect \(recording)")
        #expect(inspector.run("history") == history)
        #expect(inspector.run("branch") == session.run("branch"))
    }

    @Test func theDefaultExportsJSANValuesArePlainValues() throws {
        let session = DataflowSession()
        session.run("store tree = {selected: 0, ticks: 0}\nreducer tree on SELECT : state.selected = action.node\nreducer tree on * : state.ticks += 1")
        try expectImported(session, "import devtools \(Self.fixture("nodes-circular.json")) tree", into: "tree", actions: 4)
        #expect(try session.value("state tree.selected").isIdentical(to: ["id": 1, "children": [["id": 2, "parent": "[CIRCULAR]"]]]))
        #expect(try session.value("state tree.ticks").isIdentical(to: 4))
    }

    @Test func withoutAPreloadedStateTheStoresOwnInitialStateIsTheStart() throws {
        let directory = TemporaryDirectory()
        let file = directory.write("actions.json", #"[{"type":"Add"},{"type":"Add"}]"#)
        let session = DataflowSession()
        session.run("store s = {n: 10}\nreducer s on Add : state.n += 1\ndispatch s Add\nhistory commit")
        // After the commit, the initial state is {n: 11}: the import starts there, never from {}.
        try expectImported(session, "import devtools \(file) s", into: "s", actions: 2)
        #expect(try session.value("state s").isIdentical(to: ["n": 13]))
        try session.expectJump("jump 0", "s", 0, of: 2, ["n": 11])
        // A store that does not exist has no initial state to start from.
        #expect(session.error("import devtools \(file) fresh").contains("the file has no preloadedState (committedState) and there is no store fresh"))
        #expect(session.error("state fresh").contains("fresh"))
    }

    @Test func replacingAHistoryWithBranchesSaysWhatItReplaces() throws {
        let directory = TemporaryDirectory()
        let file = directory.write("rdt.json", #"{"payload":"[{\"type\":\"Add\"}]","preloadedState":"{\"n\":0}"}"#)
        let session = DataflowSession()
        session.run("store s = {n: 10}\nreducer s on Add : state.n += 1\ndispatch s Add\ndispatch s Add\njump 1\ndispatch s Add")
        #expect(session.error("import devtools \(file) s").hasSuffix(
            "s has 2 actions and 1 other branch in its history, which the import would replace; 'export devtools s FILE' to keep them, then add --force, or import into a new store"))
        #expect(try session.value("state s").isIdentical(to: ["n": 12]))
        #expect(session.run("branch s").count == 2)
        #expect(session.run("import devtools \(file) s --force") == ["imported 1 action into s; the 2 actions and 1 other branch it had before were replaced"])
        #expect(session.run("branch s").count == 1)
    }

    @Test func exportLiftedKeepsSkipsAndTheCurrentStep() throws {
        let directory = TemporaryDirectory()
        let file = directory.path + "/lifted.json"
        let session = DataflowSession()
        session.run(Self.todoApp)
        session.run("import devtools \(Self.fixture("todos-lifted.json")) app")
        try expectExported(session, "export devtools app \(file) --lifted", "app", actions: 4, to: file, skipped: 1, lifted: true)
        let other = DataflowSession()
        other.run(Self.todoApp)
        try expectImported(other, "import devtools \(file) app", into: "app", actions: 4, skipped: 1, at: 3)
        #expect(other.run("history") == Self.liftedHistory)
        // The default form cannot keep what is skipped, nor the current step: asked for, it
        // writes the lifted state all the same, and says why.
        let plain = directory.path + "/plain.json"
        #expect(session.run("export devtools app \(plain)") == [
            "exported 4 actions of app (1 skipped) to \(plain) as a lifted state, which keeps what is skipped and the current step #3 (the default form cannot)",
        ])
        #expect(try DevToolsFile(parsing: String(contentsOfFile: plain, encoding: .utf8))
                == DevToolsFile(parsing: String(contentsOfFile: file, encoding: .utf8)))
    }

    @Test func aStoreWithoutReducersCannotMarkTheSkippedActionsAndSaysSo() {
        let session = DataflowSession()
        #expect(session.run("import devtools \(Self.fixture("todos-lifted.json")) app") == [
            "imported 4 actions into app, at #3",
            "warning: app has no reducers, so no action changed its state; add reducers, then 'history recompute app'",
            "warning: app has no reducers, so the file's skipped action #2 is not marked skipped; add its reducers, then 'skip app N'",
        ])
        #expect(session.run("history").filter { $0.contains("skipped") }.isEmpty)
    }

    @Test func theOptionsComplete() {
        let session = DataflowSession()
        session.run(Self.todoApp)
        let export = "export devtools app state.json "
        #expect(session.shell.complete(export, cursor: export.utf8.count).candidates == ["--force", "--lifted"])
        let importing = "import devtools state.json "
        #expect(session.shell.complete(importing, cursor: importing.utf8.count).candidates == ["--force", "app"])
    }

    @Test func jsonResultsSayWhatWasImported() {
        let session = DataflowSession(json: true)
        session.run(Self.todoApp)
        let line = session.run("import devtools \(Self.fixture("todos-lifted.json")) app").last ?? ""
        #expect(line.contains(#""result":{"store":"app","actions":4,"failed":0,"skipped":[2],"current":3,"replaced":0,"replacedBranches":0}"#))
    }
}

/// Checks that `reply` is a replay of `path` that ran to its end, `steps` steps, every effect as recorded.
private func expectVerified(_ reply: CommandReply?, _ path: String, steps: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let finished = try #require(reply?.report as? ReplayFinished, "\(String(describing: reply?.result))", sourceLocation: sourceLocation)
    #expect(finished.path == path && finished.steps == steps && finished.verified && finished.failed == 0, sourceLocation: sourceLocation)
    #expect(finished.differing.count == 0, sourceLocation: sourceLocation)
}

/// Checks that `reply` is a replay of `path` paused after `step` steps (of 4) for `reason`.
private func expectPaused(_ reply: CommandReply?, _ path: String, step: Int, _ reason: ReplayPaused.Reason,
                          sourceLocation: SourceLocation = #_sourceLocation) throws {
    let paused = try #require(reply?.report as? ReplayPaused, "\(String(describing: reply?.result))", sourceLocation: sourceLocation)
    #expect(paused.path == path && paused.step == step && paused.steps == 4 && paused.reason == reason, "\(paused.reason)",
            sourceLocation: sourceLocation)
}

/// Runs `inspect PATH`, which must load the `stores` with their action counts, in order, and warn of nothing.
private func expectInspected(_ session: DataflowSession, _ path: String, _ stores: KeyValuePairs<String, Int>,
                             sourceLocation: SourceLocation = #_sourceLocation) throws {
    let inspected = try session.report("inspect \(path)", as: Inspected.self, sourceLocation: sourceLocation)
    #expect(inspected.path == path && inspected.warnings.isEmpty && inspected.follow == nil, sourceLocation: sourceLocation)
    #expect(inspected.stores.map(\.name) == stores.map(\.key) && inspected.stores.map(\.actions) == stores.map(\.value),
            sourceLocation: sourceLocation)
}

/// Runs an `import devtools` that must import `actions` actions into `store`, with none failed, `skipped` of them
/// skipped, at step `current` (the last by default), replacing nothing.
private func expectImported(_ session: DataflowSession, _ command: String, into store: String, actions: Int, skipped: Int = 0,
                            at current: Int? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let imported = try session.report(command, as: DevToolsImported.self, sourceLocation: sourceLocation)
    #expect(imported.store == store && imported.actions == actions && imported.failed == 0 && imported.skipped.count == skipped
            && imported.unmarked.isEmpty && imported.hasReducers, "\(imported)", sourceLocation: sourceLocation)
    #expect((imported.current ?? actions) == (current ?? actions), sourceLocation: sourceLocation)
    #expect(imported.replaced.actions == 0 && imported.replaced.branches == 0, sourceLocation: sourceLocation)
}

/// Runs an `export devtools` that must write `actions` actions of `store` to `path`, `skipped` of them skipped,
/// lifted or not, with nothing more to keep.
private func expectExported(_ session: DataflowSession, _ command: String, _ store: String, actions: Int, to path: String,
                            skipped: Int = 0, lifted: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let exported = try session.report(command, as: DevToolsExported.self, sourceLocation: sourceLocation)
    #expect(exported.store == store && exported.actions == actions && exported.path == path && exported.skipped == skipped
            && exported.lifted == lifted && exported.keeps == nil, "\(exported)", sourceLocation: sourceLocation)
}
