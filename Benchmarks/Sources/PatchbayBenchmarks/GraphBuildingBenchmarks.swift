#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayShell

/// Building a shell graph (issue #13): creating a node, a wire or a derived node must cost about
/// the same however large the graph already is, so that building twice as much takes about twice
/// as long. Each trial builds a whole graph through `Graph`'s commands, timed as one operation.
///
/// - Patches and wires: `signal s`, then N `map` patches, each wired from a random earlier patch
///   (or `s`): N nodes and N wires.
/// - Derives: `var v = 0`, then N derived nodes, each `max(A, B) + 1` over two random earlier ones.
/// - Stores (issue 28): N `store sI = {n: I}` commands typed into a shell, which keeps a history
///   for each store and marks where every history stands before each command.
/// - Reducers (issue 28): `store app = {n: 0}`, then N `reducer app on TI : state.n += 1`
///   commands into a shell, each given the lowest free id and printed as `reducer list` would.
///
/// The sweep rows compare a size with half of it in the same trials; their ratio is the cost of
/// one doubling (target <= 2.2: a cost per item that does not grow with the graph). Only the
/// building is timed, by the thread's CPU clock (`Trial.measurement`), and the graph is released
/// after the clock stops. The ratio is of the fastest trials (`.bestRatioAtMost`): the work
/// itself is linear (callgrind counts 2.00 times the instructions per doubling, from 25k to
/// 200k), and what a busy machine adds (other processes evicting the caches the graph is built
/// in) only ever slows a trial down; the medians are in the table beside.
struct GraphBuildingBenchmarks: BenchmarkGroup {
    let name = "Graph building"

    func rows(for mode: Mode) -> [BenchmarkRow] {
        let largest = mode == .quick ? 12_500 : 100_000
        let sizes = [largest / 8, largest / 4, largest / 2, largest]
        var rows = [
            BenchmarkRow(
                id: "B1", title: "\(Self.count(largest)) map patches + \(Self.count(largest)) wires",
                ours: Self.patchesAndWires(largest), reference: nil,
                target: .secondsBelow(2, operations: 1),
                notes: { ours, _, _ in ["\(Self.count(largest)) nodes and wires built in \(formatted(ours / 1e9, digits: 3)) s"] }
            ),
        ]
        for (index, size) in sizes.enumerated().dropFirst() {
            rows.append(Self.doubling(id: "B1x\(index)", what: "patches + wires", size: size, build: Self.patchesAndWires))
        }
        rows.append(BenchmarkRow(
            id: "B2", title: "\(Self.count(largest)) derives over two earlier ones",
            ours: Self.derives(largest), reference: nil,
            target: .secondsBelow(2, operations: 1),
            notes: { ours, _, _ in ["\(Self.count(largest)) derived nodes built in \(formatted(ours / 1e9, digits: 3)) s"] }
        ))
        for (index, size) in sizes.enumerated().dropFirst() {
            rows.append(Self.doubling(id: "B2x\(index)", what: "derives", size: size, build: Self.derives))
        }
        for (id, what, build) in [("B3", "stores", Self.stores), ("B4", "reducers on one store", Self.reducers)] as [(String, String, (Int) -> Workload)] {
            rows.append(BenchmarkRow(
                id: id, title: "\(Self.count(largest)) \(what), typed into a shell",
                ours: build(largest), reference: nil,
                target: .secondsBelow(2, operations: 1),
                notes: { ours, _, _ in ["\(Self.count(largest)) \(what) made in \(formatted(ours / 1e9, digits: 3)) s"] }
            ))
            for (index, size) in sizes.enumerated().dropFirst() {
                rows.append(Self.doubling(id: "\(id)x\(index)", what: what, size: size, target: 2.3, build: build))
            }
        }
        return rows
    }

    /// A row building `size` against building half of it, in the same trials.
    static func doubling(id: String, what: String, size: Int, target: Double = 2.2, build: (Int) -> Workload) -> BenchmarkRow {
        BenchmarkRow(
            id: id, title: "\(what): \(count(size)) against \(count(size / 2))",
            ours: build(size),
            reference: Reference(kind: .baseline, name: "half the size", workload: build(size / 2)),
            target: .bestRatioAtMost(target),
            notes: { ours, half, _ in
                ["\(count(size)) \(what) in \(formatted(ours / 1e9, digits: 3)) s, \(count(size / 2)) in "
                    + "\(formatted((half ?? 0) / 1e9, digits: 3)) s (fastest trials): x\(formatted(ours / (half ?? ours), digits: 2)) per doubling"]
            }
        )
    }

    static func count(_ n: Int) -> String {
        n % 1000 == 0 ? "\(n / 1000)k" : n % 100 == 0 ? "\(Double(n) / 1000)k" : "\(n)"
    }

