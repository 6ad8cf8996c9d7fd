@_spi(Shell) @testable import PatchbayShell
import Testing

// A command that reads a long history says how far it has come once it has run a while (the
// interactive session shows it on the terminal), and clears it when it ends.

@Suite("Progress of long commands")
struct ProgressTests {
    /// A session whose store has `steps` actions, its progress shown at once, and what it shows.
    private func session(steps: Int) -> (DataflowSession, shown: () -> [String?]) {
        let session = DataflowSession()
        session.run("store s = {n: 0}\nreducer s on Add : state.n += 1")
        for _ in 0..<steps { session.run("dispatch s Add") }
        session.shell.progressDelay = .zero
        final class Shown { var lines: [String?] = [] }
        let shown = Shown()
        session.shell.progressHandler = { shown.lines.append($0) }
        return (session, { shown.lines })
    }

    @Test(arguments: [("blame s .n", "blame"), ("find s state.n < 0", "find"), ("history s --grep Zz", "history")])
    func aLongReadShowsItsProgressThenClearsIt(command: String, name: String) {
        let (session, shown) = session(steps: 3_000)
        session.run(command)
        let lines = shown()
        #expect(lines.first??.hasPrefix("\(name): ") == true, "\(lines)")
        #expect(lines.first??.hasSuffix(" of 3000 steps (Ctrl-C stops)") == true, "\(lines)")
        #expect(lines.last == .some(nil), "cleared at the end")
    }

    @Test func aShortCommandShowsNothing() {
        let (session, shown) = session(steps: 10)
        session.shell.progressDelay = .seconds(60)
        session.run("blame s .n\nfind s state.n > 3")
        #expect(shown().isEmpty)
    }
}
