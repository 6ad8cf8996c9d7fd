import Foundation
@_spi(Shell) @testable import PatchbayShell
import PatchbayTestSupport
import Testing

// The shell fuzzed over its command grammar (see CommandFuzzer), in process: a crash fails the
// run. For each input it checks that every error is one line that starts with `error: ` (in
// JSON mode: one `{"ok":false,...}` line whose message is one line), and that a command that
// fails leaves the session as it was (a fingerprint of nodes, wires, routes, the clock and
// every store's state, history and branches, taken before and after).
//
// CI runs 4,000 inputs; run more by hand (other inputs with PATCHBAY_SEED):
//
//     PATCHBAY_FUZZ_INPUTS=200000 swift test --skip-build --filter CommandFuzz
//
// Before each input runs, it is written to $TMPDIR/patchbay-fuzz-input-SLICE.txt, so that
// the input of a crash can be read there.

@Suite("Fuzz: commands")
struct CommandFuzzTests {
    private static let slices = 4
    private static let inputs = TestBudget.count("PATCHBAY_FUZZ_INPUTS", default: 4_000)
    private static let seed = TestBudget.seed(default: 0xF022_0001)

    @Test(arguments: 0..<slices)
    func randomCommandsNeverCrashAndFailCleanly(slice: Int) throws {
        let directory = TemporaryDirectory()
        // A named pipe no one writes or reads: a command that opened it would wait for ever.
        #expect(mkfifo(directory.path + "/fifo", 0o600) == 0)
        let json = slice % 2 == 1
        var fuzzer = CommandFuzzer(seed: SplitMix64.seed(Self.seed, run: slice), directory: directory.path)
        let trace = NSTemporaryDirectory() + "patchbay-fuzz-input-\(slice).txt"
        var shell = Self.freshShell(json: json, directory: directory.path)
        var fingerprint = Fingerprint(of: shell)
        // Each distinct finding, with the first input that showed it.
        var findings: [String: String] = [:]
        func note(_ finding: String, _ input: String) {
            if findings[finding] == nil { findings[finding] = String(input.prefix(300)) }
        }
        for index in 0..<(Self.inputs / Self.slices) {
            // Start over now and then: a long session collects nodes that make every step slow.
            if index % 200 == 0, index > 0 {
                shell.finish()
                shell = Self.freshShell(json: json, directory: directory.path)
                fingerprint = Fingerprint(of: shell)
            }
            let input = fuzzer.next()
            try Data(("seed \(Self.seed) slice \(slice) input \(index), json \(json):\n" + input).utf8).write(to: URL(fileURLWithPath: trace))
            let started = ContinuousClock.now
            let outcome = shell.execute(input)
            let elapsed = ContinuousClock.now - started
            if elapsed > .seconds(5) { note("slow: over 5 s", input) }
            let after = Fingerprint(of: shell)
            for problem in Self.problems(with: outcome, json: json) {
                note(problem, input)
            }
            if outcome.status == .failure, !Self.mayChangeTheSessionWhenFailing(input, outcome: outcome), after != fingerprint {
                let what = "a failing '\(Self.commandWord(of: input))' changed the session: \(after.difference(from: fingerprint))"
                note(what, input)
            }
            fingerprint = after
        }
        shell.finish()
        try? FileManager.default.removeItem(atPath: trace)
        for (finding, input) in findings.sorted(by: { $0.key < $1.key }) {
            Issue.record(Comment(rawValue: "\(finding)\n  input: \(input.debugDescription)"))
        }
    }

    /// The fingerprint sees what a command changes, and a failing command that changes
    /// nothing leaves it equal.
    /// The fuzzer tries every command of the catalog, so that a new command is fuzzed from the
    /// day it is in `help`.
    @Test func theFuzzerTriesEveryCommandOfTheCatalog() {
        var fuzzer = CommandFuzzer(seed: 7, directory: "/nowhere")
        var tried = Set<String>()
        for _ in 0..<20_000 { tried.insert(Self.commandWord(of: fuzzer.next())) }
        let untried = Self.commandWords.subtracting(tried).subtracting(CommandFuzzer.notTried)
        #expect(untried.isEmpty, "never tried: \(untried.sorted())")
    }

    @Test func theFingerprintSeesChanges() {
        let shell = Self.freshShell(json: false)
        let before = Fingerprint(of: shell)
        #expect(shell.execute("set a = nope").status == .failure)
        #expect(Fingerprint(of: shell) == before)
        for command in ["set a = 5", "dispatch cart Go", "jump app 0", "route /modal", "tick 3", "wire d.value -> v.x"] {
            let earlier = Fingerprint(of: shell)
            #expect(shell.execute(command).status == .success)
            #expect(Fingerprint(of: shell) != earlier, "\(command)")
        }
    }

