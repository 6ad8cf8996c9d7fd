import Foundation
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayRecorder
import PatchbayTestSupport
@_spi(Shell) import PatchbayHistory
import Testing

/// A replay's reading of a session (`SessionStepReader`): the commands with the events after
/// each, what `SessionReader` reads in another shape, and the same damage.
@Suite struct SessionStepReaderTests {
    /// All the steps of `reader`, and the damage that ended them.
    static func steps(_ reader: SessionStepReader) -> ([RecordedCommand], SessionError?) {
        var steps: [RecordedCommand] = []
        do {
            while let step = try reader.next() { steps.append(step) }
        } catch {
            return (steps, error)
        }
        return (steps, nil)
    }

    @Test func theStepsHoldTheEventsOfTheLoad() throws {
        var generator = ValueGenerator(seed: 21)
        let lines = (0..<3000).map { generator.event().line(seq: $0 + 1) }
        let bytes = sessionBytes(lines)
        let load = try SessionReader.read(bytes)
        let reader = try SessionStepReader(bytes: bytes)
        let (steps, damage) = Self.steps(reader)
        #expect(damage == nil)
        var events = reader.prelude
        for step in steps {
            events.append(RecordedEvent(line: step.line, seq: step.seq, event: step.isSetup ? .setup(step.text) : .command(step.text)))
            events += step.effects
        }
        #expect(events == load.events)
        #expect(reader.stepCount == steps.count)
        #expect(steps.contains { $0.isSetup })
    }

    @Test func eventsBeforeTheFirstCommandAreThePrelude() throws {
        let reader = try SessionStepReader(bytes: sessionBytes([
            #"{"seq":1,"kind":"store","store":"app","state":{}}"#,
            #"{"seq":2,"kind":"setup","text":"reducer app on A : state"}"#,
            #"{"seq":3,"kind":"command","text":"a"}"#,
            #"{"seq":4,"kind":"jump","store":"app","index":0}"#,
            #"{"seq":5,"kind":"command","text":"b"}"#,
        ]))
        #expect(reader.prelude == [RecordedEvent(line: 2, seq: 1, event: .store(name: "app", state: [:]))])
        #expect(try reader.next() == RecordedCommand(text: "reducer app on A : state", isSetup: true, line: 3, seq: 2, effects: []))
        #expect(try reader.next() == RecordedCommand(text: "a", line: 4, seq: 3, effects: [
            RecordedEvent(line: 5, seq: 4, event: .jump(store: "app", index: 0)),
        ]))
        #expect(try reader.next() == RecordedCommand(text: "b", line: 6, seq: 5, effects: []))
        #expect(try reader.next() == nil)
    }

    @Test(arguments: [
        #"{"seq":3,"kind":"action","store":"app","index":1,"action":{"type":"A"},"patch":[{"op":"nope","path":"/a"}]}"#,
        #"{"seq":3,"kind":"publish","port":"x"}"#,
        #"{"seq":3,"kind":"publish","port":"x","value":[1,2"#,
    ])
    func aDamagedEffectLineCutsItsStepAndIsThrownAfterIt(line: String) throws {
        let bytes = sessionBytes([
            #"{"seq":1,"kind":"command","text":"a"}"#, #"{"seq":2,"kind":"command","text":"b"}"#,
            #"{"seq":3,"kind":"jump","store":"app","index":0}"#, line, #"{"seq":5,"kind":"command","text":"c"}"#,
        ])
        let load = try SessionReader.read(bytes, path: "s.pb")
        let damage = try #require(load.damage)
        #expect(damage.line == 5)
        let reader = try SessionStepReader(bytes: bytes, path: "s.pb")
        #expect(try reader.next() == RecordedCommand(text: "a", line: 2, seq: 1, effects: []))
        #expect(try reader.next() == RecordedCommand(text: "b", line: 3, seq: 2, effects: [
            RecordedEvent(line: 4, seq: 3, event: .jump(store: "app", index: 0)),
        ], isCut: true))
        #expect(throws: damage) { try reader.next() }
        #expect(reader.damage == load.damage)
        #expect(try reader.next() == nil)
    }

    @Test func aBadHeaderOrAMissingFileIsTheErrorTheReaderGives() throws {
        #expect(throws: SessionError(path: "s.pb", line: 1, .empty)) { try SessionStepReader(bytes: [], path: "s.pb") }
        let newer = sessionBytes([], header: #"{"patchbay":"session","version":3}"#)
        #expect(throws: SessionError(line: 1, .newerVersion(3))) { try SessionStepReader(bytes: newer) }
        #expect(throws: SessionError(path: "/nonexistent/s.pb", .cannotOpen(errno: ENOENT))) {
            try SessionStepReader(path: "/nonexistent/s.pb")
        }
    }

    @Test func aFileIsReadStepByStepAsItsBytesAre() throws {
        var generator = ValueGenerator(seed: 8)
        var lines = (0..<20_000).map { generator.event().line(seq: $0 + 1) }
        lines.insert(#"{"seq":0,"kind":"command","text":""# + String(repeating: "y", count: 3_000_000) + #""}"#, at: 5000)
        let bytes = sessionBytes(lines)
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let fromFile = Self.steps(try SessionStepReader(path: path))
        let fromBytes = Self.steps(try SessionStepReader(bytes: bytes, path: path))
        #expect(fromFile.0 == fromBytes.0)
        #expect(fromFile.1 == nil && fromBytes.1 == nil)
    }
}
