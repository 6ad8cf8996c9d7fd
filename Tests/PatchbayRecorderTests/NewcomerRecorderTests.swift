import Foundation
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayHistory
@_spi(Shell) import PatchbayRecorder
import Testing

// What a Swift developer meets first with the recorder (issue 25): a `Recorder` that would
// write over a file refuses unless told to, and `verify` on a file of several stores names
// them instead of taking the first.

private struct Count: Codable, Equatable {
    var n = 0
}

private enum CountAction: Codable {
    case inc
}

private var countReducer: Reducer<Count, CountAction> { Reducer { state, _ in state.n += 1 } }

/// A session file with the stores `cart` and `user`, each with one action `inc`.
private func twoStores(at path: String) throws {
    let writer = try SessionWriter(path: path, created: Date(timeIntervalSince1970: 1_795_255_200))
    try writer.write(.store(name: "cart", state: ["n": 0]))
    try writer.write(.store(name: "user", state: ["n": 0]))
    for store in ["cart", "user"] {
        let after: Value = ["n": 1]
        try writer.write(.action(StoreStep<JSONPatch.Operation>(store: store, index: 1, action: ["type": "inc"], changes: JSONPatch.operations(Value.object(["n": 0]).changes(to: after))), hash: StateDigest(after)))
    }
    writer.close()
}

@Suite("Recorder and RecordedSession for a newcomer")
struct NewcomerRecorderTests {
    @Test func aRecorderRefusesToReplaceAFile() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "keep me\n".write(toFile: path, atomically: true, encoding: .utf8)
        let error = #expect(throws: RecorderError.self) { try Recorder<Count, CountAction>(path: path, initialState: Count()) }
        #expect(error?.description == "\(path) exists; pass replacing: true to replace it, or choose another path")
        let store = Store(initialState: Count(), reducer: countReducer)
        #expect(throws: RecorderError.self) { try Recorder(store: store, path: path) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me\n")
    }

    @Test func verifyOnSeveralStoresNamesThemAndAsksForOne() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try twoStores(at: path)
        #expect(throws: RecordedSessionError.cannotVerify(line: nil, "the recording has several stores (cart, user): "
                                                            + "name the one to verify (verify(reducer, store: \"cart\"))")) {
            try RecordedSession(path: path).verify(countReducer)
        }
        #expect(try RecordedSession(path: path).verify(countReducer, store: "user") == 1)
        #expect(try RecordedSession(path: path).verify(countReducer, store: "cart") == 1)
    }
}

@Suite("blame stops when asked")
struct InterruptibleBlameTests {
    /// A history of `count` actions, each adding 1 to `n`.
    private func counting(_ count: Int) throws -> History {
        let history = History(initial: ["n": 0])
        for index in 1...count {
            let after: Value = ["n": .int(index)]
            _ = try history.record(StoreStep<ValueChange>(store: "the store", index: index, action: ["type": "Inc"], changes: Value.object(["n": .int(index - 1)]).changes(to: after)),
                                   after: after)
        }
        return history
    }

    private struct Stop: Error {}

    @Test func aCheckThatThrowsStopsTheBlameEarly() throws {
        let history = try counting(5_000)
        var checks = 0
        #expect(throws: Stop.self) {
            _ = try history.blame([.key("n")], checking: { (done, total) throws(Stop) in
                checks += 1
                #expect(done == checks * 1024 && total == 5_000)
                if checks == 2 { throw Stop() }
            })
        }
        // Called every 1024 actions: stopped at the second call, long before the 5000th action.
        #expect(checks == 2)
        #expect(try history.blame([.key("n")], checking: { (_, _) throws(Stop) in }).count == 5_000)
        #expect(history.blame([.key("n")]).count == 5_000)
    }
}
