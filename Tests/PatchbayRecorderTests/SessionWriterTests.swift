import Foundation
import PatchbayCore
@testable import PatchbayRecorder
import PatchbayTestSupport
import Testing

@Suite struct SessionWriterTests {
    @Test func theWriterWritesTheHeaderThenNumberedLines() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try SessionWriter(path: path, created: "2026-11-21T10:00:00Z")
        #expect(try writer.write(.command("store app = {count: 0}")) == 1)
        #expect(try writer.write(.store(name: "app", state: ["count": 0])) == 2)
        #expect(writer.lastSeq == 2)
        writer.close()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(
            text == """
                {"patchbay":"session","version":1,"created":"2026-11-21T10:00:00Z"}
                {"seq":1,"kind":"command","text":"store app = {count: 0}"}
                {"seq":2,"kind":"store","store":"app","state":{"count":0}}

                """)
    }

    @Test func aKeptWritersLinesReachTheFileWhenItFlushes() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try SessionWriter(path: path, created: "2026-11-21T10:00:00Z")
        #expect(writer.delivery == .kept)
        try writer.write(.publish(port: "x.value", value: 3))
        try writer.write(.publish(port: "x.value", value: 4))
        try writer.flush()
        #expect(try SessionReader.read(contentsOf: path).events.map(\.event) == [
            .publish(port: "x.value", value: 3), .publish(port: "x.value", value: 4),
        ])
        try writer.write(.publish(port: "x.value", value: 5))
        writer.close()
        #expect(try SessionReader.read(contentsOf: path).events.count == 3, "close writes what is kept")
    }

    @Test func whenItsProcessEndsTheKeeperWritesEveryCommittedLineButNotAnOpenBatch() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try SessionWriter(path: path, created: "2026-11-21T10:00:00Z")
        for value in 1...1_000 { try writer.write(.publish(port: "x.value", value: .int(value))) }
        writer.beginBatch()
        try writer.write(.command("dispatch app Increment"))
        writer.abandon()
        let load = try SessionReader.read(contentsOf: path)
        #expect(load.damage == nil)
        #expect(load.events.map(\.seq) == Array(1...1_000))
    }

    @Test func whenItsKeeperIsGoneAWriterWritesTheFileItself() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try SessionWriter(path: path, created: "2026-11-21T10:00:00Z")
        try writer.write(.publish(port: "x.value", value: 3))
        let keeper = try #require(writer.keeperProcess)
        #expect(kill(keeper, SIGKILL) == 0)
        try writer.write(.publish(port: "x.value", value: 4))
        try writer.flush()
        #expect(try SessionReader.read(contentsOf: path).events.count == 2)
        for value in 5...5_000 { try writer.write(.publish(port: "x.value", value: .int(value))) }
        writer.close()
        let load = try SessionReader.read(contentsOf: path)
        #expect(load.damage == nil)
        #expect(load.events.map(\.seq) == Array(1...4_998))
    }

    @Test func keptAndDirectWritersWriteTheSameBytes() throws {
        // Lines of every size, past the kept memory (made small) many times, one larger than it.
        let kept = temporaryPath(), direct = temporaryPath()
        defer { for path in [kept, direct] { try? FileManager.default.removeItem(atPath: path) } }
        let capacity = 100_000
        let writers = [try SessionWriter(path: kept, created: "2026-11-21T10:00:00Z", delivery: .kept, keptCapacity: capacity),
                       try SessionWriter(path: direct, created: "2026-11-21T10:00:00Z", delivery: .direct)]
        #expect(writers.map(\.delivery) == [.kept, .direct])
        var random = SplitMix64(seed: 7)
        for round in 0..<3_000 {
            let length = round == 1_500 ? capacity + 10 : Int(random.next() % 2_000)
            let event = SessionEvent.command(String(repeating: "x", count: length))
            for writer in writers { try writer.write(event) }
            if round % 700 == 0 { try writers[0].flush() }
        }
        for writer in writers { writer.close() }
        let bytes = try [kept, direct].map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        #expect(bytes[0].count > 25 * capacity)
        #expect(bytes[0] == bytes[1])
    }

    @Test func aDirectWritersLinesAreInTheFileAsSoonAsTheyAreWritten() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try SessionWriter(path: path, created: "2026-11-21T10:00:00Z", delivery: .direct)
        try writer.write(.publish(port: "x.value", value: 3))
        let load = try SessionReader.read(contentsOf: path)
        #expect(load.events == [RecordedEvent(line: 2, seq: 1, event: .publish(port: "x.value", value: 3))])
        try writer.write(.publish(port: "x.value", value: 4))
        #expect(try SessionReader.read(contentsOf: path).events.count == 2)
    }

    @Test func aBatchsLinesAreCommittedTogetherWhenItEnds() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try SessionWriter(path: path, created: "2026-11-21T10:00:00Z", delivery: .direct)
        writer.beginBatch()
        try writer.write(.command("dispatch app Increment"))
        writer.beginBatch()
        try writer.write(.publish(port: "x.value", value: 3))
        try writer.endBatch()
        #expect(try SessionReader.read(contentsOf: path).events.isEmpty, "an inner batch's end writes nothing")
        try writer.endBatch()
        #expect(try SessionReader.read(contentsOf: path).events.map(\.seq) == [1, 2])
        try writer.write(.publish(port: "x.value", value: 4))
        #expect(try SessionReader.read(contentsOf: path).events.count == 3, "after the batch, each line goes out at once")
    }

    @Test func aBatchOverItsLimitIsCommittedWithoutWaitingForItsEnd() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try SessionWriter(path: path, created: "2026-11-21T10:00:00Z", delivery: .direct)
        writer.beginBatch()
        let text = String(repeating: "x", count: 1_000)
        repeat {
            try writer.write(.command(text))
        } while try SessionReader.read(contentsOf: path).events.isEmpty && writer.lastSeq < 1_000
        // Lines of about 1,040 bytes: the batch went out with the line that took it over its limit.
        #expect(writer.lastSeq == SessionWriter.batchLimit / 1_040 + 1)
        #expect(try SessionReader.read(contentsOf: path).events.count == writer.lastSeq)
        try writer.write(.command(text))
        #expect(try SessionReader.read(contentsOf: path).events.count == writer.lastSeq - 1)
        writer.close()
        #expect(try SessionReader.read(contentsOf: path).events.count == writer.lastSeq, "close writes what a batch holds")
    }

    @Test func aDateIsWrittenAsUTCText() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try SessionWriter(path: path, created: Date(timeIntervalSince1970: 1_795_255_200))
        writer.close()
        #expect(try SessionReader.read(contentsOf: path).header.created == "2026-11-21T10:00:00Z")
    }

    @Test func anExistingFileIsEmptiedFirst() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(repeating: UInt8(ascii: "x"), count: 10_000).write(to: URL(fileURLWithPath: path))
        let writer = try SessionWriter(path: path, created: "2026-11-21T10:00:00Z")
        writer.close()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == SessionHeader(created: "2026-11-21T10:00:00Z").line + "\n")
    }

    @Test func aClosedWriterRefusesEvents() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try SessionWriter(path: path, created: "2026-11-21T10:00:00Z")
        writer.close()
        writer.close()
        #expect(!writer.isOpen)
        #expect(throws: SessionError(path: path, .closed)) { try writer.write(.command("x")) }
    }

    @Test func aFileThatCannotBeCreatedIsAnError() {
        #expect(throws: SessionError(path: "/nonexistent/dir/s.pb", .cannotOpen(errno: ENOENT))) {
            try SessionWriter(path: "/nonexistent/dir/s.pb", created: "2026-11-21T10:00:00Z")
        }
    }

    @Test func aFailedWriteClosesTheWriter() throws {
        guard FileManager.default.fileExists(atPath: "/dev/full") else { return }
        #expect(throws: SessionError(path: "/dev/full", .cannotWrite(errno: ENOSPC))) {
            try SessionWriter(path: "/dev/full", created: "2026-11-21T10:00:00Z")
        }
        #expect(
            SessionError(path: "/dev/full", .cannotWrite(errno: ENOSPC)).description
                == "/dev/full: cannot write to the file: No space left on device")
    }
}
