import Foundation
import PatchbayCore
@testable import PatchbayRecorder
import Testing

/// Reading a session in pieces on several threads gives the load that reading it line by line
/// gives: the same events with the same lines, the same count of unknown kinds, and the same
/// first damage, wherever the pieces begin and end.
@Suite struct SessionSplittingTests {
    /// One thread, one piece: the reference every split read is compared to.
    static let whole = SessionSplitting(maximumPieces: 1, minimumPieceBytes: 1, chunkBytes: 1 << 30)
    /// Four pieces of at least 1 KiB, whatever the cores.
    static let four = SessionSplitting(maximumPieces: 4, minimumPieceBytes: 1 << 10, chunkBytes: 1 << 30)

    /// The lines of a session after the header: random events, with blank lines, `\r\n` ends
    /// and unknown kinds here and there.
    static func lines(count: Int, seed: UInt64) -> [String] {
        var generator = ValueGenerator(seed: seed)
        return (0..<count).map { position in
            switch generator.int(0..<40) {
            case 0: return ""
            case 1: return "  \t"
            case 2: return #"{"seq":\#(position + 1),"kind":"telemetry","at":\#(position)}"#
            case 3: return generator.event().line(seq: position + 1) + "\r"
            default: return generator.event().line(seq: position + 1)
            }
        }
    }

    /// The pieces `splitting` makes of the lines after the header in `bytes`.
    static func pieces(of bytes: [UInt8], _ splitting: SessionSplitting) -> [Range<Int>] {
        bytes.withUnsafeBufferPointer { bytes in
            let start = bytes.firstIndex(of: 0x0A)! + 1
            return splitting.pieces(of: start..<bytes.count, in: bytes)
        }
    }

    /// The number of the line (1 for the header) that `offset` is in.
    static func line(at offset: Int, in bytes: [UInt8]) -> Int {
        bytes[..<offset].count(where: { $0 == 0x0A }) + 1
    }

    @Test func piecesHoldWholeLinesAndCoverAll() {
        let bytes = sessionBytes(Self.lines(count: 2000, seed: 1))
        let start = bytes.firstIndex(of: 0x0A)! + 1
        let pieces = Self.pieces(of: bytes, Self.four)
        #expect(pieces.count == 4)
        #expect(pieces.first?.lowerBound == start)
        #expect(pieces.last?.upperBound == bytes.count)
        for (piece, next) in zip(pieces, pieces.dropFirst()) {
            #expect(piece.upperBound == next.lowerBound)
            #expect(bytes[piece.upperBound - 1] == 0x0A)
        }
        // No more pieces than there are cores, nor than the bytes are worth.
        let length = bytes.count - start
        #expect(Self.pieces(of: bytes, SessionSplitting(maximumPieces: 8, minimumPieceBytes: length / 3, chunkBytes: 1)).count == 3)
        #expect(Self.pieces(of: bytes, SessionSplitting(maximumPieces: 8, minimumPieceBytes: length / 2 + 1, chunkBytes: 1)).count == 1)
        #expect(Self.pieces(of: bytes, SessionSplitting(maximumPieces: 2, minimumPieceBytes: 1, chunkBytes: 1)).count == 2)
    }

