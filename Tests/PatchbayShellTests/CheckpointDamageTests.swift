import Foundation
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayRecorder
@_spi(Shell) @testable import PatchbayShell
import Testing

// A checkpoint that disagrees with the patches before it, or stands after another step than the
// one it holds, is damage at its line, for `inspect`, `replay --verify` and `RecordedSession`
// alike: the history shows the states the patches give, never a checkpoint's other state.

@Suite("A checkpoint that disagrees with the patches is damage")
struct CheckpointDamageTests {
    /// Records `before` commands, then starts recording into `path` and runs `during`.
    private func record(_ path: String, before: String, during: String, hosting stores: [HostedStore] = []) throws {
        let session = DataflowSession()
        try session.shell.host(stores)
        session.shell.options.now = { Date(timeIntervalSince1970: 1_795_255_200) }
        session.run(before + "\nrecord \(path)\n" + during + "\nrecord stop")
    }

    /// Changes the state of checkpoint `index` of `store` to `state`; returns its line.
    private func tamper(_ path: String, checkpoint index: Int, of store: String, from old: String, to new: String) throws -> Int {
        var lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let position = try #require(lines.firstIndex {
            $0.contains(#""kind":"checkpoint""#) && $0.contains(#""store":"\#(store)""#) && $0.contains(#""index":\#(index),"#)
        })
        #expect(lines[position].contains(old), "\(lines[position])")
        lines[position] = lines[position].replacingOccurrences(of: old, with: new)
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return position + 1
    }

    private func firstLine(_ lines: [String]) -> String {
        lines.first { $0.hasPrefix("error: ") }.map { String($0.split(separator: "\n")[0]) } ?? "(no error)"
    }

    /// The first error line of `command` in a fresh shell that hosts the tally store.
    private func firstLineHostingTally(_ command: String) throws -> String {
        let session = DataflowSession()
        try session.shell.host([HostedFixtures.tally()])
        return firstLine(session.run(command))
    }

    @Test func aCheckpointOfTheOpeningIsDamageAtItsLine() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/mid.jsonl"
        try record(path, before: "store s = {n: 0}\nreducer s on inc : state.n += 1\ndispatch s inc", during: "dispatch s inc\ndispatch s inc")
        let line = try tamper(path, checkpoint: 1, of: "s", from: #""n":1"#, to: #""n":50"#)
        let damage = "checkpoint #1 of s differs from the state the patches before it give: the file is damaged here"

        let inspecting = DataflowSession()
        #expect(firstLine(inspecting.run("inspect \(path)")) == "error: \(path): line \(line): \(damage); everything before that line is loaded")
        // What the error says is what the history shows: the patches' state, at #1.
        #expect(try inspecting.value("state s").isIdentical(to: ["n": 1]))
        #expect(inspecting.run("jump s 1\nstate s").last == "{n: 1}")

        let replaying = DataflowSession()
        #expect(firstLine(replaying.run("replay \(path) --verify")) == "error: \(path): line \(line): \(damage)")
    }

    @Test func aCheckpointAmongTheStepsIsDamageAtItsLine() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/steps.jsonl"
        // A store of one leaf checkpoints every 32 actions.
        try record(path, before: "", during: "store s = {n: 0}\nreducer s on inc : state.n += 1\n"
            + Array(repeating: "dispatch s inc", count: 40).joined(separator: "\n"))
        let line = try tamper(path, checkpoint: 32, of: "s", from: #""n":32"#, to: #""n":50"#)
        let damage = "checkpoint #32 of s differs from the state the patches before it give: the file is damaged here"

        let inspecting = DataflowSession()
        #expect(firstLine(inspecting.run("inspect \(path)")) == "error: \(path): line \(line): \(damage); everything before that line is loaded")
        #expect(try inspecting.value("state s").isIdentical(to: ["n": 32]))

        let replaying = DataflowSession()
        #expect(firstLine(replaying.run("replay \(path) --verify")) == "error: \(path): line \(line): \(damage); the steps before it ran")
    }

    @Test func recordedSessionSaysTheSameDamage() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/tally.jsonl"
        try record(path, before: "", during: Array(repeating: "dispatch tally add {amount: 1}", count: 40).joined(separator: "\n"),
                   hosting: [HostedFixtures.tally()])
        let line = try tamper(path, checkpoint: 32, of: "tally", from: #""total":32"#, to: #""total":50"#)
        #expect(throws: RecordedSessionError.cannotVerify(
            line: line, "checkpoint #32 of tally differs from the state the patches before it give: the file is damaged here")) {
            try RecordedSession(path: path).verify(HostedFixtures.tallyReducer())
        }
    }

    /// A checkpoint's index and state edited together (`"index":0,"state":{"n":0}` to
    /// `"index":1,"state":{"n":99}`), in the opening after a jump and among the steps, at the
    /// indexes a careless edit gives: the same damage, at the same line, from every reader.
    @Test(arguments: [(0, -1), (0, 1), (0, 99), (32, 0), (32, 31), (32, 33)])
    func aCheckpointOfAnotherStepIsDamageAtItsLine(index: Int, edited: Int) throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/moved.jsonl"
        try record(path, before: "dispatch tally add {amount: 1}\njump tally 0",
                   during: Array(repeating: "dispatch tally add {amount: 1}", count: 40).joined(separator: "\n"),
                   hosting: [HostedFixtures.tally()])
        let line = try tamper(path, checkpoint: index, of: "tally", from: #""index":\#(index),"#, to: #""index":\#(edited),"#)
        let damage = "checkpoint #\(edited) of tally comes where tally is at state #\(index)"

        #expect(try firstLineHostingTally("inspect \(path)") == "error: \(path): line \(line): \(damage); everything before that line is loaded")
        #expect(try firstLineHostingTally("replay \(path) --verify") == "error: \(path): line \(line): \(damage); the steps before it ran")

        #expect(throws: RecordedSessionError.session(SessionError(path: path, line: line, .outOfPlace(damage)))) {
            try RecordedSession(path: path).verify(HostedFixtures.tallyReducer())
        }
    }

    /// An action's patch edited: the step diverges from the reducer, and the checkpoint after
    /// it contradicts the patches. The file is damaged, at the checkpoint, and every reader says
    /// so there (not a divergence before it).
    @Test func anEditedPatchIsDamageWhereTheCheckpointContradictsIt() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/edited.jsonl"
        let store = Store(initialState: Tally(), reducer: HostedFixtures.tallyReducer())
        let recorder = try Recorder(store: store, path: path, storeName: "tally", detail: .everyChange, checkpointInterval: 2)
        for _ in 0..<4 { store.dispatch(.add(amount: 1)) }
        recorder.stop()
        var lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
        // The patch of #2, the last before the checkpoint of #2 (a later `replace` of the same
        // path would make the patches agree with the checkpoint again).
        let action = try #require(lines.firstIndex { $0.contains(#""kind":"action""#) && $0.contains(#""index":2,"#) })
        lines[action] = lines[action].replacingOccurrences(of: #""path":"/total","value":2"#, with: #""path":"/total","value":7"#)
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let line = try #require(lines.firstIndex { $0.contains(#""kind":"checkpoint""#) && $0.contains(#""index":2,"#) }) + 1
        let damage = "checkpoint #2 of tally differs from the state the patches before it give: the file is damaged here"

        #expect(try firstLineHostingTally("inspect \(path)") == "error: \(path): line \(line): \(damage); everything before that line is loaded")
        #expect(try firstLineHostingTally("replay \(path) --verify")
            == "error: \(path): line \(line): \(damage); the replay stopped agreeing with it at line \(action + 1)")
        #expect(throws: RecordedSessionError.cannotVerify(line: line, damage)) {
            try RecordedSession(path: path).verify(HostedFixtures.tallyReducer())
        }
    }
}
