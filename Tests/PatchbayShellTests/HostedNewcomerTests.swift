import Foundation
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayRecorder
@_spi(Shell) @testable import PatchbayShell
import Testing

// An app's stores in the shell, as a Swift developer meets them in the first hour (issue 25):
// a recording of a store the shell does not host says which it hosts and how to name it; a
// divergence has one line number in the shell and in the test API; a state's keys keep their
// order when an optional starts nil.

struct Profile: Codable, Equatable {
    var name: String?
    var age = 0
}

enum ProfileAction: Codable, Equatable {
    case rename(String?)
    case birthday
}

enum ProfileFixtures {
    static func reducer(birthdayAdds: Int = 1) -> Reducer<Profile, ProfileAction> {
        Reducer { state, action in
            switch action {
            case .rename(let name): state.name = name
            case .birthday: state.age += birthdayAdds
            }
        }
    }

    static func store(birthdayAdds: Int = 1) -> HostedStore {
        HostedStore("profile", initialState: Profile(), reducer: reducer(birthdayAdds: birthdayAdds))
    }
}

@Suite("Hosted stores for a newcomer")
struct HostedNewcomerTests {
    @Test func aRecordingOfAStoreNotHostedListsTheHostedOnesAndHowToNameIt() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/app.jsonl"
        let store = Store(initialState: Profile(), reducer: ProfileFixtures.reducer())
        let recorder = try Recorder(store: store, path: path)
        store.dispatch(.birthday)
        recorder.stop()
        let session = try HostedFixtures.session([ProfileFixtures.store(), HostedFixtures.tally()])
        let error = session.error("replay \(path)")
        #expect(error.contains("app is an app's store that this shell does not host (it hosts profile, tally)"), "\(error)")
        #expect(error.contains(#"Recorder(..., storeName: "profile")"#), "\(error)")
    }

    /// Found by following the README from a fresh package: a recording started after a `skip`,
    /// a `jump` and a branch opens with that history, which the test API took for actions to
    /// verify (the skipped one "left another state"); it is the past, loaded, and the run is
    /// verified from where the recording started.
    @Test func aRecordingStartedMidSessionIsVerifiedFromWhereItStarted() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/profile.jsonl"
        let session = try HostedFixtures.session([ProfileFixtures.store()])
        session.run("dispatch profile birthday\ndispatch profile birthday\njump 1\nskip 1\nrecord \(path)")
        session.run("dispatch profile birthday\ndispatch profile rename {_0: 'Max'}\nrecord stop")
        #expect(try RecordedSession(path: path).verify(ProfileFixtures.reducer()) == 2)
        let thrown = #expect(throws: RecordedSessionError.self) {
            try RecordedSession(path: path).verify(ProfileFixtures.reducer(birthdayAdds: 2))
        }
        #expect(thrown?.description.contains("action #2 of profile") == true, "\(String(describing: thrown))")
    }

    @Test func aDivergenceHasTheSameLineInTheShellAndInTheTestAPI() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/profile.jsonl"
        let recording = try HostedFixtures.session([ProfileFixtures.store()])
        recording.run("record \(path)\ndispatch profile birthday\ndispatch profile birthday\nrecord stop")
        let changed = try HostedFixtures.session([ProfileFixtures.store(birthdayAdds: 2)], json: true)
        let output = changed.run("replay \(path) --verify").joined()
        let thrown = #expect(throws: RecordedSessionError.self) {
            try RecordedSession(path: path).verify(ProfileFixtures.reducer(birthdayAdds: 2), store: "profile")
        }
        guard case .diverged(let divergence)? = thrown else {
            Issue.record("not a divergence: \(String(describing: thrown))")
            return
        }
        #expect(output.contains(#""divergence":{"step":"#), "\(output)")
        #expect(output.contains(#","line":\#(divergence.line),"#), "line \(divergence.line): \(output)")
    }

    @Test func keysKeepTheirOrderLiveAndAfterAReplayWhenAnOptionalStartsNil() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/profile.jsonl"
        let live = try HostedFixtures.session([ProfileFixtures.store()])
        live.run("record \(path)\ndispatch profile birthday\ndispatch profile rename {_0: \"Max\"}\nrecord stop")
        let shown = live.run("state profile")
        #expect(shown == [#"{name: "Max", age: 1}"#])
        #expect(live.run("jump profile 1\njump profile end").last == #"profile at #2 of 2: {name: "Max", age: 1}"#)
        #expect(live.run("state profile") == shown)
        let replayed = try HostedFixtures.session([ProfileFixtures.store()])
        replayed.run("replay \(path)")
        #expect(replayed.run("state profile") == shown)
        #expect(replayed.run("history profile").last?.contains("rename") == true)
        let inspected = try HostedFixtures.session([ProfileFixtures.store()])
        inspected.run("inspect \(path)")
        #expect(inspected.run("state profile") == shown)
    }
}