    @Test func aLongLineMakesFewerPieces() {
        let long = #"{"seq":2,"kind":"command","text":""# + String(repeating: "z", count: 100_000) + #""}"#
        let bytes = sessionBytes([#"{"seq":1,"kind":"command","text":"a"}"#, long, #"{"seq":3,"kind":"command","text":"b"}"#])
        let pieces = Self.pieces(of: bytes, Self.four)
        #expect(pieces.count == 2)
        #expect(pieces.last?.count == #"{"seq":3,"kind":"command","text":"b"}"#.utf8.count + 1)
    }

    @Test(arguments: [2, 3, 4, 7])
    func aSplitReadGivesTheLoadOfAWholeRead(pieces: Int) throws {
        let lines = Self.lines(count: 3000, seed: UInt64(pieces))
        let bytes = sessionBytes(lines)
        let splitting = SessionSplitting(maximumPieces: pieces, minimumPieceBytes: 1 << 10, chunkBytes: 1 << 30)
        #expect(Self.pieces(of: bytes, splitting).count == pieces)
        let split = try SessionReader.read(bytes, splitting: splitting)
        let whole = try SessionReader.read(bytes, splitting: Self.whole)
        #expect(split == whole)
        #expect(split.damage == nil)
        #expect(split.unknownKindCount == lines.count(where: { $0.contains("telemetry") }))
        #expect(split.events.count == lines.count(where: { $0.hasPrefix("{") && !$0.contains("telemetry") }))
        // Each event has the line it was read from.
        let text = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        for recorded in split.events {
            let line = String(decoding: text[recorded.line - 1], as: UTF8.self)
            #expect(line.hasPrefix(#"{"seq":\#(recorded.seq),"#))
        }
    }

    @Test func unknownKindsAreCountedInEveryPiece() throws {
        let unknown = #"{"seq":0,"kind":"telemetry"}"#
        let known = (1...400).map { #"{"seq":\#($0),"kind":"command","text":"\#(String(repeating: "c", count: 40))"}"# }
        // An unknown line at the start and the end of the file, and a run of them in each fifth.
        var lines = [unknown] + known + [unknown]
        for fifth in stride(from: 80, to: 400, by: 80) {
            lines.insert(contentsOf: Array(repeating: unknown, count: fifth / 80), at: fifth)
        }
        let bytes = sessionBytes(lines)
        let pieces = Self.pieces(of: bytes, Self.four)
        #expect(pieces.count == 4)
        for piece in pieces {
            #expect(String(decoding: bytes[piece], as: UTF8.self).contains("telemetry"))
        }
        let load = try SessionReader.read(bytes, splitting: Self.four)
        #expect(load.unknownKindCount == 2 + 1 + 2 + 3 + 4)
        #expect(load.events.map(\.seq) == Array(1...400))
        #expect(load == (try SessionReader.read(bytes, splitting: Self.whole)))
    }

    @Test(arguments: [0, 1, 2, 3])
    func damageInAPieceStopsTheLoadThere(piece: Int) throws {
        var lines = Self.lines(count: 3000, seed: 11)
        let bytes = sessionBytes(lines)
        let pieces = Self.pieces(of: bytes, Self.four)
        #expect(pieces.count == 4)
        // The damaged line: in the middle of the piece, and counted from 1 for the header.
        let damaged = Self.line(at: (pieces[piece].lowerBound + pieces[piece].upperBound) / 2, in: bytes)
        lines[damaged - 2] = #"{"seq":1,"kind":"command","text":}"#
        let damagedBytes = sessionBytes(lines)
        let damagedPieces = Self.pieces(of: damagedBytes, Self.four)
        #expect(damagedPieces.count == 4)
        #expect(damagedPieces.firstIndex { Self.line(at: $0.upperBound - 1, in: damagedBytes) >= damaged } == piece)
        let load = try SessionReader.read(damagedBytes, path: "s.pb", splitting: Self.four)
        #expect(load.damage == SessionError(path: "s.pb", line: damaged, .notJSON(JSONError(message: "unexpected character", offset: 33))))
        #expect(load.events.allSatisfy { $0.line < damaged })
        let before = lines[..<(damaged - 2)]
        #expect(load.events.count == before.count(where: { $0.hasPrefix("{") && !$0.contains("telemetry") }))
        #expect(load.unknownKindCount == before.count(where: { $0.contains("telemetry") }))
        #expect(load == (try SessionReader.read(damagedBytes, path: "s.pb", splitting: Self.whole)))
    }

    @Test func onlyTheFirstDamageCounts() throws {
        var lines = Self.lines(count: 3000, seed: 12)
        let pieces = Self.pieces(of: sessionBytes(lines), Self.four)
        let bytes = sessionBytes(lines)
        // Damage in the second piece and in every later one: the second piece's is reported.
        let damagedLines = pieces.dropFirst().map { Self.line(at: $0.lowerBound + 10, in: bytes) }
        for line in damagedLines {
            lines[line - 2] = #"{"seq":1,"kind":"jump","store":"app"}"#
        }
        let load = try SessionReader.read(sessionBytes(lines), splitting: Self.four)
        #expect(load.damage == SessionError(line: damagedLines[0], .missingField("index", expected: "an integer")))
        #expect(load.events.last.map { $0.line < damagedLines[0] } ?? true)
        #expect(load == (try SessionReader.read(sessionBytes(lines), splitting: Self.whole)))
    }

    @Test func aLastLineCutShortIsFoundInTheLastPiece() throws {
        var bytes = sessionBytes(Self.lines(count: 3000, seed: 13))
        bytes += Array(#"{"seq":9999,"kind":"action","store":"app","ind"#.utf8)
        let lastLine = Self.line(at: bytes.count - 1, in: bytes)
        #expect(Self.pieces(of: bytes, Self.four).count == 4)
        let load = try SessionReader.read(bytes, splitting: Self.four)
        #expect(load.damage == SessionError(line: lastLine, .cutShort))
        #expect(load == (try SessionReader.read(bytes, splitting: Self.whole)))
    }

    @Test func aBadHeaderIsFoundBeforeAnyPiece() {
        let bytes = sessionBytes(Self.lines(count: 3000, seed: 14), header: #"{"patchbay":"session","version":2}"#)
        #expect(throws: SessionError(line: 1, .newerVersion(2))) { try SessionReader.read(bytes, splitting: Self.four) }
    }

    @Test(arguments: [1 << 12, 1 << 16, 1 << 20])
    func aFileReadInChunksGivesTheLoadOfItsBytes(chunkBytes: Int) throws {
        var lines = Self.lines(count: 6000, seed: 15)
        // A line longer than a chunk, and damage near the end.
        lines.insert(#"{"seq":0,"kind":"command","text":""# + String(repeating: "w", count: 300_000) + #""}"#, at: 1000)
        lines[5900] = "not json"
        let bytes = sessionBytes(lines)
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let splitting = SessionSplitting(maximumPieces: 3, minimumPieceBytes: 1 << 10, chunkBytes: chunkBytes)
        let load = try SessionReader.read(contentsOf: path, splitting: splitting)
        #expect(load.damage?.line == 5902)
        #expect(load == (try SessionReader.read(bytes, path: path, splitting: Self.whole)))
    }

    @Test func aLargeFileReadsAsItsBytesDoOnAllCores() throws {
        var generator = ValueGenerator(seed: 16)
        let lines = (0..<12_000).map { generator.event().line(seq: $0 + 1) }
        let bytes = sessionBytes(lines)
        #expect(bytes.count > 2 * SessionSplitting.automatic.minimumPieceBytes)
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let load = try SessionReader.read(contentsOf: path)
        #expect(load.events.count == lines.count)
        #expect(load == (try SessionReader.read(bytes, path: path, splitting: Self.whole)))
    }
}