    /// The parent of each patch: a random earlier one, or -1 for the signal.
    static func parents(_ n: Int) -> [Int] {
        var random = SplitMix64(seed: 0x6B41_1D)
        return (0..<n).map { index in random.next(index + 1) - 1 }
    }

    static func patchesAndWires(_ n: Int) -> Workload {
        let parents = parents(n)
        return Workload(operations: 1) {
            let built = Built()
            return Trial(expectedChecksum: n * 2 + 1, run: {
                let start = threadCPUNanoseconds()
                let graph = Graph()
                built.graph = graph
                var newWires = 0
                try graph.createSignal("s")
                let function: [String: Value] = ["fn": "$ + 1"]
                let input = "in", output = "out"
                for index in 0..<n {
                    let name = "m\(index)"
                    try graph.createPatch(name, type: "map", arguments: function)
                    let parent = parents[index]
                    let source = parent < 0 ? PortAddress(node: "s", port: output) : PortAddress(node: "m\(parent)", port: output)
                    if try graph.wire(from: source, to: PortAddress(node: name, port: input)).replaced == nil { newWires += 1 }
                }
                built.cpuNanoseconds = threadCPUNanoseconds() - start
                return graph.nodeNames.count + newWires
            }, measurement: { Double(built.cpuNanoseconds) })
        }
    }

    /// The two nodes each derive reads, earlier ones (-1 is the variable).
    static func operands(_ n: Int) -> [(Int, Int)] {
        var random = SplitMix64(seed: 0xD371_7E)
        return (0..<n).map { index in (random.next(index + 1) - 1, random.next(index + 1) - 1) }
    }

    static func derives(_ n: Int) -> Workload {
        Workload(operations: 1) {
            let operands = operands(n)
            // Each value is one more than the larger of its operands' (the variable is 0).
            var values: [Int] = []
            for (a, b) in operands { values.append(max(a < 0 ? 0 : values[a], b < 0 ? 0 : values[b]) + 1) }
            let expressions = try operands.map { a, b in
                try Expression("max(\(a < 0 ? "v" : "d\(a)"), \(b < 0 ? "v" : "d\(b)")) + 1")
            }
            let built = Built()
            return Trial(expectedChecksum: values.last ?? 0, run: {
                let start = threadCPUNanoseconds()
                let graph = Graph()
                built.graph = graph
                try graph.createVariable("v", value: 0)
                for (index, expression) in expressions.enumerated() {
                    try graph.createDerived("d\(index)", expression: expression)
                }
                built.cpuNanoseconds = threadCPUNanoseconds() - start
                guard case .value(.int(let last)) = graph.lookup(name: "d\(n - 1)") else { return -1 }
                return last
            }, measurement: { Double(built.cpuNanoseconds) })
        }
    }
}

extension GraphBuildingBenchmarks {
    /// `count` stores made by `store` commands in a shell.
    static func stores(_ count: Int) -> Workload {
        let commands = (0..<count).map { "store s\($0) = {n: \($0)}" }
        return shellCommands(commands, expecting: count) { shell in shell.execute("state s\(count - 1).n").lines.first.flatMap { Int($0.text) }.map { $0 + 1 } ?? -1 }
    }

    /// `count` reducers made on one store by `reducer` commands in a shell.
    static func reducers(_ count: Int) -> Workload {
        let commands = ["store app = {n: 0}"] + (0..<count).map { "reducer app on T\($0) : state.n += 1" }
        // The last reducer made got the id r<count>: every lower one was taken.
        return shellCommands(commands, expecting: count) { shell in
            shell.execute("reducer r\(count) : state.n += 1").status == .success ? count : -1
        }
    }

    /// Runs `commands` in a fresh shell, timed by the thread's CPU clock; `count` reads what they made.
    private static func shellCommands(_ commands: [String], expecting expected: Int, count: @escaping (Shell) -> Int) -> Workload {
        Workload(operations: 1) {
            let built = Built()
            return Trial(expectedChecksum: expected, run: {
                let start = threadCPUNanoseconds()
                let shell = Shell()
                built.shell = shell
                for command in commands where shell.execute(command).status != .success {
                    throw CorrectnessFailure(description: "'\(command)' failed")
                }
                built.cpuNanoseconds = threadCPUNanoseconds() - start
                return count(shell)
            }, measurement: { Double(built.cpuNanoseconds) })
        }
    }
}

/// Holds a trial's graph until the trial is released, after the clock stopped, and the CPU
/// time its building took.
private final class Built {
    var graph: Graph?
    var shell: Shell?
    var cpuNanoseconds: UInt64 = 0
}

/// The CPU time of the calling thread, in nanoseconds.
private func threadCPUNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}
