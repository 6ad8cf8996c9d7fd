import Foundation
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayRecorder
@_spi(Shell) import PatchbayShell
import PatchbayTestSupport
import Testing

// Damaged session files fed to `inspect` and `replay --verify`, in process: the recordings in
// sessions/ and random recordings of store sessions, truncated, with bytes flipped, lines
// duplicated, deleted, swapped or cut, garbage lines put in, numbers made huge. No input may
// crash; every error is one line starting `error: ` that names a line of the file; a line that
// is no longer a JSON object is damage, reported at its line number, and never a divergence
// (whether it is a command or an effect line).
//
// CI tries 600 damaged files; run more by hand (other inputs with PATCHBAY_SEED):
//
//     PATCHBAY_FUZZ_FILES=50000 swift test --skip-build --filter SessionFileFuzz

@Suite("Fuzz: damaged session files")
struct SessionFileFuzzTests {
    private static let files = TestBudget.count("PATCHBAY_FUZZ_FILES", default: 600)
    private static let seed = TestBudget.seed(default: 0xF022_0002)

    /// The recorded sessions in the repository's sessions/ folder.
    static func repositorySessions() throws -> [(name: String, bytes: [UInt8])] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("sessions")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".jsonl") }.sorted()
        return try names.map { name in (name, Array(try Data(contentsOf: folder.appendingPathComponent(name)))) }
    }

    /// Recordings of random store sessions (recorded from their start) that inspect and verify
    /// as they are.
    static func randomRecordings(count: Int, seed: UInt64, in directory: TemporaryDirectory) -> [(name: String, bytes: [UInt8])] {
        var recordings: [(String, [UInt8])] = []
        for index in 0..<count {
            var generator = StoreSessionGenerator(seed: SplitMix64.seed(seed, run: index))
            let path = directory.path + "/random\(index).jsonl"
            let shell = Shell(options: ShellOptions(directory: directory.path))
            _ = shell.execute("record \(path)")
            for command in generator.session(length: 25) where !command.hasPrefix("record") {
                _ = shell.execute(command.replacingOccurrences(of: StoreSessionGenerator.directory, with: directory.path))
            }
            shell.finish()
            guard Shell.scratch().execute("inspect \(path)").status == .success,
                  Shell(options: ShellOptions(directory: directory.path)).execute("replay \(path) --verify").status == .success,
                  let data = FileManager.default.contents(atPath: path) else { continue }
            recordings.append(("random\(index).jsonl", Array(data)))
        }
        return recordings
    }

    @Test func damagedFilesGiveOneLineErrorsAtTheirLine() throws {
        let directory = TemporaryDirectory()
        let originals = try Self.repositorySessions() + Self.randomRecordings(count: 12, seed: Self.seed, in: directory)
        try #require(originals.count >= 10, "the sessions/ recordings and some random ones")
        var random = SplitMix64(seed: Self.seed)
        var findings: [String: String] = [:]
        for index in 0..<Self.files {
            let original = random.pick(originals)
            let mutation = SessionFileMutation(original.bytes, random: &random)
            let path = directory.path + "/damaged.jsonl"
            try Data(mutation.bytes).write(to: URL(fileURLWithPath: path))
            let damagedLine = mutation.firstLineNotAnObject
            // Cut right after its header, a file is a session with nothing in it: no line to name.
            let empty = mutation.bytes.isEmpty || (try? SessionReader.read(mutation.bytes)).map { $0.events.isEmpty && $0.damage == nil } == true
            var reports: [String] = []
            for command in ["inspect \(path)", "replay \(path) --verify"] {
                let outcome = Shell.scratch().execute(command)
                reports.append(Self.damageReport(outcome))
                var problems = Self.problems(with: outcome, damagedLine: damagedLine, singleChange: mutation.singleChange, empty: empty)
                if let line = mutation.movedCheckpointLine {
                    let message = outcome.lines.first(where: { $0.stream == .error })?.text ?? ""
                    if !(message.contains("line \(line): checkpoint #") && message.contains(" comes where ")) {
                        problems.append("a checkpoint moved to another step not reported as damage at its line")
                    }
                }
                for problem in problems where findings[problem] == nil {
                    findings[problem] = "\(command.split(separator: " ")[0]) of \(original.name) \(mutation.description) (damaged file \(index)): "
                        + outcome.lines.map(\.text).joined(separator: " | ").prefix(400)
                }
            }
            // One reader decides what is damage: where inspect finds it, a verification finds the
            // same damage at the same line (not a divergence before it), and the other way round.
            if mutation.singleChange, reports[0] != reports[1], reports.contains(where: { $0.hasPrefix("damage") }) {
                let problem = "inspect and replay --verify name the damage differently"
                if findings[problem] == nil || ProcessInfo.processInfo.environment["PATCHBAY_FUZZ_ALL"] != nil {
                    findings[problem + " \(index)"] = "\(original.name) \(mutation.description) (damaged file \(index)): inspect: \(reports[0]); verify: \(reports[1])"
                    findings[problem] = findings[problem] ?? ""
                }
            }
        }
        for (problem, example) in findings.sorted(by: { $0.key < $1.key }) {
            Issue.record(Comment(rawValue: "\(problem)\n  \(example)"))
        }
    }

    /// What an outcome says of the file: `damage at line N: MESSAGE`, `divergence at line N`,
    /// `fine`, or another error.
    static func damageReport(_ outcome: CommandOutcome) -> String {
        guard outcome.status == .failure else { return "fine" }
        let message = outcome.lines.first(where: { $0.stream == .error }).map { String($0.text.split(separator: "\n")[0]) } ?? ""
        if message.contains("diverged") {
            return "divergence at line " + (message.firstMatch(of: /\(line ([0-9]+)/).map { String($0.1) } ?? "?")
        }
        guard let match = message.firstMatch(of: /line ([0-9]+): (.*?)(; everything before that line is loaded|; the steps before it ran|; the replay stopped agreeing with it at line [0-9]+)?$/) else {
            return "error: " + message
        }
        return "damage at line \(match.1): \(match.2)"
    }

    /// What is wrong with how `inspect` or `replay --verify` reported a damaged file.
    static func problems(with outcome: CommandOutcome, damagedLine: Int?, singleChange: Bool, empty: Bool) -> [String] {
        var problems: [String] = []
        let errors = outcome.lines.filter { $0.stream == .error }.map(\.text)
        if outcome.status == .failure, errors.isEmpty { problems.append("a failure printed no error") }
        for error in errors {
            let lines = error.split(separator: "\n", omittingEmptySubsequences: false)
            if !(lines.first ?? "").hasPrefix("error: ") { problems.append("an error line not starting with 'error: '") }
            if lines.dropFirst().contains(where: { $0.contains("error: ") }) { problems.append("several errors in one") }
        }
        let message = errors.first.flatMap { $0.split(separator: "\n").first.map(String.init) } ?? ""
        if outcome.status == .failure, !empty, !message.contains(/line [0-9]+/) { problems.append("an error that names no line") }
        if let damagedLine {
            if outcome.status != .failure {
                problems.append("a line that is not a JSON object went unreported")
            } else if message.contains("diverged") {
                // A divergence before the damaged line is a change of the file that still reads
                // (a command's text, say), which a replay rightly finds.
                let divergedAt = message.firstMatch(of: /\(line ([0-9]+)/).flatMap { Int($0.1) } ?? Int.max
                if divergedAt >= damagedLine { problems.append("a line that is not a JSON object reported as a divergence") }
            } else if let reported = message.firstMatch(of: /line ([0-9]+)/).flatMap({ Int($0.1) }) {
                // Loading stops at the damage; an error before it can only come from another
                // change of the same mutation that left its line JSON.
                if reported > damagedLine || (reported != damagedLine && singleChange) {
                    problems.append("damage reported at another line than the damaged one")
                }
            }
        }
        return problems
    }
}

/// One random change to a session file, and what it did to the file's lines.
struct SessionFileMutation: CustomStringConvertible {
    private(set) var bytes: [UInt8]
    /// What was done, for messages: `cut line 4 at byte 17`.
    private(set) var description = ""
    /// Whether one line at most was changed (the others are as recorded).
    private(set) var singleChange = true
    /// The line of a checkpoint whose index was changed to another step's.
    private(set) var movedCheckpointLine: Int?

    init(_ original: [UInt8], random: inout SplitMix64) {
        bytes = original
        var lines = original.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        if lines.last?.isEmpty == true { lines.removeLast() }
        guard !lines.isEmpty else { return }
        let line = random.int(0...(lines.count - 1))
        func joined(_ lines: [[UInt8]]) -> [UInt8] { Array(lines.joined(separator: [0x0A])) + [0x0A] }
        switch random.int(0...8) {
        case 8 where lines.contains(where: { $0.starts(with: Array(#"{"seq":"#.utf8)) && String(decoding: $0, as: UTF8.self).contains(#""kind":"checkpoint""#) }):
            // A checkpoint put after another step: damage at its line, for every reader.
            let positions = lines.indices.filter { String(decoding: lines[$0], as: UTF8.self).contains(#""kind":"checkpoint""#) }
            let position = random.pick(positions)
            let text = String(decoding: lines[position], as: UTF8.self)
            if let match = text.firstMatch(of: /"index":(-?[0-9]+),/), let index = Int(match.1) {
                let moved = random.pick([index - 1, index + 1, index + 99, -1].filter { $0 != index })
                lines[position] = Array(text.replacingCharacters(in: match.range, with: #""index":\#(moved),"#).utf8)
                movedCheckpointLine = position + 1
            }
            bytes = joined(lines)
            description = "with the checkpoint of line \(position + 1) moved to another step"
        case 0:
            let end = random.int(0...max(0, bytes.count - 1))
            bytes = Array(bytes[..<end])
            description = "truncated to \(end) bytes"
        case 1:
            let count = random.int(1...3)
            singleChange = count == 1
            for _ in 0..<count {
                let index = random.int(0...(bytes.count - 1))
                bytes[index] = random.chance(50) ? bytes[index] ^ (1 << UInt8(random.int(0...7))) : UInt8(random.int(0...255))
            }
            description = "with \(count) bytes changed"
        case 2:
            lines.insert(lines[line], at: line)
            bytes = joined(lines)
            description = "with line \(line + 1) twice"
        case 3:
            lines.remove(at: line)
            bytes = joined(lines)
            description = "without line \(line + 1)"
        case 4:
            let other = random.int(0...(lines.count - 1))
            lines.swapAt(line, other)
            singleChange = false
            bytes = joined(lines)
            description = "with lines \(line + 1) and \(other + 1) swapped"
        case 5:
            let cut = random.int(0...max(0, lines[line].count - 1))
            lines[line] = Array(lines[line][..<cut])
            bytes = joined(lines)
            description = "with line \(line + 1) cut at byte \(cut)"
        case 6:
            let garbage = random.pick([#"{"seq":"#, "not json", #"{"seq":99,"kind":"action"}"#, "[1,2]", "\u{FEFF}{}", "{}", #"{"kind":"store","store":"app"}"#,
                                       #"{"seq":1,"kind":"checkpoint","store":"app","index":9223372036854775807,"state":{}}"#])
            lines.insert(Array(garbage.utf8), at: line)
            bytes = joined(lines)
            description = "with \(garbage.debugDescription) put before line \(line + 1)"
        default:
            // A number made huge: an index, a seq, a value.
            let text = String(decoding: lines[line], as: UTF8.self)
            let huge = random.pick(["9223372036854775807", "-9223372036854775808", "99999999999999999999", "1e309", "-1"])
            if let number = text.firstRange(of: /[0-9]+/) {
                lines[line] = Array(text.replacingCharacters(in: number, with: huge).utf8)
            }
            bytes = joined(lines)
            description = "with a number of line \(line + 1) made \(huge)"
        }
    }

    /// The number (1-based) of the first line that is not a JSON object: a damaged line.
    /// Empty lines do not count; neither does the end of a file cut at a line's end.
    var firstLineNotAnObject: Int? {
        for (index, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() where !line.isEmpty {
            guard case .object? = try? JSONReader.parse(Array(line)) else { return index + 1 }
        }
        return nil
    }
}
