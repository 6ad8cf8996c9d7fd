#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every group, in the order its table is printed.
let groups: [any BenchmarkGroup] = [
    ExpressionBenchmarks(),
    DataflowBenchmarks(),
    GraphBuildingBenchmarks(),
    StoreBenchmarks(),
    RoutingBenchmarks(),
    HistoryBenchmarks(),
    MinimizeBenchmarks(),
    SessionBenchmarks(),
    CodableBenchmarks(),
    HostingBenchmarks(),
    ScaleBenchmarks(),
    OutputBenchmarks(),
    TimeTravelOutputBenchmarks(),
]

// The child run of the R-INS-MEM row: `inspect FILE` alone in a fresh process, whose peak
// resident size it prints.
if CommandLine.arguments.count == 3, CommandLine.arguments[1] == SessionBenchmarks.inspectChildFlag {
    exit(SessionBenchmarks.inspectInChild(CommandLine.arguments[2]))
}

let options: Options
do {
    options = try Options(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    print("patchbay-benchmarks: \(error.message)\n\n\(Options.usage)")
    exit(2)
}
if options.showHelp {
    print(Options.usage)
    exit(0)
}

#if DEBUG
let build = "debug build: the numbers mean nothing, use -c release"
#else
let build = "release build"
#endif
print("Patchbay benchmarks, mode: \(options.mode.rawValue) (\(build))")
print("\(options.warmUps) warm-up + \(options.repetitions) timed trials per side; median ns per operation, min-max over the trials")
if let filter = options.filter { print("filter: \(filter)") }

let runner = Runner(options: options)
var results: [RowResult] = []
for group in groups {
    let rows = group.rows(for: options.mode).filter(options.selects)
    guard !rows.isEmpty else { continue }
    let groupResults = rows.map(runner.run)
    print("\n## \(group.name)\n")
    TablePrinter(columns: RowResult.columns).print(groupResults.map(\.cells))
    let notes = groupResults.flatMap(\.notes)
    if !notes.isEmpty { print("\n" + notes.joined(separator: "\n")) }
    results += groupResults
}

let failures = results.filter { !$0.isCorrect }.count
let misses = results.filter { $0.isCorrect && !$0.metTarget }.count
print("\n\(counted(results.count, "row")): \(counted(failures, "correctness failure")), \(counted(misses, "missed target"))")
if results.isEmpty {
    print("no row matches the filter")
    exit(2)
}
if failures > 0 { exit(1) }
if misses > 0 {
    guard options.mode == .quick else { exit(3) }
    print("quick mode: missed targets do not fail the run")
}
exit(0)
