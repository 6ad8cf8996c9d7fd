import Foundation
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayRecorder
import Testing

private struct Tally: Codable, Equatable {
    var total = 0
}

private enum TallyAction: Codable, Equatable, Sendable {
    case add(Int)
}

/// Each action line of an app's recording says where the app dispatched the action (`site`);
/// a line without one (every older file) reads as before.
@Suite struct CallSiteRecordingTests {
    private static var reducer: Reducer<Tally, TallyAction> {
        Reducer { state, action in
            switch action {
            case .add(let amount): state.total += amount
            }
        }
    }

    /// The action lines' sites in the file at `path`.
    private static func sites(in path: String) throws -> [ActionSite?] {
        let load = try SessionReader.read(contentsOf: path)
        #expect(load.damage == nil)
        return load.events.compactMap { recorded -> ActionSite?? in
            guard case .action(let step, _) = recorded.event else { return nil }
            return .some(step.site)
        }
    }

    @Test(arguments: [RecordingDetail.checkpoints, .everyChange])
    func aRecordedStoreWritesTheLineThatDispatchedEachAction(detail: RecordingDetail) throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = Store(initialState: Tally(), reducer: Self.reducer)
        let recorder = try Recorder(store: store, path: path, detail: detail)
        let first = #line; store.dispatch(.add(1))
        let second = #line; store.dispatch(.add(2))
        recorder.stop()

        #expect(try Self.sites(in: path) == [first, second].map { .source(CallSite(file: #fileID, line: $0)) })
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(#""site":"PatchbayRecorderTests/CallSiteRecordingTests.swift:\#(first)""#))
    }

    @Test func recordTakesItsCallersLine() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let recorder = try Recorder<Tally, TallyAction>(path: path, initialState: Tally())
        let line = #line; recorder.record(.add(3), state: Tally(total: 3))
        recorder.stop(state: Tally(total: 3))

        #expect(try Self.sites(in: path) == [.source(CallSite(file: #fileID, line: line))])
    }

    @Test func anActionLineWithoutASiteReadsAsBeforeAndIsWrittenAsBefore() throws {
        let line = #"{"seq":2,"kind":"action","store":"app","index":1,"action":{"type":"add","_0":1},"patch":[{"op":"replace","path":"/total","value":1}]}"#
        let load = try SessionReader.read(sessionBytes([#"{"seq":1,"kind":"store","store":"app","state":{"total":0}}"#, line]))
        #expect(load.damage == nil)
        guard case .action(let step, _)? = load.events.last?.event else {
            Issue.record("no action read: \(load.events)")
            return
        }
        #expect(step.site == nil)
        #expect(load.events.last?.event.line(seq: 2) == line)
    }

    @Test func aSiteIsWrittenLastAndReadBack() throws {
        let step = StoreStep<JSONPatch.Operation>(store: "app", index: 1, action: ["type": "add"], changes: [], cause: 4,
                                                  site: .source(CallSite(file: "App/Tally.swift", line: 12)))
        let line = SessionEvent.action(step, hash: nil).line(seq: 7)
        #expect(line == #"{"seq":7,"kind":"action","store":"app","index":1,"action":{"type":"add"},"patch":[],"cause":4,"site":"App/Tally.swift:12"}"#)
        #expect(try SessionReader.read(sessionBytes([line])).events.map(\.event) == [.action(step, hash: nil)])
    }

    @Test func theShellsSiteIsNotWritten() {
        let step = StoreStep<ValueChange>(store: "app", index: 1, action: ["type": "add"], changes: [], site: .shell(["dispatch app add"]))
        #expect(step.patchForm.site == nil)
        #expect(!SessionEvent.action(step.patchForm, hash: nil).line(seq: 1).contains("site"))
    }

    @Test func aSiteThatIsNotFileColonLineIsDamageAtItsLine() throws {
        let line = #"{"seq":2,"kind":"action","store":"app","index":1,"action":{"type":"add"},"patch":[],"site":"nowhere"}"#
        let load = try SessionReader.read(sessionBytes([line]))
        #expect(load.damage == SessionError(line: 2, .invalidField("site", #"expected "FILE:LINE""#)))
    }
}
