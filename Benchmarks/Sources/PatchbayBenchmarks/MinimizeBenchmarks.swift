@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayShell

/// `history minimize` (PatchbayHost.docc/ShrinkingAFailingSession.md) on the store of the
/// article's example, `{a: false, b: false, n: 0}`: a history of 10,000 actions, `Noise {k}`
/// (adding k to n) but for one `ArmA`, one `ArmB` and one `Fire` after both at random places
/// (SplitMix64 seeded 0x3117), `Fire` failing once both are armed. It must shrink to those three
/// actions, 1-minimal, within the default budget of 2,000 runs of the reducers over a sequence.
/// - M1: the whole command, end to end through `Shell.execute` with `--json`, one per trial.
/// - M2: the same with 10,000 more keys in the state (`k0: 0` ...), which no action touches: a
///   try starts from the initial state, so its cost must not grow with the state.
/// Quick mode does the same on 1,000 actions (and 1,000 more keys).
struct MinimizeBenchmarks: BenchmarkGroup {
    let name = "History minimize"

    func rows(for mode: Mode) -> [BenchmarkRow] {
        let actions = mode == .quick ? 1_000 : 10_000
        return [
            row(id: "M1", title: "history minimize: \(Self.count(actions)) actions to the 3 that fail (at most 2,000 runs)",
                actions: actions, extraKeys: 0),
            row(id: "M2", title: "history minimize: the same with a state of \(Self.count(actions)) more keys", actions: actions, extraKeys: actions),
        ]
    }

    private func row(id: String, title: String, actions: Int, extraKeys: Int) -> BenchmarkRow {
        let seen = Seen()
        return BenchmarkRow(
            id: id, title: title,
            ours: Self.minimize(actions: actions, extraKeys: extraKeys, seen: seen), reference: nil,
            target: .secondsBelow(5, operations: 1),
            notes: { ours, _, _ in
                ["\(Self.count(actions)) actions shrunk to \(seen.kept) in \(seen.runs) runs of the reducers "
                    + "(target: 3 actions, at most 2,000 runs: \(seen.kept == 3 && seen.runs <= 2_000 ? "met" : "not met")), "
                    + "\(formatted(ours / 1e9, digits: 3)) s (target: under 5 s: \(ours / 1e9 < 5 ? "met" : "not met"))"]
            }
        )
    }

    /// What the last trial kept and how many runs it took, for the notes.
    final class Seen {
        var kept = 0
        var runs = 0
    }

    static let reducers = [
        "reducer app on Noise : state.n += action.k",
        "reducer app on ArmA : state.a = true",
        "reducer app on ArmB : state.b = true",
        "reducer app on Fire when state.a && state.b : state.n = 1 / 0",
    ]

    /// A shell whose store (with `extraKeys` keys besides its own) has the history of `actions`
    /// actions, with the indices of the three.
    static func shell(actions: Int, extraKeys: Int) -> (Shell, cause: [Int]) {
        let shell = Shell(options: ShellOptions(json: true))
        let extra = (0..<extraKeys).map { ", k\($0): 0" }.joined()
        _ = shell.execute("store app = {a: false, b: false, n: 0\(extra)}")
        for line in reducers { _ = shell.execute(line) }
        var random = SplitMix64(seed: 0x3117)
        var picked: Set<Int> = []
        while picked.count < 3 { picked.insert(random.next(actions) + 1) }
        let cause = picked.sorted()
        // The fire comes last of the three; the arms in either order.
        let armsFirst = random.next(2) == 0
        for index in 1...actions {
            let command: String
            switch index {
            case cause[0]: command = armsFirst ? "dispatch app ArmA" : "dispatch app ArmB"
            case cause[1]: command = armsFirst ? "dispatch app ArmB" : "dispatch app ArmA"
            case cause[2]: command = "dispatch app Fire"
            default: command = "dispatch app Noise {k: \(random.next(9) + 1)}"
            }
            _ = shell.execute(command)
        }
        return (shell, cause)
    }

    /// One `history minimize app` per trial; the checksum is the sum of the kept indices, which
    /// must be those of the three actions.
    static func minimize(actions: Int, extraKeys: Int, seen: Seen) -> Workload {
        Workload(operations: 1) {
            let (shell, cause) = shell(actions: actions, extraKeys: extraKeys)
            return Trial(expectedChecksum: cause.reduce(0, +)) {
                let outcome = shell.execute("history minimize app")
                guard outcome.status == .success, let text = outcome.lines.first?.text,
                      let line = try? JSONReader.parse(text), let json = line["result"], case .array(let kept)? = json["kept"],
                      case .int(let runs)? = json["runs"] else {
                    throw CorrectnessFailure(description: "history minimize failed: \(outcome.lines.map(\.text))")
                }
                let indices = kept.compactMap { step -> Int? in if case .int(let index)? = step["index"] { index } else { nil } }
                seen.kept = indices.count
                seen.runs = runs
                guard indices == cause, json["minimal"] == .bool(true), runs <= 2_000 else {
                    throw CorrectnessFailure(description: "kept \(indices) in \(runs) runs, not \(cause) in at most 2,000")
                }
                return indices.reduce(0, +)
            }
        }
    }

    /// `10k`.
    static func count(_ number: Int) -> String {
        number % 1_000 == 0 ? "\(number / 1_000)k" : "\(number)"
    }
}
