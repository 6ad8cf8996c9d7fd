import Foundation
import PatchbayShell
import Testing

/// The README's transcripts are run for real, so that what it shows stays true.
@Suite("README transcripts")
struct ReadmeTranscriptTests {
    /// The command of a transcript's line that starts with a prompt (`patchbay> `, or one that
    /// says where the session is: `patchbay app #1/3> `), `nil` for other lines.
    static func command(in line: Substring) -> String? {
        guard line.hasPrefix("patchbay"), let end = line.range(of: "> ") else { return nil }
        let context = line[line.index(line.startIndex, offsetBy: "patchbay".count)..<end.lowerBound]
        guard context.isEmpty || context.hasPrefix(" ") || context == "*" else { return nil }
        return String(line[end.upperBound...])
    }

    /// Each ```text block of the README with `patchbay> ` lines: the commands and what they print.
    static let transcripts: [(commands: [String], expected: [String])] = {
        let readme = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("README.md")
        guard let text = try? String(contentsOf: readme, encoding: .utf8) else { return [] }
        var transcripts: [(commands: [String], expected: [String])] = []
        for block in text.components(separatedBy: "```text\n").dropFirst() {
            let lines = block.components(separatedBy: "\n```")[0].split(separator: "\n", omittingEmptySubsequences: false)
            guard lines.contains(where: { $0.hasPrefix(Prompt.primary) }) else { continue }
            transcripts.append((lines.compactMap(command(in:)), lines.filter { !$0.hasPrefix("$ ") && !$0.isEmpty }.map(String.init)))
        }
        return transcripts
    }()

    @Test func theReadmeHasTranscripts() {
        #expect(Self.transcripts.count >= 2)
    }

    @Test(arguments: Self.transcripts.indices)
    func aTranscriptPrintsWhatTheReadmeShows(index: Int) {
        let transcript = Self.transcripts[index]
        let shell = Shell.scratch()
        var printed: [String] = []
        for command in transcript.commands {
            // The prompt as the terminal shows it: it says where the session is.
            printed.append(Prompt.primary(program: "patchbay", context: shell.promptContext) + command)
            for line in shell.execute(command).lines {
                printed += line.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            }
        }
        #expect(printed == transcript.expected)
    }
}