    /// A shell with the fixture, in `directory`: what an input names by a relative path (a
    /// mutated `record` may name one) is made there, not in the package the tests run in.
    private static func freshShell(json: Bool, directory: String? = nil) -> Shell {
        let shell = Shell.scratch(ShellOptions(json: json, directory: directory))
        for command in CommandFuzzer.fixture {
            let outcome = shell.execute(command)
            // The one failing command: a failed action in the history.
            precondition(outcome.status == .success || command.hasSuffix("{d: 0}"), "fixture: \(command): \(outcome.lines.map(\.text))")
        }
        return shell
    }

    /// What is wrong with how a command reported its outcome.
    static func problems(with outcome: CommandOutcome, json: Bool) -> [String] {
        json ? jsonProblems(with: outcome) : textProblems(with: outcome)
    }

    /// Human output: a failure prints an error; each error's first line starts with `error: `
    /// (or, for the commands of a script that `load` runs, with `FILE:LINE:COLUMN: error: `), and
    /// the lines under it show the command and a caret, no second error.
    private static func textProblems(with outcome: CommandOutcome) -> [String] {
        var problems: [String] = []
        let errors = outcome.lines.filter { $0.stream == .error }
        if outcome.status == .failure, errors.isEmpty { problems.append("a failure printed no error") }
        for line in errors {
            let lines = line.text.split(separator: "\n", omittingEmptySubsequences: false)
            let first = lines.first.map(String.init) ?? ""
            if !first.hasPrefix("error: "), !first.hasPrefix("warning: "), !first.contains(#/^[^\n]*:[0-9]+:[0-9]+: error: /#) {
                problems.append("an error line not starting with 'error: '")
            }
            if lines.dropFirst().contains(where: { $0.contains("error: ") }) { problems.append("several errors in one") }
        }
        return problems
    }

    /// JSON output: exactly one line answers the command, `{"ok":false,...,"error":{message}}`
    /// for a failure, with a one-line message.
    private static func jsonProblems(with outcome: CommandOutcome) -> [String] {
        guard outcome.status != .empty else { return [] }
        var problems: [String] = []
        var answers: [[String: Any]] = []
        for line in outcome.lines {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.text.utf8)) as? [String: Any] else {
                problems.append("a JSON-mode line that is not a JSON object")
                continue
            }
            if line.text.contains("\n") { problems.append("a JSON line with a line break") }
            if object["command"] != nil { answers.append(object) }
        }
        // A `load`ed script's commands answer too, before the load itself.
        guard let answer = answers.last else { return problems + ["no JSON line answers the command"] }
        if outcome.status == .failure {
            let message = (answer["error"] as? [String: Any])?["message"] as? String
            if answer["ok"] as? Bool != false || message == nil { problems.append("a failure without ok:false and an error message") }
            if message?.contains("\n") == true { problems.append("a JSON error message of more than one line") }
        } else if answer["ok"] as? Bool != true {
            problems.append("a success without ok:true")
        }
        return problems
    }

    /// The command words, as the catalog that `help` and the command reference come from has
    /// them (with `exit`, `quit`'s other name).
    static let commandWords = Set(CommandCatalog.commands.map(\.name)).union(["exit"])

    /// The input's command word, or "(no command)" when it starts with none.
    static func commandWord(of input: String) -> String {
        let word = input.split(whereSeparator: { $0.isWhitespace }).first.map(String.init) ?? ""
        return commandWords.contains(word) ? word : "(no command)"
    }

    /// Failing commands that change the session by design: a damaged file is loaded up to its
    /// damage, a replay or a script runs up to its failing command, a failing reducer keeps
    /// its action in the history, marked failed.
    static func mayChangeTheSessionWhenFailing(_ input: String, outcome: CommandOutcome) -> Bool {
        let word = input.split(whereSeparator: { $0.isWhitespace }).first.map(String.init) ?? ""
        if ["inspect", "replay", "load", "step", "continue"].contains(word) { return true }
        return outcome.lines.contains { $0.text.contains("the action is kept, marked failed") }
    }
}

/// What the session holds, as its query commands print it.
struct Fingerprint: Equatable {
    var answers: [String: String] = [:]

    init(of shell: Shell) {
        let json = shell.options.json
        shell.options.json = true
        defer { shell.options.json = json }
        func ask(_ query: String) -> String { shell.execute(query).lines.map(\.text).joined(separator: "\n") }
        for query in ["nodes", "graph", "route list", "stack", "clock", "reducer list", "history router"] {
            answers[query] = ask(query)
        }
        if let data = answers["nodes"].map({ Data($0.utf8) }),
           let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let nodes = object["result"] as? [[String: Any]] {
            for node in nodes where node["kind"] as? String == "store" {
                guard let name = node["name"] as? String else { continue }
                for query in ["state", "history", "branch"] { answers["\(query) \(name)"] = ask("\(query) \(name)") }
            }
        }
    }

    /// The queries whose answers differ.
    func difference(from other: Fingerprint) -> String {
        Set(answers.keys).union(other.keys).filter { answers[$0] != other.answers[$0] }.sorted().joined(separator: ", ")
    }

    private var keys: Dictionary<String, String>.Keys { answers.keys }
}

