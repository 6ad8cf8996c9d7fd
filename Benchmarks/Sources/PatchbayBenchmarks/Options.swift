/// How large a run is.
enum Mode: String {
    /// The defined workload sizes; missed targets make the run fail.
    case full
    /// Small iteration counts, a few seconds in all, for the test suite: only correctness
    /// failures make the run fail.
    case quick
}

/// The command line of `patchbay-benchmarks`.
struct Options {
    var mode = Mode.full
    /// Rows whose id or title contains this text (ignoring case) run; `nil` runs them all.
    var filter: String?
    /// Untimed trials before the timed ones, per side of a row.
    var warmUps = 1
    /// Timed trials per side of a row; the row reports their median.
    var repetitions = 5
    var showHelp = false

    static let usage = """
        usage: patchbay-benchmarks [--quick] [--filter TEXT] [--repetitions N]

          --quick           small iteration counts; fail only on correctness failures
          --filter TEXT     run the rows whose id or title contains TEXT (ignoring case)
          --repetitions N   timed trials per side of a row (default 5), after 1 warm-up
          --help            show this text

        exit status: 0 all rows correct (and, in full mode, on target); 1 a correctness failure;
        2 a usage error; 3 a missed target (full mode only)
        """

    /// A command-line mistake, with the message to show above the usage.
    struct UsageError: Error {
        var message: String
    }

    /// Reads the arguments that follow the program name.
    init(arguments: [String]) throws(UsageError) {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--quick":
                mode = .quick
            case "--filter":
                guard let text = remaining.popFirst() else { throw UsageError(message: "--filter needs a text") }
                filter = text
            case "--repetitions":
                guard let text = remaining.popFirst(), let count = Int(text), count > 0 else {
                    throw UsageError(message: "--repetitions needs a positive integer")
                }
                repetitions = count
            case "--help", "-h":
                showHelp = true
            default:
                throw UsageError(message: "unknown argument '\(argument)'")
            }
        }
    }

    /// Whether the row runs under `--filter`.
    func selects(_ row: BenchmarkRow) -> Bool {
        guard let filter else { return true }
        let needle = filter.lowercased()
        return row.id.lowercased().contains(needle) || row.title.lowercased().contains(needle)
    }
}
