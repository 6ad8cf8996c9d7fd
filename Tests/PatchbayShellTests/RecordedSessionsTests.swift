import Foundation
@_spi(Shell) import PatchbayShell
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
        let shell = Shell.scratch()
        let outcome = shell.execute("replay \"\(path)\" --verify")
        #expect(outcome.status == .success, "\(outcome.lines.map(\.text).joined(separator: "\n"))")
        #expect(outcome.lines.last?.text.hasPrefix("verified ") == true)
    }

    @Test(arguments: Self.recordings)
    func inspectingARecordingGivesTheStatesReplayingGives(name: String) throws {
        let path = Self.directory.appendingPathComponent(name).path
        let inspected = Shell.scratch()
        let outcome = inspected.execute("inspect \"\(path)\"")
        #expect(outcome.status == .success)
        #expect(!outcome.lines.contains { $0.text.hasPrefix("warning:") }, "\(outcome.lines.map(\.text))")
        let replayed = Shell.scratch()
        _ = replayed.execute("replay \"\(path)\"")
        let summary = try #require(outcome.lines.first?.text)
        let stores = summary.split(separator: ": ", maxSplits: 1).last.map { list in
            list.split(separator: ", ").compactMap { $0.split(separator: " ").first.map(String.init) }
        } ?? []
        for store in stores where store != "no" {
            #expect(inspected.execute("state \(store)").lines.map(\.text) == replayed.execute("state \(store)").lines.map(\.text))
            #expect(inspected.execute("history \(store)").lines.map(\.text) == replayed.execute("history \(store)").lines.map(\.text))
        }
    }
}
