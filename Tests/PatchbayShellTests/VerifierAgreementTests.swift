import Foundation
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayRecorder
@_spi(Shell) @testable import PatchbayShell
import PatchbayTestSupport
import Testing

// The shell's `replay --verify` and the test API's `RecordedSession.verify` check an app's
// recording with the one `RecordingVerifier`: on random recordings (every change or checkpoints
// only, any checkpoint interval), replayed under the reducer they were made with or another,
// intact or with a patch or a checkpoint edited, both give the same verdict at the same line;
// and where the verdict is plain from the reducers (an intact recording of every change), it is
// that one.

@Suite("The shell and the test API verify alike")
struct VerifierAgreementTests {
    /// What a verification concluded, and at which line of the file.
    enum Verdict: Equatable, CustomStringConvertible {
        case passes
        case diverges(line: Int)
        case damaged(line: Int)

        var description: String {
            switch self {
            case .passes: "passes"
            case .diverges(let line): "diverges at line \(line)"
            case .damaged(let line): "damaged at line \(line)"
            }
        }
    }

    /// How a recording is changed before it is verified.
    enum Tampering: CaseIterable {
        case none, reducer, patch, checkpoint
    }

    @Test func randomRecordingsGetTheSameVerdictFromBoth() throws {
        let runs = ProcessInfo.processInfo.environment["PATCHBAY_VERIFIER_RUNS"].flatMap(Int.init) ?? 150
        let seed = ProcessInfo.processInfo.environment["PATCHBAY_SEED"].flatMap(UInt64.init) ?? 2026
        var random = SplitMix64(seed: seed)
        var seen: [String: Int] = [:]
        for run in 0..<runs {
            let directory = TemporaryDirectory()
            let path = directory.path + "/tally.jsonl"
            let detail: RecordingDetail = random.next() % 2 == 0 ? .everyChange : .checkpoints
            let interval = Int(random.next() % 5) + 1
            let actions = (0..<Int(random.next() % 12) + 1).map { _ -> TallyAction in
                switch random.next() % 3 {
                case 0: .add(amount: Int(random.next() % 5))
                case 1: .double
                default: .note("n\(random.next() % 3)")
                }
            }
            let store = Store(initialState: Tally(), reducer: HostedFixtures.tallyReducer())
            let recorder = try Recorder(store: store, path: path, storeName: "tally", detail: detail, checkpointInterval: interval)
            for action in actions { store.dispatch(action) }
            recorder.stop()

            let tampering = Tampering.allCases[Int(random.next() % 4)]
            var doublingAdds: Int?
            switch tampering {
            case .none: break
            case .reducer: doublingAdds = Int(random.next() % 3)
            case .patch: try edit(path, lineOf: #""kind":"action""#, "/total", random: &random)
            case .checkpoint: try edit(path, lineOf: #""kind":"checkpoint""#, "total", random: &random)
            }
            let reducer = HostedFixtures.tallyReducer(doublingAdds: doublingAdds)
            let byTestAPI = verdict { () throws(RecordedSessionError) in try RecordedSession(path: path).verify(reducer) }
            let byShell = try verdictOfReplay(path, doublingAdds: doublingAdds)
            #expect(byShell == byTestAPI, "run \(run) (seed \(seed)): \(actions), \(detail), every \(interval), \(tampering)")
            if byShell != byTestAPI { return }
            // An oracle of its own where one is easy: an intact recording of every change passes
            // under its own reducer, and under another exactly when every state comes out the same.
            if detail == .everyChange, tampering == .none || tampering == .reducer {
                var recorded = Tally(), replayed = Tally(), differs = false
                for action in actions {
                    HostedFixtures.tallyReducer()(&recorded, action)
                    HostedFixtures.tallyReducer(doublingAdds: doublingAdds)(&replayed, action)
                    differs = differs || recorded != replayed
                }
                #expect(differs == (byShell != .passes), "run \(run) (seed \(seed)): \(actions), \(byShell)")
            }
            seen["\(byShell)".split(separator: " ")[0].description, default: 0] += 1
        }
        // Every verdict came up, so the agreement is not that of two checks that always pass.
        #expect(seen.keys.sorted() == ["damaged", "diverges", "passes"], "\(seen)")
    }

    /// Changes a number in one of the lines that contain `kind` (at random): the value after
    /// `"key":` or `"path":"key","value":`.
    private func edit(_ path: String, lineOf kind: String, _ key: String, random: inout SplitMix64) throws {
        var lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
        let pattern = key.hasPrefix("/") ? #""path":"\#(key)","value":"# : #""\#(key)":"#
        let candidates = lines.indices.filter { lines[$0].contains(kind) && lines[$0].contains(pattern) }
        guard !candidates.isEmpty else { return }
        let position = candidates[Int(random.next() % UInt64(candidates.count))]
        let line = lines[position]
        guard let range = line.range(of: pattern) else { return }
        let digits = line[range.upperBound...].prefix { $0.isNumber }
        let value = (Int(digits) ?? 0) + 1000
        lines[position] = line.replacingCharacters(in: range.upperBound..<line.index(range.upperBound, offsetBy: digits.count),
                                                   with: "\(value)")
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    private func verdict(_ verify: () throws(RecordedSessionError) -> Int) -> Verdict {
        do throws(RecordedSessionError) {
            _ = try verify()
            return .passes
        } catch {
            switch error {
            case .diverged(let divergence): return .diverges(line: divergence.line)
            case .cannotVerify(let line, _): return .damaged(line: line ?? 0)
            case .session(let error): return .damaged(line: error.line ?? 0)
            }
        }
    }

    /// The verdict of `replay PATH --verify` in a shell that hosts the tally store.
    private func verdictOfReplay(_ path: String, doublingAdds: Int?) throws -> Verdict {
        let session = DataflowSession()
        try session.shell.host([HostedFixtures.tally(doublingAdds: doublingAdds)])
        guard let error = session.run("replay \(path) --verify").first(where: { $0.hasPrefix("error: ") }) else { return .passes }
        let first = error.split(separator: "\n")[0]
        guard let match = first.firstMatch(of: /line (\d+)/), let line = Int(match.1) else { return .damaged(line: 0) }
        return first.contains("replay diverged") ? .diverges(line: line) : .damaged(line: line)
    }
}
