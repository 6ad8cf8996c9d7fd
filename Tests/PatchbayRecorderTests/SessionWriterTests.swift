import Foundation
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) @testable import PatchbayRecorder
@_spi(Shell) @testable import PatchbayHistory
import PatchbayTestSupport
import Testing

@Suite struct SessionWriterTests {
    static let created = "2026-11-21T10:00:00Z"

    @Test func theWriterWritesTheHeaderThenNumberedLines() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try SessionWriter(path: path, created: Self.created)
        #expect(try writer.write(.command("store app = {count: 0}")) == 1)
        #expect(try writer.write([.store(name: "app", state: ["count": 0]), .publish(port: "x.value", value: 1)]) == 3)
        #expect(try writer.write([]) == 3)
        #expect(writer.lastSeq == 3)
        writer.close()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(
            text == """
                {"patchbay":"session","version":1,"created":"2026-11-21T10:00:00Z"}
                {"seq":1,"kind":"command","text":"store app = {count: 0}"}
                {"seq":2,"kind":"store","store":"app","state":{"count":0}}
                {"seq":3,"kind":"publish","port":"x.value","value":1}

                """)
    }

    @Test func aCommandsLinesAreInTheFileWhenWriteReturns() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try SessionWriter(path: path, created: Self.created)
        #expect(try SessionReader.read(contentsOf: path).events.isEmpty, "the header is written at once")
        try writer.write([.command("dispatch app Add"), .publish(port: "x.value", value: 3)])
        #expect(try SessionReader.read(contentsOf: path).events.map(\.seq) == [1, 2])
        try writer.write(.publish(port: "x.value", value: 4))
        #expect(try SessionReader.read(contentsOf: path).events.map(\.seq) == [1, 2, 3])
        // Large commands, past any buffer size, read back whole.
        let big = String(repeating: "x", count: 5_000_000)
        try writer.write([.command(big), .command(big)])
        let load = try SessionReader.read(contentsOf: path)
        #expect(load.damage == nil)
        #expect(load.events.last?.event == .command(big))
    }

    @Test func everyCommandCanBeSyncedToDisk() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try SessionWriter(path: path, created: Self.created, syncEveryCommand: true)
        #expect(writer.syncEveryCommand)
        try writer.write([.command("a"), .command("b")])
        try writer.sync()
        #expect(try SessionReader.read(contentsOf: path).events.count == 2)
    }

    @Test func anActionLineOfAStepIsTheLineOfItsPatchForm() throws {
        let step = StoreStep<ValueChange>(store: "app", index: 3, action: ["type": "Move", "to": "a/b~c"], changes: [
            ValueChange(path: [.key("a/b~c"), .index(2)], operation: .add, old: nil, new: ["x": 1]),
            ValueChange(path: [.key("count")], operation: .replace, old: 1, new: 2),
            ValueChange(path: [.key("gone")], operation: .remove, old: "x", new: nil),
        ], cause: 2, delayedReducer: "r4")
        let line = SessionEvent.action(step.patchForm, hash: StateDigest(text: "0000000000000001")!).line(seq: 1)
        #expect(
            line == #"{"seq":1,"kind":"action","store":"app","index":3,"action":{"type":"Move","to":"a/b~c"},"patch":[{"op":"add","path":"/a~1b~0c/2","value":{"x":1}},{"op":"replace","path":"/count","value":2},{"op":"remove","path":"/gone"}],"hash":"0000000000000001","cause":2,"reducer":"r4"}"#
        )
    }

    @Test func aDateIsWrittenAsUTCText() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try SessionWriter(path: path, created: Date(timeIntervalSince1970: 1_795_255_200))
        writer.close()
        #expect(try SessionReader.read(contentsOf: path).header.created == "2026-11-21T10:00:00Z")
    }

    @Test func anExistingFileIsKeptUnlessTheCallerAsksToReplaceIt() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let original = Data(repeating: UInt8(ascii: "x"), count: 10_000)
        try original.write(to: URL(fileURLWithPath: path))
        let error = SessionError(path: path, .exists)
        #expect(throws: error) { try SessionWriter(path: path, created: Self.created) }
        #expect(error.description == "\(path) exists; use --force to replace it or choose another name")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)

        let writer = try SessionWriter(path: path, created: Self.created, replacing: true)
        writer.close()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == SessionHeader(created: Self.created).line + "\n")
    }

    @Test func aSymbolicLinkIsNotFollowed() throws {
        let target = temporaryPath(), link = temporaryPath()
        defer { for path in [target, link] { try? FileManager.default.removeItem(atPath: path) } }
        try Data("keep me\n".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        #expect(throws: SessionError(path: link, .symbolicLink)) { try SessionWriter(path: link, created: Self.created, replacing: true) }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep me\n")
        // A link to a file that does not exist yet is not followed either.
        let dangling = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: dangling) }
        let missing = temporaryPath()
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: missing)
        #expect(throws: SessionError(path: dangling, .symbolicLink)) { try SessionWriter(path: dangling, created: Self.created) }
        #expect(!FileManager.default.fileExists(atPath: missing))
        #expect(
            SessionError(path: link, .symbolicLink).description
                == "\(link): the path is a symbolic link; a session file is written only to the file itself (name the link's target)")
    }

    @Test func aSecondWriterOfTheSameFileIsRefused() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let first = try SessionWriter(path: path, created: Self.created)
        try first.write(.command("a"))
        let refusal = SessionError(path: path, .beingRecorded)
        #expect(throws: refusal) { try SessionWriter(path: path, created: Self.created, replacing: true) }
        #expect(refusal.description == "\(path) is being recorded by another process")
        // The refused writer did not empty the file, and the first goes on.
        try first.write(.command("b"))
        #expect(try SessionReader.read(contentsOf: path).events.map(\.event) == [.command("a"), .command("b")])
        first.close()
        let second = try SessionWriter(path: path, created: Self.created, replacing: true)
        second.close()
        #expect(try SessionReader.read(contentsOf: path).events.isEmpty)
    }

    @Test func aPipeIsWrittenAppendOnlyAndOneWithoutAReaderIsRefused() throws {
        let path = temporaryPath(".fifo")
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(mkfifo(path, 0o600) == 0)
        #expect(throws: SessionError(path: path, .noReader)) { try SessionWriter(path: path, created: Self.created) }

        let reader = open(path, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        let writer = try SessionWriter(path: path, created: Self.created)
        try writer.write([.command("a"), .command("b")])
        writer.close()
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = read(reader, &bytes, bytes.count)
        let load = try SessionReader.read(Array(bytes[0..<max(count, 0)]))
        #expect(load.damage == nil)
        #expect(load.events.map(\.event) == [.command("a"), .command("b")])
    }

    @Test func aLinkToAPipeOrADeviceIsWrittenAppendOnly() throws {
        // As `/dev/stdout` leads to a terminal or a pipe.
        let path = temporaryPath(".fifo"), link = temporaryPath()
        defer { for file in [path, link] { try? FileManager.default.removeItem(atPath: file) } }
        #expect(mkfifo(path, 0o600) == 0)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        let reader = open(path, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        let writer = try SessionWriter(path: link, created: Self.created)
        try writer.write(.command("a"))
        writer.close()
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = read(reader, &bytes, bytes.count)
        #expect(try SessionReader.read(Array(bytes[0..<max(count, 0)])).events.map(\.event) == [.command("a")])
        let device = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: device) }
        try FileManager.default.createSymbolicLink(atPath: device, withDestinationPath: "/dev/null")
        try SessionWriter(path: device, created: Self.created).close()
    }

    @Test func aFailedWriteSaysWhatTheFileHoldsAndStopsTheWriter() throws {
        signal(SIGPIPE, SIG_IGN)
        let path = temporaryPath(".fifo")
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(mkfifo(path, 0o600) == 0)
        let reader = open(path, O_RDONLY | O_NONBLOCK)
        let writer = try SessionWriter(path: path, created: Self.created)
        try writer.write([.command("a"), .command("b")])
        let written = SessionHeader(created: Self.created).line.utf8.count + 1
            + [SessionEvent.command("a").line(seq: 1), SessionEvent.command("b").line(seq: 2)].map { $0.utf8.count + 1 }.reduce(0, +)
        close(reader)
        let failure = SessionError(path: path, .writeFailed(errno: EPIPE, validLines: 3, validBytes: written))
        #expect(throws: failure) { try writer.write(.command("c")) }
        #expect(!writer.isOpen)
        #expect(writer.lastSeq == 2)
        #expect(throws: failure, "the writer refuses further events") { try writer.write(.command("d")) }
        #expect(
            failure.description
                == "\(path): cannot write to the file: Broken pipe; the recording stopped, and the file holds its first 3 whole lines (\(written) bytes)")
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full (Linux)"))
    func aFullDeviceIsAFailedWrite() throws {
        #expect(throws: SessionError(path: "/dev/full", .writeFailed(errno: ENOSPC, validLines: 0, validBytes: 0))) {
            try SessionWriter(path: "/dev/full", created: Self.created)
        }
    }

    @Test func aClosedWriterRefusesEvents() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try SessionWriter(path: path, created: Self.created)
        writer.close()
        writer.close()
        #expect(!writer.isOpen)
        #expect(throws: SessionError(path: path, .closed)) { try writer.write(.command("x")) }
        #expect(throws: SessionError(path: path, .closed)) { try writer.sync() }
    }

    @Test func aFileThatCannotBeCreatedIsAnError() {
        #expect(throws: SessionError(path: "/nonexistent/dir/s.pb", .cannotOpen(errno: ENOENT))) {
            try SessionWriter(path: "/nonexistent/dir/s.pb", created: Self.created)
        }
    }
}
