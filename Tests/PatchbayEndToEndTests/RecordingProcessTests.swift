import Foundation
import Testing

@Suite("The binary recording, replaying and inspecting sessions")
struct RecordingProcessTests {
    private func temporaryDirectory() throws -> String {
        let directory = NSTemporaryDirectory() + "pb-record-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    /// A counter store and its reducer, as commands.
    private static let counter = "store app = {count: 0}\nreducer app on Add : state.count += 1\n"

    @Test func aRecordingKilledMidSessionLoadsWithEveryCompletedCommand() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/killed.jsonl"
        let child = try ChildProcess(PatchbayProcess.binary, ["--record", path])
        child.feed(Array((Self.counter + String(repeating: "dispatch app Add\n", count: 20)).utf8), closing: false)
        // Wait until the last action is in the file, then kill without warning (the pipe stays open).
        _ = child.wait(until: { currentText(ofFile: path).contains(#""index":20"#) })
        child.send(SIGKILL)
        child.waitForExit("the patchbay killed mid-session")
        #expect(child.endedBySignal)

        let inspected = try PatchbayProcess.run(["inspect", path], script: "state\nhistory --last 1\n")
        #expect(inspected.status == 0, "\(inspected.errors)")
        #expect(inspected.outputLines == ["inspected \(path): app (20 actions)", "{count: 20}", ">  #20 Add  count"])
    }

    @Test func aRecordingKilledWhileBusyKeepsEveryCommandItPrinted() throws {
        // Killed in the middle of a long script: each command's lines reach the file with one
        // write when it ends, before its output is printed.
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/busy.jsonl"
        let child = try ChildProcess(PatchbayProcess.binary, ["--record", path])
        child.feed(Array((Self.counter + String(repeating: "dispatch app Add\n", count: 50_000)).utf8), closing: false)
        _ = child.wait(until: { child.printed.count(where: { $0 == "\n" }) >= 3_000 || !child.process.isRunning })
        child.send(SIGKILL)
        child.waitForExit("the patchbay killed mid-script")
        #expect(child.endedBySignal)

        let printed = child.printed.split(separator: "\n").filter { $0.hasPrefix("#") }
        let lastPrinted = try #require(printed.last.flatMap { Int($0.dropFirst().prefix { $0.isNumber }) })
        #expect(lastPrinted >= 2_998 && lastPrinted < 50_000, "the kill came mid-script")
        let inspected = try PatchbayProcess.run(["inspect", path], script: "state\n")
        #expect(inspected.status == 0, "\(inspected.errors)")
        let line = try #require(inspected.outputLines.first)
        let recorded = try #require(Int(line.split(separator: "(").last?.prefix { $0.isNumber } ?? ""))
        #expect(recorded >= lastPrinted)
        #expect(inspected.outputLines.last == "{count: \(recorded)}")
    }

    @Test func replayVerifyFromTheCommandLine() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/s.jsonl"
        let recorded = try PatchbayProcess.run(["--record", path], script: "store app = {n: 0}\nreducer app on Inc : state.n += 1\ndispatch app Inc\n")
        #expect(recorded.status == 0, "\(recorded.errors)")
        let replayed = try PatchbayProcess.run(["replay", path, "--verify"])
        #expect(replayed.status == 0, "\(replayed.errors)")
        #expect(replayed.outputLines.last == "verified 3 steps of \(path): every effect matches the recording")
        // Global options go before the subcommand or after it.
        for arguments in [["--json", "replay", path, "--verify"], ["replay", path, "--json", "--verify"],
                          ["--color", "never", "--json", "replay", path, "--verify"]] {
            let json = try PatchbayProcess.run(arguments)
            #expect(json.status == 0, "\(arguments): \(json.errors)")
            #expect(json.outputLines.last?.contains(#""verified":true"#) == true, "\(arguments): \(json.outputLines)")
        }

        // A changed recording fails with status 1 and names the step.
        let text = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "state.n += 1", with: "state.n += 2")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let diverged = try PatchbayProcess.run(["replay", path, "--verify"])
        #expect(diverged.status == 1)
        #expect(diverged.errors.contains("replay diverged at step 3"))
    }

    @Test func aRecordingPastTheFileSizeLimitStopsAndKeepsItsWholeLines() throws {
        // The shell sets the limit (`ulimit -f`, in blocks of 512 or 1024 bytes) and ignores
        // SIGXFSZ, which stays ignored in patchbay: a write past the limit fails with EFBIG.
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/limited.jsonl"
        let child = try ChildProcess(URL(fileURLWithPath: "/bin/sh"),
                                     ["-c", #"trap "" XFSZ; ulimit -f 8; exec "$0" --record "$1""#, PatchbayProcess.binary.path, path])
        child.feed(Array((Self.counter + String(repeating: "dispatch app Add\n", count: 300)).utf8))
        child.waitForExit("patchbay under a file-size limit")
        let printed = child.printed + child.printedErrors

        let message = try #require(printed.split(separator: "\n").first { $0.contains("the recording stopped") })
        #expect(message.contains("cannot write to the file: File too large; the recording stopped, and the file holds its first "))
        let counts = message.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        let (lines, bytes) = (counts[counts.count - 2], counts[counts.count - 1])
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.utf8.count == bytes, "the file is cut back to its last whole line")
        #expect(text.hasSuffix("\n"))
        #expect(text.split(separator: "\n").count == lines)
        #expect(bytes <= 8 * 1024 && bytes > 1_000)
        let inspected = try PatchbayProcess.run(["inspect", path])
        #expect(inspected.status == 0, "\(inspected.errors)")
        #expect(inspected.outputLines.first?.hasPrefix("inspected \(path): app (") == true)
    }

    /// Runs patchbay with `arguments` in `directory` under a file-size limit of 8 blocks, with
    /// SIGXFSZ as the shell leaves it (not ignored: it would kill a process that writes past it).
    private func runLimited(_ arguments: [String], in directory: String) -> ChildProcess {
        let child = try! ChildProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", #"ulimit -f 8; exec "$0" "$@""#, PatchbayProcess.binary.path]
                                      + arguments, directory: directory)
        child.closeInput()
        child.waitForExit("patchbay under a file-size limit")
        return child
    }

    @Test(arguments: [true, false])
    func aRecordingPastTheFileSizeLimitStopsTheScriptAtItsLine(fromTheCommandLine: Bool) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/limited.jsonl"
        let script = directory + "/big.pb"
        let dispatches = String(repeating: "dispatch app Add\n", count: 200)
        try ((fromTheCommandLine ? "" : "record \(path)\n") + Self.counter + dispatches).write(toFile: script, atomically: true, encoding: .utf8)
        let child = runLimited((fromTheCommandLine ? ["--record", path] : []) + [script], in: directory)
        #expect(!child.endedBySignal)
        #expect(child.status == 1, "\(child.printedErrors)")
        // One message, at the line whose command could not be recorded; the script stops there.
        let errors = child.printedErrors.split(separator: "\n").filter { $0.contains("error: ") }
        #expect(errors.count == 1, "\(child.printedErrors)")
        let message = try #require(errors.first)
        #expect(message.hasPrefix("\(script):"))
        #expect(message.components(separatedBy: "the recording stopped").count == 2, "\(message)")
        #expect(message.contains(": error: \(path): cannot write to the file: File too large; the recording stopped, and the file holds its first "))
        let line = try #require(Int(message.split(separator: ":")[1]))
        let counts = message.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        let (lines, bytes) = (counts[counts.count - 2], counts[counts.count - 1])
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.utf8.count == bytes && text.hasSuffix("\n") && text.split(separator: "\n").count == lines)
        // The commands after that line did not run: the output ends with that line's action.
        let output = child.printed.split(separator: "\n")
        let firstDispatchLine = fromTheCommandLine ? 3 : 4
        #expect(output.last == "#\(line - firstDispatchLine + 1) Add  count: \(line - firstDispatchLine) → \(line - firstDispatchLine + 1)", "\(output.suffix(2))")
    }

    @Test(arguments: ["save out.pb", "export devtools s out.json"])
    func aFileWrittenWholePastTheFileSizeLimitIsAnErrorThatLeavesNoFile(command: String) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let long = String(repeating: "x", count: 12_000)
        try "store s = {text: \"\(long)\"}\nvar big = \"\(long)\"\n\(command)\nstate s.text == \"\"\n"
            .write(toFile: directory + "/big.pb", atomically: true, encoding: .utf8)
        let child = runLimited(["big.pb"], in: directory)
        #expect(!child.endedBySignal)
        #expect(child.status == 1)
        let file = command.split(separator: " ").last!
        let error = child.printedErrors.split(separator: "\n").first ?? ""
        #expect(error.hasPrefix("big.pb:3:") && error.contains(": error: cannot write '\(file)': File too large"), "\(child.printedErrors)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["big.pb"], "no temporary file is left")
    }
}
