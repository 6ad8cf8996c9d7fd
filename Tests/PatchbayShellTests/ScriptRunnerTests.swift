@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayShell
import Testing

@Suite("Scripts")
struct ScriptRunnerTests {
    @Test func aScriptStopsAtTheFirstError() {
        let run = ShellRun("= 1\n= nope\n= 3\n")
        #expect(run.output == ["1"])
        #expect(run.errors.count == 1)
        #expect(run.errors[0].hasPrefix("test.pb:2:3: error: unknown name 'nope'"))
        #expect(run.failures == 1)
    }

    @Test func keepGoingRunsEveryCommand() {
        let run = ShellRun("= 1\n= nope\n= 3\n= 1/0\n", keepGoing: true)
        #expect(run.output == ["1", "3"])
        #expect(run.errors.count == 2)
        #expect(run.failures == 2)
    }

    @Test func quitStopsTheScript() {
        let run = ShellRun("= 1\nquit\n= 2\n")
        #expect(run.output == ["1"])
        #expect(run.failures == 0)
    }

    private func line(_ text: String) -> LineSplitter.Line {
        var splitter = LineSplitter()
        return splitter.append(Array((text + "\n").utf8))[0]
    }

    @Test func anInterruptBetweenCommandsNamesTheLineTheScriptStoppedAt() {
        // SIGINT that lands once `var a = 1` has ended, before line 2 runs.
        let shell = Shell.scratch()
        var errors: [String] = []
        var runner = ScriptRunner(shell: shell, name: "long.pb", keepGoing: false) { if $0.stream == .error { errors.append($0.text) } }
        runner.feed(line("var a = 1"))
        runner.stopInterrupted(beforeLine: true)
        runner.feed(line("var b = 2"))
        #expect(errors == ["long.pb:2:1: error: interrupted; nothing changed"])
        #expect(runner.isStopped)
        #expect(shell.execute("= b").lines.first?.text.contains("unknown name 'b'") == true)
    }

    @Test func anInterruptedCommandIsTheOnlyOneToSaySo() {
        let shell = Shell.scratch()
        var errors: [String] = []
        var runner = ScriptRunner(shell: shell, name: "long.pb", keepGoing: false) { if $0.stream == .error { errors.append($0.text) } }
        let interruption = Interruption()
        interruption.during {
            interruption.request()
            runner.feed(line("= len(map(range(100000), x => x))"))
            runner.stopInterrupted(beforeLine: true)
        }
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix("long.pb:1:") == true && errors.first?.contains("interrupted; nothing changed") == true, "\(errors)")
    }

    @Test func anInterruptAfterTheLastLineSaysNothing() {
        var errors: [String] = []
        var runner = ScriptRunner(shell: Shell.scratch(), name: "long.pb", keepGoing: false) { if $0.stream == .error { errors.append($0.text) } }
        runner.feed(line("= 1"))
        runner.stopInterrupted(beforeLine: false)
        #expect(errors.isEmpty)
        #expect(runner.isStopped)
    }

    @Test func aMultiLineCommandReportsTheLineOfTheError() {
        let run = ShellRun("= 0\n= [1,\n 2,\n x]\n")
        #expect(run.errors.first?.hasPrefix("test.pb:4:2: error: unknown name 'x'") == true)
    }

    @Test func aCommandLeftOpenAtTheEndIsAnError() {
        let run = ShellRun("= [1,\n2")
        #expect(run.errors.first?.hasPrefix("test.pb:1:1: error: the input ended inside '['") == true)
    }

    @Test func aLineOverTheLimitIsRefused() {
        let huge = "= \"" + String(repeating: "x", count: 10 << 20) + "\"\n= 2\n"
        let run = ShellRun(huge, keepGoing: true)
        #expect(run.errors.count == 1)
        #expect(run.errors[0].contains("error: line too long (10485764 bytes; the limit is 1048576)"))
        #expect(run.output == ["2"])
    }

    @Test func invalidUTF8IsAnErrorAtItsColumn() {
        let shell = Shell.scratch()
        var errors: [String] = []
        var runner = ScriptRunner(shell: shell, name: "bin", keepGoing: true) { if $0.stream == .error { errors.append($0.text) } }
        runner.run(Array("= \"ab".utf8) + [0xFF, 0xFE] + Array("\"\n".utf8))
        #expect(errors.count == 1)
        #expect(errors[0].hasPrefix("bin:1:6: error: the line is not valid UTF-8"))
    }

    @Test func carriageReturnsBeforeNewlinesAreIgnored() {
        #expect(ShellRun("= 1\r\n= 2\r\n").output == ["1", "2"])
    }

    @Test func jsonScriptsWriteOneLinePerCommand() {
        let run = ShellRun("# setup\n= 1\n\n= x\n= 2\n", json: true, keepGoing: true)
        #expect(run.output == [
            #"{"ok":true,"command":"= 1","result":1}"#,
            #"{"ok":false,"command":"= x","error":{"message":"unknown name 'x'","line":4,"column":3}}"#,
            #"{"ok":true,"command":"= 2","result":2}"#,
        ])
        #expect(run.errors.isEmpty)
    }
}

@Suite("Loading files")
struct LoadTests {
    @Test func loadRunsTheFilesCommands() {
        let directory = TemporaryDirectory()
        let file = directory.write("a.pb", "= 40 + 2\n= 'done'\n")
        let run = ShellRun("load \(file)\n= 1\n")
        #expect(run.output == ["42", "\"done\"", "1"])
    }

    @Test func loadStopsAtTheFilesFirstErrorAndSaysWhere() {
        let directory = TemporaryDirectory()
        let file = directory.write("bad.pb", "= 1\n= oops\n= 3\n")
        let run = ShellRun("load \(file)\n= 4\n")
        #expect(run.output == ["1"])
        #expect(run.errors.count == 2)
        #expect(run.errors[0].hasPrefix("\(file):2:3: error: unknown name 'oops'"))
        #expect(run.errors[1].hasPrefix("test.pb:1:6: error: loading '\(file)' stopped at its first error"))
    }

    @Test func aMissingFileIsAnError() {
        let run = ShellRun("load /nonexistent/x.pb\n")
        #expect(run.errors.first?.hasPrefix("test.pb:1:6: error: cannot read '/nonexistent/x.pb': no such file") == true)
    }

    @Test func aFileThatLoadsItselfStops() {
        let directory = TemporaryDirectory()
        let file = directory.path + "/loop.pb"
        _ = directory.write("loop.pb", "load \(file)\n")
        let run = ShellRun("load \(file)\n")
        #expect(run.failures == 1)
        #expect(run.errors.contains { $0.contains("files load each other more than 16 deep") })
    }

    @Test func loadInJSONModeReportsTheFileAndItsCommandCount() {
        let directory = TemporaryDirectory()
        let file = directory.write("a.pb", "= 1\n# c\n= 2\n")
        let run = ShellRun("load \(file)\n", json: true)
        #expect(run.output.last == #"{"ok":true,"command":"load \#(file)","result":{"file":"\#(file)","commands":2}}"#)
    }
}
