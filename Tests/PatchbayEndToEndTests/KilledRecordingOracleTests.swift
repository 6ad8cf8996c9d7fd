import Foundation
import PatchbayTestSupport
import Testing

// The session oracle (see PatchbayShellTests' SessionOracle) across a crash: `patchbay --record`
// runs a random store session and is killed with SIGKILL at a random point. What the file
// holds must then agree three ways: the commands it recorded, run again by a fresh patchbay
// without recording (the live view), `inspect FILE`, and `replay FILE --verify` (which must
// verify). Each view is every store's state, history and branches, and the router's history,
// as `--json` prints them.
//
// CI kills 8 recordings; more by hand (other inputs with PATCHBAY_SEED):
//
//     PATCHBAY_ORACLE_KILLS=200 swift test --skip-build --filter KilledRecordingOracle

@Suite("Session oracle: recordings killed at random points")
struct KilledRecordingOracleTests {
    private static let trials = TestBudget.count("PATCHBAY_ORACLE_KILLS", default: 8)
    private static let seed = TestBudget.seed(default: 0x5EED_0A7A)
    /// Every store name the generator uses.
    private static let stores = ["app", "cart", "log", "imported"]

    /// Every store's state, history and branches (a store that is missing gets the same error
    /// everywhere), and the router's history. (Not `nodes`: `inspect` rebuilds the stores and the
    /// URLs routed, not the router a `route add` made.)
    private static var queries: [String] {
        stores.flatMap { ["state \($0)", "history \($0)", "branch \($0)"] } + ["history router"]
    }

    @Test func aKilledRecordingAgreesWithItsCommandsInspectAndReplay() throws {
        signal(SIGPIPE, SIG_IGN)
        var failures: [String] = []
        for trial in 0..<Self.trials {
            if let failure = try Self.trial(seed: SplitMix64.seed(Self.seed, run: trial)) {
                failures.append("seed \(Self.seed), trial \(trial): \(failure)")
            }
        }
        for failure in failures { Issue.record(Comment(rawValue: failure)) }
    }

    /// One recording killed at a random point; what disagrees, if anything.
    private static func trial(seed: UInt64) throws -> String? {
        let directory = NSTemporaryDirectory() + "pb-killed-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var generator = StoreSessionGenerator(seed: seed)
        var random = SplitMix64(seed: seed)
        // No import: the live view is rebuilt from the file's command lines, which hold an
        // import as what it ran after a comment (its new start is a store line, not a command).
        // The in-process oracle, whose live twin runs the import itself, covers imports.
        let commands = generator.session(length: 25).filter { !$0.hasPrefix("record") && !$0.hasPrefix("import devtools") }
            .map { $0.replacingOccurrences(of: StoreSessionGenerator.directory, with: directory) }
        let path = directory + "/killed.jsonl"

        // Each command's lines reach the file with one write when it ends: after the kill the
        // file holds every command that ended.
        let child = try ChildProcess(PatchbayProcess.binary, ["--record", path, "--keep-going"], directory: directory)
        // The recording starts with the process: wait for its file. Then some commands, and
        // a kill a moment later: while it runs them or waits for more.
        _ = child.wait(until: { FileManager.default.fileExists(atPath: path) }, timeout: .seconds(30))
        let sent = random.int(1...commands.count)
        child.feed(Array(commands.prefix(sent).map { $0 + "\n" }.joined().utf8), closing: false)
        Thread.sleep(forTimeInterval: Double(random.int(0...40)) / 1000)
        child.send(SIGKILL)
        child.waitForExit("the patchbay killed mid-recording")
        child.closeInput()

        let recorded = recordedCommands(path)
        // The store selection (`use`) is the session's, which `inspect` does not take from a
        // recording: the queries name their stores, and one that does not exist must get the
        // same error in every view.
        let script = "use\n= 'views'\n" + queries.joined(separator: "\n") + "\n"
        // In the directory, where the DevTools file the commands export and import is.
        let live = try PatchbayProcess.run(["--json", "--keep-going"], input: Array((recorded.map { $0 + "\n" }.joined() + script).utf8),
                                           directory: directory)
        let inspected = try PatchbayProcess.run(["--json", "--keep-going"], input: Array(("inspect \(path)\n" + script).utf8), directory: directory)
        let file = currentText(ofFile: path)
        let context = "killed after \(recorded.count) of \(sent) commands sent; the file:\n" + file
        if let difference = difference(views(live.output), views(inspected.output)) {
            return "inspect differs from the live session: \(difference)\n\(context)\n\(firstLine(inspected.output))"
        }
        guard !recorded.isEmpty else { return nil }
        let replayed = try PatchbayProcess.run(["--json", "--keep-going"], script: "replay \(path) --verify\n" + script)
        guard firstLine(replayed.output).contains(#""verified":true"#) else {
            return "replay --verify failed: \(firstLine(replayed.output))\n\(context)"
        }
        if let difference = difference(views(live.output), views(replayed.output)) {
            return "replay differs from the live session: \(difference)\n\(context)"
        }
        return nil
    }

    /// The commands the file recorded (a line cut by the kill is no command).
    private static func recordedCommands(_ path: String) -> [String] {
        let text = currentText(ofFile: path)
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  object["kind"] as? String == "command" else { return nil }
            return object["text"] as? String
        }
    }

    /// The answers to the queries: the lines after the `= 'views'` marker, without the line
    /// and column of errors (the queries' lines differ from one script to the other), and
    /// without the end of the input's note that a transaction the commands began is still open
    /// (no query's answer: the recording holds the `begin`, the live run says it at the end).
    private static func views(_ output: String) -> [String] {
        var lines = output.split(separator: "\n").map { String($0).replacing(/,"line":[0-9]+,"column":[0-9]+/, with: "") }
        if lines.last?.contains("the input ended inside a transaction") == true { lines.removeLast() }
        guard let marker = lines.lastIndex(where: { $0.hasPrefix(#"{"ok":true,"command":"= 'views'""#) }) else { return lines }
        return Array(lines[(marker + 1)...])
    }

    private static func difference(_ expected: [String], _ actual: [String]) -> String? {
        for (index, line) in expected.enumerated() where index >= actual.count || actual[index] != line {
            return "\(queries[min(index, queries.count - 1)])\n  live: \(line)\n  now:  \(index < actual.count ? actual[index] : "nothing")"
        }
        return actual.count > expected.count ? "more answers than the live session" : nil
    }

    private static func firstLine(_ output: String) -> String {
        output.split(separator: "\n").first.map(String.init) ?? ""
    }
}
