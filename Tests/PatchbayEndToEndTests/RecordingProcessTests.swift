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

    /// Starts `patchbay --record path`, reading commands from the pipe it returns and writing
    /// its output to `output`.
    private func startRecording(into path: String, output: Any) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = PatchbayProcess.binary
        process.arguments = ["--record", path]
        let stdin = Pipe()
        process.standardInput = stdin
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        return (process, stdin)
    }

    @Test func aRecordingKilledMidSessionLoadsWithEveryCompletedCommand() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/killed.jsonl"
        let (process, stdin) = try startRecording(into: path, output: FileHandle.nullDevice)
        let commands = Self.counter + String(repeating: "dispatch app Add\n", count: 20)
        try stdin.fileHandleForWriting.write(contentsOf: Data(commands.utf8))
        // Wait until the last action is in the file, then kill without warning (the pipe stays open).
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, !((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").contains(#""index":20"#) {
            Thread.sleep(forTimeInterval: 0.02)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)

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
        let stdout = Pipe()
        let (process, stdin) = try startRecording(into: path, output: stdout)
        let commands = Self.counter + String(repeating: "dispatch app Add\n", count: 50_000)
        // The feeding thread's write fails once the process is killed: EPIPE, not SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        let writer = Thread {
            try? stdin.fileHandleForWriting.write(contentsOf: Data(commands.utf8))
        }
        writer.start()
        var output = Data()
        while output.count(where: { $0 == 0x0A }) < 3_000 {
            let chunk = stdout.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            output += chunk
        }
        kill(process.processIdentifier, SIGKILL)
        output += stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try? stdin.fileHandleForWriting.close()
        #expect(process.terminationReason == .uncaughtSignal)

        let printed = String(decoding: output, as: UTF8.self).split(separator: "\n").filter { $0.hasPrefix("#") }
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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", #"trap "" XFSZ; ulimit -f 8; exec "$0" --record "$1""#, PatchbayProcess.binary.path, path]
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let commands = Self.counter + String(repeating: "dispatch app Add\n", count: 300)
        let writer = Thread {
            try? stdin.fileHandleForWriting.write(contentsOf: Data(commands.utf8))
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let errors = ErrorCollector(stderr.fileHandleForReading)
        let output = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let printed = output + String(decoding: errors.finish(), as: UTF8.self)

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
}
