import Foundation
import PatchbayTestSupport
import Testing

@Suite("The binary in script mode")
struct ScriptModeTests {
    @Test func pipedInputRunsWithoutAPrompt() throws {
        let result = try PatchbayProcess.run(script: "= 1 + 2\n= 'a' + 'b'\n")
        #expect(result.output == "3\n\"ab\"\n")
        #expect(result.errors == "")
        #expect(result.status == 0)
    }

    @Test func aScriptStopsAtTheFirstErrorWithStatus1() throws {
        let result = try PatchbayProcess.run(script: "= 1\n= 1 / 0\n= 3\n")
        #expect(result.output == "1\n")
        #expect(result.errors == "<stdin>:2:3: error: division by zero in '1 / 0'\n  = 1 / 0\n    ^~~~~\n")
        #expect(result.status == 1)
    }

    @Test func keepGoingRunsTheRestAndStillFails() throws {
        let result = try PatchbayProcess.run(["--keep-going"], script: "= 1\n= 1 / 0\n= 3\n")
        #expect(result.output == "1\n3\n")
        #expect(result.errors.hasPrefix("<stdin>:2:3: error: division by zero"))
        #expect(result.status == 1)
    }

    @Test func filesRunInOrderAndErrorsNameTheFile() throws {
        let directory = NSTemporaryDirectory() + "pb-e2e-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "= 1\n".write(toFile: directory + "/a.pb", atomically: true, encoding: .utf8)
        try "= 2\n\n= [\n  nope]\n".write(toFile: directory + "/b.pb", atomically: true, encoding: .utf8)
        let result = try PatchbayProcess.run(["a.pb", "b.pb"], input: [UInt8](), directory: directory)
        #expect(result.output == "1\n2\n")
        #expect(result.errors.hasPrefix("b.pb:4:3: error: unknown name 'nope'\n    nope]\n    ^~~~"))
        #expect(result.status == 1)
    }

    @Test func aMissingFileIsAnIOError() throws {
        let result = try PatchbayProcess.run(["/nonexistent/file.pb"])
        #expect(result.errors == "patchbay: error: cannot read '/nonexistent/file.pb': no such file\n")
        #expect(result.status == 2)
    }

    /// An app's executable built on PatchbayHost (`todo-inspector`) goes by its own name in its
    /// usage, help and errors: the name it was started by. Before, it said `USAGE: patchbay`
    /// and `patchbay:1:8:` / `patchbay: error:`. (The `patchbay` binary, started through a link
    /// of another name, stands in for such an executable.)
    @Test func aHostExecutableGoesByItsOwnName() throws {
        let directory = NSTemporaryDirectory() + "pb-e2e-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let inspector = URL(fileURLWithPath: directory + "/todo-inspector")
        try FileManager.default.createSymbolicLink(at: inspector, withDestinationURL: PatchbayProcess.binary)
        func run(_ arguments: [String]) throws -> PatchbayProcess.Result {
            let child = try ChildProcess(inspector, arguments, directory: directory)
            child.closeInput()
            let ended = child.waitForExit("todo-inspector \(arguments.joined(separator: " "))")
            return PatchbayProcess.Result(status: ended ? child.status : -1, output: child.printed, errors: child.printedErrors)
        }
        let help = try run(["--help"])
        #expect(help.output.contains("USAGE: todo-inspector [<options>] [<files> ...]"), "\(help.output)")
        #expect(help.output.contains("'todo-inspector replay FILE' replays a recorded session"))
        #expect(!help.output.contains("patchbay "), "\(help.output)")
        #expect(try run(["replay", "--help"]).output.contains("USAGE: todo-inspector replay [<options>] <file>"))
        let replay = try run(["replay", "nope.jsonl"])
        #expect(replay.errors.hasPrefix("todo-inspector:1:8: error: nope.jsonl: cannot open the file"), "\(replay.errors)")
        #expect(replay.status == 1)
        let missing = try run(["/nonexistent/file.pb"])
        #expect(missing.errors == "todo-inspector: error: cannot read '/nonexistent/file.pb': no such file\n")
        #expect(missing.status == 2)
        // The patchbay binary keeps its own name.
        #expect(try PatchbayProcess.run(["--help"]).output.contains("USAGE: patchbay [<options>] [<files> ...]"))
    }

