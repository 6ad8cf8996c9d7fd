import Foundation
import PatchbayShell
import Testing

/// Every recorded session in sessions/ is a regression test: it replays with --verify.
@Suite("Recorded sessions")
struct RecordedSessionsTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("sessions")

    static let recordings: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".jsonl") }.sorted()
    }()

    @Test func thereAreAtLeastFiveRecordings() {
        #expect(Self.recordings.count >= 5)
    }

    @Test(arguments: Self.recordings)
    func aRecordingReplaysAndVerifies(name: String) {
        let path = Self.directory.appendingPathComponent(name).path
        let shell = Shell()
        let outcome = shell.execute("replay \"\(path)\" --verify")
        #expect(outcome.status == .success, "\(outcome.lines.map(\.text).joined(separator: "\n"))")
        #expect(outcome.lines.last?.text.hasPrefix("verified ") == true)
    }
}
