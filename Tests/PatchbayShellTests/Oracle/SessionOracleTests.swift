import Foundation
@_spi(Shell) import PatchbayShell
import PatchbayTestSupport
import Testing

// The model-based oracle (see SessionOracle): random store sessions, recorded from their start
// or from a random point, must look the same live, in `inspect` of the recording and in
// `replay --verify` of it.
//
// CI runs 10,000 sequences of 5 to 20 commands. Every 25th sequence is checked after every
// command; the others before each `record stop` and after their last command. Run it longer
// (other seeds with PATCHBAY_SEED) by hand:
//
//     PATCHBAY_ORACLE_SEQUENCES=100000 swift test --skip-build --filter SessionOracle
//
// A failure is shrunk to the shortest sequence that fails the same way and printed as a
// script to paste into patchbay, with its seed.

@Suite("Session oracle: live, inspect and replay --verify agree")
struct SessionOracleTests {
    /// The sequences run in parallel slices of this many.
    private static let slices = 8
    private static let sequences = TestBudget.count("PATCHBAY_ORACLE_SEQUENCES", default: 10_000)
    private static let seed = TestBudget.seed(default: 0x5EED_0A7A)
    /// How many distinct kinds of failure a slice shrinks and reports (shrinking is slow).
    private static let reportedKinds = 6

    @Test(arguments: 0..<slices)
    func randomSessionsAgree(slice: Int) {
        var kinds: [String: Int] = [:]
        var reported = 0
        for sequence in stride(from: slice, to: Self.sequences, by: Self.slices) {
            let sequenceSeed = SplitMix64.seed(Self.seed, run: sequence)
            var generator = StoreSessionGenerator(seed: sequenceSeed)
            var random = SplitMix64(seed: sequenceSeed)
            let commands = generator.session(length: random.int(5...20))
            let oracle = SessionOracle(checkEveryCommand: sequence % 25 == 0)
            guard let failure = oracle.run(commands) else { continue }
            kinds[failure.kind, default: 0] += 1
            guard kinds[failure.kind] == 1, reported < Self.reportedKinds else { continue }
            reported += 1
            // Shrink the failure that checks after every command find first.
            let first = SessionOracle(checkEveryCommand: true).run(commands) ?? failure
            let shrunk = oracle.shrink(commands, failing: first)
            Issue.record(Comment(rawValue: SessionOracle.script(shrunk.commands, failure: shrunk.failure, seed: Self.seed, sequence: sequence)))
        }
        if !kinds.isEmpty {
            let summary = kinds.sorted { $0.value > $1.value }.map { "\($0.value)× \($0.key)" }.joined(separator: "\n")
            Issue.record(Comment(rawValue: "slice \(slice): failing sequences by kind:\n\(summary)"))
        }
    }

    /// The oracle itself: a recording that disagrees with the live session is found, and shrunk
    /// to the commands that matter.
    @Test func aDisagreementIsFoundAndShrunkToTheCommandsThatMatter() throws {
        let commands = [
            "record $DIR/recording1.jsonl",
            "store cart = {count: 5}",
            "store app = {count: 0}",
            "dispatch cart Other",
            "reducer app on Inc : state.count += action.by",
            "tick",
            "dispatch app Inc {by: 2}",
            "dispatch cart Other",
        ]
        // Someone edits the recording in place: the action's patch sets 7 where the reducer made 2.
        var oracle = SessionOracle(checkEveryCommand: false)
        oracle.tamper = { path in
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return }
            try? text.replacingOccurrences(of: #""value":2"#, with: #""value":7"#).write(toFile: path, atomically: false, encoding: .utf8)
        }
        #expect(SessionOracle(checkEveryCommand: true).run(commands) == nil, "the untouched session agrees")
        let failure = try #require(oracle.run(commands))
        #expect(failure.kind == "inspect differs from live: state")
        #expect(failure.detail.contains(#"{"count":2}"#) && failure.detail.contains(#"{"count":7}"#))
        let shrunk = oracle.shrink(commands, failing: failure)
        #expect(shrunk.commands == [
            "record $DIR/recording1.jsonl",
            "store app = {count: 0}",
            "reducer app on Inc : state.count += action.by",
            "dispatch app Inc {by: 2}",
        ])
        #expect(shrunk.failure.step == 4)
        let script = SessionOracle.script(shrunk.commands, failure: shrunk.failure, seed: 7, sequence: 3)
        #expect(script.hasPrefix("# SessionOracle: inspect differs from live: state\n# seed 7 (PATCHBAY_SEED=7), sequence 3"))
        #expect(script.contains("\nrecord /tmp/patchbay-oracle/recording1.jsonl\n"))
    }
}
