import Foundation
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) @testable import PatchbayShell
import Testing

// Ctrl-C during `load`: the session goes back to what it was before the load (the nodes the
// load made go, with their histories, and the recording holds nothing of it); when the load ran
// a command that cannot be taken back (an `rm`), what its commands did stays and the error says so.

@Suite("Ctrl-C during load")
struct LoadInterruptionTests {
    /// Runs `command`, asking it to stop at the `steps`th action a store records.
    private func interrupt(_ command: String, in session: DataflowSession, afterSteps steps: Int) -> CommandOutcome {
        let interruption = Interruption()
        return interruption.during { () -> CommandOutcome in
            var seen = 0
            session.shell.graph.observeStores { event in
                guard case .step = event else { return }
                seen += 1
                if seen == steps { interruption.request() }
            }
            return session.shell.execute(command)
        }
    }

    private func script(_ directory: TemporaryDirectory, _ lines: [String]) -> String {
        directory.write("ld.pb", (lines + Array(repeating: "dispatch s inc", count: 300)).joined(separator: "\n") + "\n")
    }

    private let look = "nodes\nstate s\nhistory s\nshow keep\nreducer list\nset"

    @Test func anInterruptedLoadTakesBackTheStoreItMade() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/session.jsonl"
        let file = script(directory, [
            "store s = {n: 0}", "reducer s on inc : state.n = state.n + len(map(range(20), x => x))", "var made = 2",
            "wire made.value -> keep.set", "set keep = 3", "use s", "set truncate 50",
        ])
        let session = DataflowSession()
        session.shell.options.now = { Date(timeIntervalSince1970: 1_795_255_200) }
        session.run("record \(path)\nvar keep = 1")
        let before = session.run(look)
        let outcome = interrupt("load \(file)", in: session, afterSteps: 126)
        #expect(outcome.status == .failure)
        #expect(outcome.lines.map { $0.text.split(separator: "\n").first } == ["error: interrupted; nothing changed"])
        #expect(session.run(look) == before)
        #expect(session.shell.selectedStore == nil)
        // It goes on as a session that never ran the load: the same load makes the same store.
        let untouched = DataflowSession()
        untouched.run("var keep = 1")
        #expect(session.run("load \(file)\nstate s\nhistory s --last 2\nshow keep") == untouched.run("load \(file)\nstate s\nhistory s --last 2\nshow keep"))
        session.run("record stop")
        let recording = try String(contentsOfFile: path, encoding: .utf8)
        #expect(recording.components(separatedBy: #""text":"store s = {n: 0}""#).count == 2, "only the load that ran to its end")
        #expect(DataflowSession().run("replay \(path) --verify").last?.hasPrefix("verified ") == true)
    }

    @Test func aLoadThatRemovedANodeKeepsWhatItDidAndSaysSo() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/session.jsonl"
        let file = script(directory, ["store s = {n: 0}", "reducer s on inc : state.n += 1", "rm keep"])
        let session = DataflowSession()
        session.shell.options.now = { Date(timeIntervalSince1970: 1_795_255_200) }
        session.run("record \(path)\nvar keep = 1")
        let outcome = interrupt("load \(file)", in: session, afterSteps: 126)
        #expect(outcome.status == .failure)
        let texts = outcome.lines.map { $0.text.split(separator: "\n").first.map(String.init) ?? "" }
        #expect(texts.last == "error: interrupted while loading '\(file)': the command interrupted changed nothing, but the commands before it stay, since 'rm keep' cannot be taken back")
        #expect(texts.contains { $0.hasPrefix("\(file):129:1: error: interrupted; nothing changed") }, "\(texts)")
        // What the error says is what the session holds: the store and the 125 actions before the interrupted one.
        #expect(try session.value("state s").isIdentical(to: ["n": 125]))
        #expect(session.run("show keep").first?.hasPrefix("error: ") == true)
        session.run("record stop")
        #expect(DataflowSession().run("replay \(path) --verify").last?.hasPrefix("verified ") == true)
    }
}
