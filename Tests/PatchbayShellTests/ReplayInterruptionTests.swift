import Foundation
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) @testable import PatchbayShell
import Testing

// Ctrl-C during `replay --force` (with `--verify` or not): the session is as it was before
// the replay, and the recording being made holds nothing of it.

/// A count whose reducer asks the running command to stop (Ctrl-C) when the count reaches
/// `stopAt`: a replay starts a fresh session, which hosts the store again, so the request
/// comes at the same replayed action every time.
private struct Count: Codable, Equatable {
    var n = 0
}

private enum CountAction: Codable, Equatable {
    case inc
}

private func counter(stoppingAt stopAt: Int) -> HostedStore {
    HostedStore("count", initialState: Count(), reducer: Reducer<Count, CountAction> { state, _ in
        state.n += 1
        if state.n == stopAt { Interruption.current?.request() }
    })
}

@Suite("Ctrl-C during a replay")
struct ReplayInterruptionTests {
    /// A recording of `dispatches` actions of the hosted count.
    private func recording(in directory: TemporaryDirectory, dispatches: Int) throws -> String {
        let path = directory.path + "/counted.jsonl"
        let session = DataflowSession()
        try session.shell.host([counter(stoppingAt: 150)])
        session.shell.options.now = { Date(timeIntervalSince1970: 1_795_255_200) }
        session.run("record \(path)")
        for _ in 0..<dispatches { session.run("dispatch count inc") }
        session.run("record stop")
        return path
    }

    @Test(arguments: [" --force", " --verify --force"])
    func anInterruptedReplayLeavesTheSessionAsItWas(options: String) throws {
        let directory = TemporaryDirectory()
        let replayed = try recording(in: directory, dispatches: 300)
        let path = directory.path + "/session.jsonl"
        let session = DataflowSession()
        try session.shell.host([counter(stoppingAt: 150)])
        session.shell.options.now = { Date(timeIntervalSince1970: 1_795_255_200) }
        session.run("record \(path)\ndispatch count inc\ndispatch count inc\nstore t = {m: 1}\nreducer t on add : state.m += 1\ndispatch t add")
        let look = "nodes\nhistory count --last 3\nstate count\nhistory t\nstate t"
        let before = session.run(look)
        let outcome = Interruption().during { session.shell.execute("replay \(replayed)\(options)") }
        #expect(outcome.status == .failure)
        #expect(outcome.lines.last?.text.split(separator: "\n").first == "error: interrupted; nothing changed", "\(outcome.lines)")
        #expect(session.run(look) == before)
        session.run("record stop")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!text.contains("replay") && text.components(separatedBy: #""kind":"action""#).count == 4)
        let verifier = DataflowSession()
        try verifier.shell.host([counter(stoppingAt: 150)])
        #expect(verifier.run("replay \(path) --verify").last?.hasPrefix("verified ") == true)
    }
}
