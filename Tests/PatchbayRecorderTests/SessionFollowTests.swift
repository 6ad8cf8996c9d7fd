import Foundation
@_spi(Shell) import PatchbayCore
@_spi(Shell) @testable import PatchbayRecorder
import Testing

/// A reader that follows its file (`inspect --follow`): it reads what a writer appends, a line
/// only once its line break came, and stops at damage, truncation or replacement.
@Suite struct SessionFollowTests {
    /// A session file being written: appends bytes as a writer would.
    final class GrowingFile {
        let path = temporaryPath()

        init(_ lines: [String] = []) {
            _ = FileManager.default.createFile(atPath: path, contents: Data(sessionBytes(lines)))
        }

        func append(_ text: String) {
            let handle = FileHandle(forWritingAtPath: path)!
            handle.seekToEndOfFile()
            handle.write(Data(text.utf8))
            try? handle.close()
        }

        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    static let store = #"{"seq":1,"kind":"store","store":"app","state":{"n":0}}"#

    static func action(_ index: Int, seq: Int? = nil) -> String {
        #"{"seq":\#(seq ?? index + 1),"kind":"action","store":"app","index":\#(index),"action":{"type":"Inc"},"patch":[{"op":"replace","path":"/n","value":\#(index)}]}"#
    }

    /// Every event the reader has now, with the damage that stopped it, if any.
    static func drain(_ reader: SessionFileReader) -> (events: [RecordedEvent], damage: SessionError?) {
        var events: [RecordedEvent] = []
        do {
            while let event = try reader.next() { events.append(event) }
        } catch {
            return (events, error)
        }
        return (events, nil)
    }

    @Test func whatIsAppendedIsReadOnTheNextCall() throws {
        let file = GrowingFile([Self.store])
        let reader = try SessionFileReader(path: file.path, following: true)
        #expect(reader.isFollowing)
        #expect(Self.drain(reader).events.map(\.line) == [2])
        #expect(Self.drain(reader).events.isEmpty)
        file.append(Self.action(1) + "\n" + Self.action(2) + "\n")
        let (events, damage) = Self.drain(reader)
        #expect(damage == nil)
        #expect(events.map(\.line) == [3, 4])
        #expect(events.map(\.seq) == [2, 3])
        #expect(reader.bytesRead == (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int))
    }

    @Test func aLineWithoutItsBreakWaitsForIt() throws {
        let file = GrowingFile([Self.store])
        let reader = try SessionFileReader(path: file.path, following: true)
        _ = Self.drain(reader)
        let line = Self.action(1)
        file.append(String(line.prefix(20)))
        #expect(Self.drain(reader) == ([], nil))
        // Complete JSON, but no line break yet: still waiting, not read as a last line.
        file.append(String(line.dropFirst(20)))
        #expect(Self.drain(reader) == ([], nil))
        file.append("\n")
        let (events, damage) = Self.drain(reader)
        #expect(damage == nil)
        #expect(events.map(\.line) == [3])
    }

    @Test func linesArrivingByteByByteReadAsTheyComplete() throws {
        let file = GrowingFile([Self.store])
        let reader = try SessionFileReader(path: file.path, following: true)
        _ = Self.drain(reader)
        let text = (1...3).map { Self.action($0) + "\n" }.joined() + "\n  \n"
        var lines: [Int] = []
        for byte in text.utf8 {
            file.append(String(decoding: [byte], as: UTF8.self))
            let (events, damage) = Self.drain(reader)
            #expect(damage == nil)
            // A line is read exactly when its break arrives.
            if !events.isEmpty { #expect(byte == UInt8(ascii: "\n")) }
            lines += events.map(\.line)
        }
        #expect(lines == [3, 4, 5])
        file.append(Self.action(4, seq: 5) + "\n")
        #expect(Self.drain(reader).events.map(\.line) == [8])
    }

    @Test func damageInANewLineIsReportedAtItsLineAndEndsReading() throws {
        let file = GrowingFile([Self.store, Self.action(1)])
        let reader = try SessionFileReader(path: file.path, following: true)
        #expect(Self.drain(reader).events.count == 2)
        file.append(Self.action(2) + "\n" + #"{"seq":4,"kind":"action","store":"app"}"# + "\n" + Self.action(3) + "\n")
        let (events, damage) = Self.drain(reader)
        #expect(events.map(\.line) == [4])
        #expect(damage == SessionError(path: file.path, line: 5, .missingField("index", expected: "an integer")))
        #expect(reader.damage == damage)
        file.append(Self.action(4) + "\n")
        #expect(Self.drain(reader) == ([], nil))
    }

    @Test func aFileThatShrinksEndsReadingAndWhatWasReadStays() throws {
        let file = GrowingFile([Self.store, Self.action(1)])
        let reader = try SessionFileReader(path: file.path, following: true)
        #expect(Self.drain(reader).events.count == 2)
        let read = reader.bytesRead
        #expect(truncate(file.path, 10) == 0)
        let (events, damage) = Self.drain(reader)
        #expect(events.isEmpty)
        #expect(damage == SessionError(path: file.path, .truncated(size: 10, read: read)))
        #expect(damage?.description.contains("shrank to 10 bytes") == true)
        #expect(damage?.description.contains("\n") == false)
    }

    @Test func aReplacedOrRemovedFileEndsReading() throws {
        let file = GrowingFile([Self.store])
        let reader = try SessionFileReader(path: file.path, following: true)
        _ = Self.drain(reader)
        let other = GrowingFile([Self.store, Self.action(1), Self.action(2)])
        #expect(rename(other.path, file.path) == 0)
        #expect(Self.drain(reader).damage == SessionError(path: file.path, .replaced))

        let removed = GrowingFile([Self.store])
        let second = try SessionFileReader(path: removed.path, following: true)
        _ = Self.drain(second)
        try FileManager.default.removeItem(atPath: removed.path)
        #expect(Self.drain(second).damage?.reason == .replaced)
    }

    @Test func aReaderThatDoesNotFollowStillReadsALastLineWithoutItsBreak() throws {
        let file = GrowingFile([Self.store])
        file.append(Self.action(1))
        let reader = try SessionFileReader(path: file.path)
        #expect(!reader.isFollowing)
        #expect(Self.drain(reader).events.map(\.line) == [2, 3])
    }
}

extension SessionFollowTests {
    /// A pipe has no size, and its reader would wait at its end: followed, it is read as it
    /// grows without waiting, and not taken for a truncated file.
    @Test func aFollowedPipeIsReadAsItGrowsWithoutWaiting() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        func send(_ text: String) { _ = Array(text.utf8).withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) } }
        send(String(decoding: sessionBytes([Self.store]), as: UTF8.self))
        // The pipe as a path names it (`inspect /dev/stdin --follow`).
        defer { close(ends[0]) }
        let reader = try SessionFileReader(path: "/proc/self/fd/\(ends[0])", following: true)
        #expect(Self.drain(reader) == ([RecordedEvent(line: 2, seq: 1, event: .store(name: "app", state: ["n": 0]))], nil))
        send(Self.action(1) + "\n")
        #expect(Self.drain(reader).events.map(\.line) == [3])
        #expect(Self.drain(reader) == ([], nil))
        close(ends[1])
        #expect(Self.drain(reader) == ([], nil))
    }
}
