import Foundation
@_spi(Shell) import PatchbayCore
import PatchbayTestSupport
@_spi(Shell) @testable import PatchbayShell
import Testing

// Ctrl-C and the commands that replace a file (`save`, `export devtools`, `graph --dot FILE`,
// `record`): before the new file is in place, the old one stays and nothing changed; after, the
// new one stays and the command says it was written, never "nothing changed".

@Suite("Ctrl-C while a command replaces a file")
struct InterruptedWriteTests {
    private static let old = "the old contents\n"

    /// A session with a store and a few actions, and `name` in a temporary directory holding
    /// `old`.
    private func session(file name: String) throws -> (DataflowSession, path: String, TemporaryDirectory) {
        let directory = TemporaryDirectory()
        let path = directory.path + "/" + name
        try Self.old.write(toFile: path, atomically: false, encoding: .utf8)
        let session = DataflowSession()
        session.run("store app = {n: 0}\nreducer app on Add : state.n += 1\ndispatch app Add\ndispatch app Add")
        return (session, path, directory)
    }

    /// Runs `command` with Ctrl-C already pressed when it starts.
    private func interrupted(_ command: String, in session: DataflowSession) -> CommandOutcome {
        let interruption = Interruption()
        return interruption.during {
            interruption.request()
            return session.shell.execute(command)
        }
    }

    @Test(arguments: ["save FILE --force", "export devtools app FILE --force", "export devtools app FILE --force --lifted",
                      "graph --dot FILE --force", "record FILE --force"])
    func stoppedBeforeTheNewFileIsInPlaceTheOldOneStays(command: String) throws {
        let (session, path, directory) = try session(file: "out.txt")
        let outcome = interrupted(command.replacingOccurrences(of: "FILE", with: path), in: session)
        #expect(outcome.status == .failure)
        #expect(outcome.lines.map(\.text).contains { $0.contains("interrupted; nothing changed") })
        #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.old)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.txt"], "no temporary file is left")
        #expect(session.run("record") == ["not recording (start with: record FILE)"])
    }

    @Test func stoppedOnceTheRecordingReplacedItsFileTheRecordingIsSaidToHaveStarted() throws {
        let (session, path, directory) = try session(file: "r.jsonl")
        let interruption = Interruption()
        // The recording's file is replaced when the writer asks the time for its header: Ctrl-C
        // comes then, after the check that would have stopped the command.
        session.shell.options.now = {
            interruption.request()
            return Date(timeIntervalSince1970: 1_795_255_200)
        }
        let outcome = interruption.during { session.shell.execute("record \(path) --force") }
        let lines = outcome.lines.map(\.text)
        #expect(outcome.status == .success)
        #expect(lines.first?.hasPrefix("recording into \(path)") == true)
        #expect(lines.last == "interrupted after \(path) was written, which stays")
        #expect(!lines.contains { $0.contains("nothing changed") })
        #expect(try String(contentsOfFile: path, encoding: .utf8) != Self.old)
        withExtendedLifetime(directory) {}
        #expect(session.run("record").first?.hasPrefix("recording into \(path)") == true)
    }

    @Test func theJSONFormSaysTheFileWasWritten() throws {
        let (session, path, directory) = try session(file: "r.jsonl")
        session.shell.options.json = true
        let interruption = Interruption()
        session.shell.options.now = {
            interruption.request()
            return Date(timeIntervalSince1970: 1_795_255_200)
        }
        let outcome = interruption.during { session.shell.execute("record \(path) --force") }
        let json = try #require(outcome.lines.last.map(\.text))
        #expect(json.contains("\"interrupted\":true"))
        #expect(json.contains("\"written\":[\"\(path)\"]"))
        withExtendedLifetime(directory) {}
    }

    /// Ctrl-C at random moments (from another thread, as the signal handler does) during the
    /// commands that replace a file, over a history long enough that writing takes a while:
    /// whatever the moment, the file is the old one and the command says nothing changed, or it
    /// is the whole new one and the command says so (written, or done). Run longer by hand:
    ///
    ///     PATCHBAY_INTERRUPT_TRIALS=2000 swift test --skip-build --filter InterruptedWrite
    @Test func ctrlCAtARandomMomentLeavesTheOldFileOrTheWholeNewOne() throws {
        let trials = TestBudget.count("PATCHBAY_INTERRUPT_TRIALS", default: 40)
        var random = SplitMix64(seed: TestBudget.seed(default: 0x1C7_2026))
        let (session, path, directory) = try session(file: "out.txt")
        session.run((0..<3_000).map { _ in "dispatch app Add" }.joined(separator: "\n"))
        let commands = ["save FILE --force", "export devtools app FILE --force", "export devtools app FILE --force --lifted",
                        "graph --dot FILE --force", "record FILE --force"]
        var outcomes: [String: Int] = [:]
        for trial in 0..<trials {
            try Self.old.write(toFile: path, atomically: false, encoding: .utf8)
            let command = random.pick(commands).replacingOccurrences(of: "FILE", with: path)
            let delay = random.int(0...12_000)
            let interruption = Interruption()
            let interrupter = Thread {
                usleep(useconds_t(delay))
                interruption.request()
            }
            interrupter.start()
            let outcome = interruption.during { session.shell.execute(command) }
            while !interrupter.isFinished { usleep(100) }
            let text = outcome.lines.map(\.text).joined(separator: "\n")
            let contents = try String(contentsOfFile: path, encoding: .utf8)
            let context = "trial \(trial): \(command) after \(delay) µs: \(text.prefix(300))"
            if text.contains("nothing changed") {
                outcomes["nothing changed", default: 0] += 1
                #expect(outcome.status == .failure, "\(context)")
                #expect(contents == Self.old, "\(context)")
            } else {
                outcomes[outcome.status == .success ? "done" : "written", default: 0] += 1
                #expect(outcome.status == .success || text.contains("was written, which stays"), "\(context)")
                #expect(contents != Self.old, "\(context)")
                // The whole new file: JSON that reads, a drawing that ends, a script or a
                // recording that ends its last line.
                if command.hasPrefix("export") { #expect((try? JSONReader.parse(contents)) != nil, "\(context)") }
                if command.hasPrefix("graph") { #expect(contents.hasSuffix("}\n"), "\(context)") }
                if command.hasPrefix("save") || command.hasPrefix("record") { #expect(contents.hasSuffix("\n"), "\(context)") }
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.txt"], "no temporary file: \(context)")
            if command.hasPrefix("record"), session.run("record").first?.hasPrefix("recording into") == true { session.run("record stop") }
            #expect(session.run("state app") == ["{n: 3002}"], "\(context)")
        }
        #expect(outcomes.count >= 2 || trials < 20, "the moments reach both sides of the replacement: \(outcomes)")
    }
}