    /// `--record`, `replay` and `inspect` on the command line: an error about the file names it
    /// once, and with --json nothing but JSON reaches standard output.
    @Test func commandLineFileErrorsNameTheFileOnce() throws {
        let directory = NSTemporaryDirectory() + "pb-e2e-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory + "/a-folder", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for arguments in [["--record", "a-folder"], ["replay", "missing.jsonl"], ["inspect", "missing.jsonl"], ["replay", "a-folder", "--verify"],
                          ["--record", "no-such-directory/x.jsonl"]] {
            let result = try PatchbayProcess.run(arguments, input: [UInt8](), directory: directory)
            let name = arguments[1]
            let first = result.errors.split(separator: "\n").first.map(String.init) ?? ""
            #expect(first.contains("error: "), "\(arguments): \(result.errors)")
            #expect(first.components(separatedBy: name).count == 2, "\(arguments): \(first)")
            #expect(result.status != 0)
            let json = try PatchbayProcess.run(["--json"] + arguments, input: [UInt8](), directory: directory)
            #expect(json.outputLines.allSatisfy { $0.hasPrefix("{") && $0.hasSuffix("}") }, "\(arguments): \(json.output)")
            #expect(json.outputLines.count == 1, "\(arguments): \(json.output)")
        }
    }

    @Test func jsonModeWritesOneObjectPerCommandOnStandardOutput() throws {
        let result = try PatchbayProcess.run(["--json", "--keep-going"], script: "= 1\n= x\n= [1.5, null]\n")
        #expect(result.outputLines == [
            #"{"ok":true,"command":"= 1","result":1}"#,
            #"{"ok":false,"command":"= x","error":{"message":"unknown name 'x'","line":2,"column":3}}"#,
            #"{"ok":true,"command":"= [1.5, null]","result":[1.5,null]}"#,
        ])
        #expect(result.errors == "")
        #expect(result.status == 1)
    }

    @Test func versionAndHelp() throws {
        let version = try PatchbayProcess.run(["--version"])
        #expect(version.status == 0)
        #expect(version.output.hasPrefix("0."))
        let help = try PatchbayProcess.run(["--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("--keep-going"))
        #expect(help.output.contains("--json"))
        #expect(help.output.contains("--history-file"))
    }

    /// Each form's `--help` is its own (`patchbay replay --help` showed the shell's), and at 80
    /// columns no line is wider: nothing wraps in the middle of a column.
    @Test(arguments: [([], "OVERVIEW: An interactive shell"), (["replay"], "OVERVIEW: Replay a recorded session"),
                      (["inspect"], "OVERVIEW: Open a recorded session for time travel")])
    func eachFormsHelpIsItsOwnAndFitsEightyColumns(form: [String], overview: String) throws {
        let help = try PatchbayProcess.run(form + ["--help"], environment: ["COLUMNS": "80"])
        #expect(help.status == 0)
        #expect(help.output.hasPrefix(overview), "\(help.output.prefix(200))")
        let wide = help.output.split(separator: "\n").filter { $0.count > 80 }
        #expect(wide.isEmpty, "lines over 80 columns: \(wide)")
    }

    @Test func noColourWhenOutputIsNotATerminal() throws {
        let result = try PatchbayProcess.run(["--keep-going"], input: Array("= x\n".utf8), environment: ["NO_COLOR": ""])
        #expect(!result.errors.contains("\u{1B}["))
    }
}

@Suite("Hostile input")
struct HostileInputTests {
    @Test func tenThousandNestedBracketsAreAnError() throws {
        for (open, close) in [("[", "]"), ("(", ")"), ("{a:", "}")] {
            let line = "= " + String(repeating: open, count: 10_000) + "1" + String(repeating: close, count: 10_000) + "\n"
            let result = try PatchbayProcess.run(script: line)
            #expect(result.status == 1)
            #expect(result.errors.contains("error: expression nested too deeply; the limit is 128 levels"))
        }
    }

    @Test func aTenMegabyteStringLiteralIsAnError() throws {
        let line = "= \"" + String(repeating: "a", count: 10 << 20) + "\"\n= 'after'\n"
        let result = try PatchbayProcess.run(["--keep-going"], script: line)
        #expect(result.errors.hasPrefix("<stdin>:1:1: error: line too long (10485764 bytes; the limit is 1048576)"))
        #expect(result.output == "\"after\"\n")
        #expect(result.status == 1)
    }

    @Test func aScriptFileStopsAtItsFirstLineTooLongWithoutReadingTheRest() throws {
        let directory = NSTemporaryDirectory() + "pb-e2e-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try ("= 1\n" + String(repeating: "x", count: 8 << 20) + "\n= 2\n").write(toFile: directory + "/long.pb", atomically: true, encoding: .utf8)
        let result = try PatchbayProcess.run(["--keep-going", "long.pb"], input: [UInt8](), directory: directory)
        #expect(result.output == "1\n")
        #expect(result.errors.hasPrefix("long.pb:2:1: error: line too long (more than 1048576 bytes; the limit is 1048576)"))
        #expect(result.status == 1)
    }

    @Test func binaryGarbageIsAnErrorNotACrash() throws {
        var generator = SplitMix64(seed: 42)
        let garbage = (0..<20_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let result = try PatchbayProcess.run(["--keep-going"], input: garbage)
        #expect(result.status == 1)
        #expect(result.errors.contains("error:"))
        #expect(!result.errors.contains("\u{1B}"))
    }

    @Test func invalidUTF8IsAnError() throws {
        let result = try PatchbayProcess.run(input: Array("= 'caf".utf8) + [0xC3, 0x28] + Array("'\n".utf8))
        #expect(result.status == 1)
        #expect(result.errors.hasPrefix("<stdin>:1:7: error: the line is not valid UTF-8"))
    }

    @Test func aLongChainOfOperatorsIsAnError() throws {
        let line = "= " + Array(repeating: "1", count: 10_000).joined(separator: " + ") + "\n"
        let result = try PatchbayProcess.run(script: line)
        #expect(result.status == 1)
        #expect(result.errors.contains("error: expression nested too deeply"))
    }
}

@Suite("SIGINT in script mode")
struct ScriptInterruptTests {
    private func temporaryDirectory() throws -> String {
        let directory = NSTemporaryDirectory() + "pb-e2e-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Starts `patchbay arguments...` in `directory`, waits until `file` there holds `ready` (the
    /// recording holds a command once it ran), sends SIGINT and waits for the end; how long that took.
    private func interrupt(_ arguments: [String], in directory: String, once file: String, holds ready: String) throws -> (ChildProcess, Duration) {
        let child = try ChildProcess(PatchbayProcess.binary, arguments, directory: directory)
        let started = child.wait(until: { currentText(ofFile: directory + "/" + file).contains(ready) })
        #expect(started, "the command before the long one never ran: \(child.printedErrors)")
        let sent = ContinuousClock.now
        child.send(SIGINT)
        child.waitForExit(timeout: .seconds(60), "the interrupted patchbay")
        return (child, ContinuousClock.now - sent)
    }

    @Test func sigintEndsAScriptWithStatus130AfterClosingTheRecording() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let script = "var kept = 1\n= len(map(range(1000000), x => map(range(1000000), y => x + y)))\n= 3\n"
        try script.write(toFile: directory + "/long.pb", atomically: true, encoding: .utf8)
        // A budget the evaluation does not reach before the interrupt.
        let (child, took) = try interrupt(["--record", "session.jsonl", "--work-budget", "1000000000000", "--memory-budget", "64G", "long.pb"],
                                          in: directory, once: "session.jsonl", holds: "var kept = 1")

        #expect(!child.endedBySignal)
        #expect(child.status == 130)
        #expect(took < .seconds(2), "the interrupt took \(took)")
        #expect(child.printed == "kept = 1\n")
        let message = child.printedErrors
        #expect(message.hasPrefix("long.pb:2:"), "\(message)")
        #expect(message.contains("error: interrupted; nothing changed"), "\(message)")
        // The recording is complete: the commands that ran, and not the interrupted one (which
        // changed nothing, and which a replay would run to its end) nor the command after it.
        let recording = try String(contentsOfFile: directory + "/session.jsonl", encoding: .utf8)
        let lines = recording.split(separator: "\n")
        #expect(lines.count == 2, "\(recording)")
        #expect(lines.last?.contains(#""kind":"command""#) == true, "\(recording)")
        #expect(!recording.contains("interrupted"))
        #expect(!recording.contains("= 3"))
    }

    @Test func sigintStopsALongTickAndLeavesItOutOfTheRecording() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A 1 ms timer dispatching into a store whose reducer takes a while: the tick would fire
        // 100,000 times, for far longer than the test waits.
        let script = """
            store s = {n: 0}
            reducer s on Tick : state.n += len(map(range(300), x => x)) / 300
            patch t timer ms=1
            wire t.tick -> s.dispatch : {type: "Tick"}
            tick 100000
            = 3

            """
        try script.write(toFile: directory + "/ticks.pb", atomically: true, encoding: .utf8)
        let (child, took) = try interrupt(["--record", "session.jsonl", "ticks.pb"], in: directory, once: "session.jsonl",
                                          holds: "wire t.tick -> s.dispatch")
        // Whether SIGINT lands in the tick or just before it starts (a busy machine), the script
        // stops at line 5 and says so, and the tick changes nothing.

        #expect(!child.endedBySignal)
        #expect(child.status == 130)
        #expect(took < .seconds(2), "the interrupt took \(took)")
        let message = child.printedErrors
        #expect(message.hasPrefix("ticks.pb:5:"), "\(message)")
        #expect(message.contains("error: interrupted; nothing changed"), "\(message)")
        let recording = try String(contentsOfFile: directory + "/session.jsonl", encoding: .utf8)
        #expect(recording.contains("wire t.tick -> s.dispatch"), "\(recording)")
        #expect(!recording.contains("tick 100000"), "\(recording)")
        // The wire dispatched the timer's first value, action 1; none of the tick's is recorded.
        let actions = recording.split(separator: "\n").filter { $0.contains(#""kind":"action""#) }
        #expect(actions.count == 1 && actions[0].contains(#""index":1,"#), "\(recording)")
        #expect(!recording.contains("= 3"))
    }

    @Test func sigintAtAnyMomentOfAPipedScriptEndsItWithStatus130() throws {
        // However early the signal comes (before the handler is up it ends the process by the
        // signal), it is never lost: the run never goes on to wait for input forever.
        for delay in [0, 1, 2, 5, 10, 20, 50, 100] {
            let child = try ChildProcess()
            child.feed(Array("= 40 + 2\n".utf8), closing: false)
            Thread.sleep(forTimeInterval: Double(delay) / 1000)
            child.send(SIGINT)
            let ended = child.waitForExit(timeout: .seconds(30), "patchbay interrupted \(delay) ms after it started")
            child.closeInput()
            #expect(ended && (child.endedBySignal || child.status == 130), "after \(delay) ms: status \(child.status)")
        }
    }
}
