import Foundation
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayRecorder
@_spi(Shell) @testable import PatchbayShell
import Testing

// What a hosted store's values look like from the shell: sets and dictionaries in one order
// whatever Swift's hash order, and action objects whose every field must mean something.

/// A state with a set: Swift iterates it in an order that depends on the process and on the
/// set's capacity.
struct Sightings: Codable, Equatable {
    var seen: Set<String> = []
    var countByLength: [Int: Int] = [:]
}

enum SightingAction: Codable, Equatable {
    case see(String)
}

enum SightingFixtures {
    static let birds = ["wren", "robin", "kite", "owl", "swift", "heron", "finch", "crane", "stork", "lark", "jay", "tern"]

    /// Inserts into the set it has; or, `rebuilding`, makes a new, larger set each time: the
    /// same states, in another hash order.
    static func reducer(rebuilding: Bool = false) -> Reducer<Sightings, SightingAction> {
        Reducer { state, action in
            switch action {
            case .see(let bird):
                if rebuilding {
                    var seen = Set<String>(minimumCapacity: 4_096)
                    seen.formUnion(state.seen)
                    seen.insert(bird)
                    state.seen = seen
                } else {
                    state.seen.insert(bird)
                }
                state.countByLength[bird.count, default: 0] += 1
            }
        }
    }

    static func session(rebuilding: Bool = false) throws -> DataflowSession {
        let session = DataflowSession()
        try session.shell.host([HostedStore("birds", initialState: Sightings(), reducer: reducer(rebuilding: rebuilding))])
        return session
    }
}

@Suite("Hosted stores: sets and dictionaries")
struct HostedStoreUnorderedTests {
    @Test func aSetFieldShowsInOneOrder() throws {
        let session = try SightingFixtures.session()
        for bird in SightingFixtures.birds {
            let lines = session.run(#"dispatch birds see {_0: "\#(bird)"}"#)
            // The bird is added where it sorts; the others never move (no `seen[0]: "a" → "b"`).
            #expect(lines.joined(separator: "\n").contains(#": + "\#(bird)""#), "\(lines)")
            let changes = lines.flatMap { $0.components(separatedBy: "; ") }
            #expect(!changes.contains { $0.contains("seen[") && $0.contains("→") }, "\(lines)")
        }
        let seen = SightingFixtures.birds.sorted().map { #""\#($0)""# }.joined(separator: ", ")
        #expect(session.run("state birds.seen") == ["[\(seen)]"])
        #expect(try session.value("state birds.countByLength").isIdentical(to: ["3": 2, "4": 4, "5": 6]))
    }

    @Test func aRecordingWithASetVerifiesAgainstAReducerThatBuildsItsSetsOtherwise() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/birds.jsonl"
        let store = Store(initialState: Sightings(), reducer: SightingFixtures.reducer())
        let recorder = try Recorder(store: store, path: path, storeName: "birds", detail: .everyChange)
        for bird in SightingFixtures.birds { store.dispatch(.see(bird)) }
        recorder.stop()

        let count = SightingFixtures.birds.count
        #expect(try RecordedSession(path: path).verify(SightingFixtures.reducer(rebuilding: true), store: "birds") == count)
        let session = try SightingFixtures.session(rebuilding: true)
        #expect(session.run("replay \(path) --verify").last == "verified \(count) steps of \(path): every effect matches the recording")
        #expect(session.run("history recompute birds").last == "recomputed \(count) actions of birds with its reducers as they are now: 0 states changed")
    }
}

@Suite("Hosted stores: fields of action objects")
struct HostedStoreActionFieldTests {
    @Test func aFieldTheActionDoesNotHaveIsAnErrorThatChangesNothing() throws {
        let session = try HostedFixtures.session([HostedFixtures.wallet(), HostedFixtures.tally()])
        let outcome = session.outcome("dispatch wallet Deposit {amount: 1, amonut: 2}")
        #expect(outcome.status == .failure)
        let text = outcome.lines.map(\.text).joined(separator: "\n")
        #expect(text.contains("error: Deposit.amonut: unknown field; did you mean 'amount'?"), "\(text)")
        // The caret is under the fields, as for a field that does not decode.
        #expect(text.contains("dispatch wallet Deposit {amount: 1, amonut: 2}\n" + String(repeating: " ", count: 26) + "^" + String(repeating: "~", count: 21)), "\(text)")
        #expect(try session.value("state wallet").isIdentical(to: ["balance": 0]))
        try session.expectNoActions("history wallet")

        #expect(session.error(#"dispatch tally note {_0: "x", _1: "y"}"#) == "error: note._1: unknown field; did you mean '_0'?")
        #expect(session.error("dispatch tally double {times: 2}") == "error: double.times: unknown field (it takes none)")
        #expect(try session.value("state tally").isIdentical(to: ["total": 0, "log": []]))
    }

    @Test func aMissingFieldAndAnUnknownTypeSayWhatTheStoreTakes() throws {
        let session = try HostedFixtures.session([HostedFixtures.wallet()])
        #expect(session.error("dispatch wallet Deposit {}") == "error: Deposit.amount: missing (expected an integer)")
        #expect(session.error("dispatch wallet Clear") == "error: no action type 'Clear' (known: Deposit, Withdraw)")
        #expect(session.error("dispatch wallet Withdrw {amount: 1}") == "error: no action type 'Withdrw'; did you mean 'Withdraw'?")
    }

    @Test func theErrorsReadTheSameInJSON() throws {
        let session = try HostedFixtures.session([HostedFixtures.wallet()], json: true)
        let lines = session.run("dispatch wallet Deposit {amount: 1, amonut: 2}")
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.first?.contains(#""message":"Deposit.amonut: unknown field; did you mean 'amount'?","line":1,"column":25"#) == true, "\(lines)")
    }
}
