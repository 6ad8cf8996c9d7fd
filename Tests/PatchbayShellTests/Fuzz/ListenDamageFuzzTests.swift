import Foundation
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) @testable import PatchbayRecorder
@_spi(Shell) @testable import PatchbayShell
import PatchbayTestSupport
import Testing

// The damaged session files of `SessionFileFuzzTests` (the recordings in sessions/, changed by
// `SessionFileMutation`) sent over a connection to `inspect --listen`, then the connection
// closed: the shell names the damage as `inspect FILE` names it in the same bytes (the same
// line, the same words), in one line; a header it cannot read refuses the connection with one
// warning line and listening goes on; what arrived whole stays, and the shell keeps running.
//
// CI tries a tenth of PATCHBAY_FUZZ_FILES (60); run more by hand:
//
//     PATCHBAY_FUZZ_FILES=5000 swift test --skip-build --filter ListenDamageFuzz

@Suite("Fuzz: damaged sessions sent to inspect --listen")
struct ListenDamageFuzzTests {
    private static let files = TestBudget.count("PATCHBAY_FUZZ_FILES", default: 600) / 10
    private static let seed = TestBudget.seed(default: 0xF022_0003)

    /// `line N: what` of an error line of `inspect FILE` or of `inspect --listen`, without the
    /// words that say what was kept; `fine` without an error.
    static func damage(in lines: [String]) -> String {
        // (A command's error shows the command under its first line.)
        guard let error = lines.first(where: { $0.hasPrefix("error: ") })?.split(separator: "\n").first.map(String.init) else { return "fine" }
        let kept = /(; everything before that line is loaded|; listening stopped, and everything (read before|before that line) is kept)$/
        let message = error.replacing(kept, with: "")
        return message.firstMatch(of: /^error: [^ ]+: (.*)$/).map { String($0.1) } ?? message
    }

    @Test func damageArrivingOverAConnectionIsNamedAsInAFile() throws {
        let directory = TemporaryDirectory()
        let originals = try SessionFileFuzzTests.repositorySessions()
        try #require(originals.count >= 4)
        var random = SplitMix64(seed: Self.seed)
        var findings: [String: String] = [:]
        for index in 0..<Self.files {
            let original = random.pick(originals)
            let mutation = SessionFileMutation(original.bytes, random: &random)
            let path = directory.path + "/damaged.jsonl"
            try Data(mutation.bytes).write(to: URL(fileURLWithPath: path))
            let fromFile = Shell.scratch().execute("inspect \(path)").lines.map(\.text)

            let session = DataflowSession()
            let port = try InspectListenShellTests.port(session.run("inspect --listen 0"))
            do {
                let app = try InspectListenShellTests.Client(port: port)
                app.send(mutation.bytes)
            }
            let arrived = InspectListenShellTests.followed(session) { lines in
                lines.contains { $0.text.hasPrefix("error: ") || $0.text.contains("refused a connection") || $0.text.contains("closed the connection") }
            }
            let texts = arrived.map(\.text)
            var problems: [String] = []
            if texts.contains(where: { $0.contains("\n") }) { problems.append("a line holding several") }
            if let refusal = texts.first(where: { $0.contains("refused a connection") }) {
                // The header (the first line) is what was damaged: the file does not open either.
                if !session.shell.isFollowing { problems.append("a refused connection stopped the listening") }
                if Self.damage(in: fromFile) == "fine" { problems.append("refused a connection whose file inspects: \(refusal)") }
            } else if texts.contains(where: { $0.hasPrefix("error: ") }) || texts.contains(where: { $0.contains("closed the connection") }) {
                if session.shell.isFollowing { problems.append("still listening after the connection ended") }
                let inFile = Self.damage(in: fromFile), sent = Self.damage(in: texts)
                if inFile != sent { problems.append("damage named otherwise than in the file: file: \(inFile); sent: \(sent)") }
            } else {
                problems.append("nothing said within the deadline")
            }
            // The shell goes on.
            let goesOn = session.run("var goesOn = 1 + 1")
            if goesOn != ["goesOn = 2"] { problems.append("the shell does not go on: \(goesOn)") }
            for problem in problems where findings[problem] == nil {
                findings[problem] = "\(original.name) \(mutation.description) (damaged session \(index)): " + texts.joined(separator: " | ").prefix(400)
            }
        }
        for (problem, example) in findings.sorted(by: { $0.key < $1.key }) {
            Issue.record(Comment(rawValue: "\(problem)\n  \(example)"))
        }
    }
}
