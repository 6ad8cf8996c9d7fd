@_spi(Shell) import PatchbayShell

/// Output people read (issue 16): `nodes` on a store that holds a list of 100,000 numbers,
/// printed with the one truncation policy (200 characters, then a count of what was left out)
/// against the same command with `set truncate off`, which prints the whole value as every
/// command did before (a line of about 600 KB).
struct OutputBenchmarks: BenchmarkGroup {
    let name = "Output"

    func rows(for mode: Mode) -> [BenchmarkRow] {
        let commands = mode == .quick ? 20 : 200
        return [
            BenchmarkRow(
                id: "O1", title: "nodes with a 100,000-element state, elided",
                ours: Self.nodes(commands, truncate: "200"),
                reference: Reference(kind: .naive, name: "set truncate off", workload: Self.nodes(commands, truncate: "off")),
                target: .nanosecondsBelow(1_000_000)
            ),
        ]
    }

    /// `commands` runs of `nodes`; the checksum is the characters they printed, which a first
    /// run, untimed, counts.
    static func nodes(_ commands: Int, truncate: String) -> Workload {
        Workload(operations: commands) {
            let shell = Shell()
            _ = shell.execute("store app = {items: range(100000)}")
            _ = shell.execute("set truncate \(truncate)")
            let printed = shell.execute("nodes").lines.reduce(0) { $0 + $1.text.utf8.count }
            return Trial(expectedChecksum: printed * commands) {
                var sum = 0
                for _ in 0..<commands {
                    sum += shell.execute("nodes").lines.reduce(0) { $0 + $1.text.utf8.count }
                }
                return sum
            }
        }
    }
}
