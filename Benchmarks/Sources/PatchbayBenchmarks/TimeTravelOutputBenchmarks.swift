@_spi(Shell) import PatchbayShell

/// Time-travel commands on a large state (issue 16): `jump`, `diff` and `history --last 10` on a
/// store of 10,000 keys `{k0: 0, ..., k9999: 0}` with 1,000 `Set` actions (action `i` sets key
/// `k(37 i mod keys)` to `i`), end to end through `Shell.execute`, against the same commands on a
/// store of 10 keys: what a command prints is a line of a few dozen characters or a few rows, so
/// its cost must not grow with the state.
/// - T1: `jump 250` and `jump 750` in turn.
/// - T2: `diff` (what the current action changed) and `diff 500` in turn.
/// - T3: `history --last 10`.
struct TimeTravelOutputBenchmarks: BenchmarkGroup {
    let name = "Time travel output"

    func rows(for mode: Mode) -> [BenchmarkRow] {
        let commands = mode == .quick ? 20 : 2_000
        let keys = 10_000
        let rows: [(id: String, title: String, commands: [String])] = [
            ("T1", "jump on a 10,000-key state (jump 250, jump 750)", ["jump 250", "jump 750"]),
            ("T2", "diff on a 10,000-key state (diff, diff 500)", ["diff", "diff 500"]),
            ("T3", "history --last 10 on a 10,000-key state (1,000 actions)", ["history --last 10"]),
        ]
        return rows.map { row in
            BenchmarkRow(
                id: row.id, title: row.title + ": ns per command",
                ours: Self.run(row.commands, times: commands, keys: keys),
                reference: Reference(kind: .baseline, name: "the same on a 10-key state",
                                     workload: Self.run(row.commands, times: commands, keys: 10)),
                target: .nanosecondsBelow(1_000_000)
            )
        }
    }

    /// A shell with the store `app` of `keys` keys and its 1,000 actions.
    static func shell(keys: Int) -> Shell {
        let shell = Shell()
        let members = (0..<keys).map { "k\($0): 0" }.joined(separator: ", ")
        _ = shell.execute("store app = {\(members)}")
        _ = shell.execute("reducer app on Set : state[action.key] = action.value")
        for index in 1...1_000 {
            _ = shell.execute("dispatch app Set {key: 'k\(index * 37 % keys)', value: \(index)}")
        }
        return shell
    }

    /// `times` commands, `commands` in turn; the checksum is the characters they printed, which
    /// a first round, untimed, counts (and checks that none failed).
    static func run(_ commands: [String], times: Int, keys: Int) -> Workload {
        Workload(operations: times) {
            let shell = shell(keys: keys)
            var printed: [Int] = []
            for command in commands {
                let result = shell.execute(command)
                guard result.status == .success else {
                    throw CorrectnessFailure(description: "'\(command)' failed: \(result.lines.map(\.text))")
                }
                printed.append(result.lines.reduce(0) { $0 + $1.text.utf8.count })
            }
            let expected = (0..<times).reduce(0) { $0 + printed[$1 % commands.count] }
            return Trial(expectedChecksum: expected) {
                var sum = 0
                for index in 0..<times {
                    sum += shell.execute(commands[index % commands.count]).lines.reduce(0) { $0 + $1.text.utf8.count }
                }
                return sum
            }
        }
    }
}
