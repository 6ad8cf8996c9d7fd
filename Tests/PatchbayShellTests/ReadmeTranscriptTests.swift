import Foundation
@_spi(Shell) import PatchbayShell
import Testing

/// The transcripts of the README and of the DocC articles are run for real, so that what they
/// show stays true.
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

    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The documents whose transcripts run: the README, and every article of the DocC catalogs
    /// (where the README's tour of the commands lives), by their paths from the repository's root.
    static let documents: [String] = {
        let sources = root.appendingPathComponent("Sources")
        let articles = (FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? [])
            .filter { $0.contains(".docc/") && $0.hasSuffix(".md") }
            .map { "Sources/" + $0 }
        return ["README.md"] + articles.sorted()
    }()

    /// The documents that must show transcripts: each holds a part of the tour.
    static let documentsWithTranscripts = ["README.md"] + [
        "CommandLanguageTour", "Dataflow", "StoresInTheShell", "TimeTravel", "ReadingOutput", "Routing",
    ].map { "Sources/PatchbayHost/PatchbayHost.docc/\($0).md" }

    /// Each ```text block of `text` with `patchbay> ` lines: the commands and what they print.
    static func transcripts(in text: String) -> [(commands: [String], expected: [String])] {
        var transcripts: [(commands: [String], expected: [String])] = []
        for block in text.components(separatedBy: "```text\n").dropFirst() {
            let lines = block.components(separatedBy: "\n```")[0].split(separator: "\n", omittingEmptySubsequences: false)
            guard lines.contains(where: { $0.hasPrefix(Prompt.primary) }) else { continue }
            transcripts.append((lines.compactMap(command(in:)), lines.filter { !$0.hasPrefix("$ ") && !$0.isEmpty }.map(String.init)))
        }
        return transcripts
    }

    /// Every transcript of the documents, with the document it is in.
    static let transcripts: [(document: String, commands: [String], expected: [String])] = documents.flatMap { document in
        guard let text = try? String(contentsOf: root.appendingPathComponent(document), encoding: .utf8) else { return [(String, [String], [String])]() }
        return transcripts(in: text).map { (document, $0.commands, $0.expected) }
    }

    @Test func theDocumentsHaveTranscripts() {
        // The README's own, and the ten of the tour that moved from it to the articles.
        #expect(Self.transcripts.count >= 11)
        for document in Self.documentsWithTranscripts {
            #expect(Self.documents.contains(document), "\(document) is missing")
            #expect(Self.transcripts.contains { $0.document == document }, "\(document) has no transcript")
        }
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
        #expect(printed == transcript.expected, "a transcript of \(transcript.document)")
    }
}
