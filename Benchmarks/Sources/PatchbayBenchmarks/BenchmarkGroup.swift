/// A set of related rows, printed as one table: one file per group, listed in `main.swift`.
protocol BenchmarkGroup {
    /// The table's title.
    var name: String { get }
    /// The group's rows, sized for `mode`.
    func rows(for mode: Mode) -> [BenchmarkRow]
}

/// One line of a table: our code against a reference measured in the same run, and the target
/// that the comparison must meet.
struct BenchmarkRow {
    /// A short stable name, such as `E1`, for `--filter` and for reports.
    var id: String
    var title: String
    /// Our code.
    var ours: Workload
    /// What `ours` is compared with; `nil` for rows with an absolute target only.
    var reference: Reference?
    var target: Target
    /// A second reference measured in the same trials and shown with its own ratio, without a
    /// target: typically the floor of a row whose target is set against a peer.
    var secondReference: Reference? = nil
    /// Lines printed under the group's table for a measured row, from the figures its target
    /// compares (the medians of ours, the reference and the second reference; the fastest trials
    /// for `.bestRatioAtMost`): the row's figures in its own units (seconds in all, actions per
    /// second).
    var notes: ((_ ours: Double, _ reference: Double?, _ second: Double?) -> [String])? = nil
    /// Called once after the row's last trial, whatever its outcome: removes the files its
    /// trials wrote.
    var cleanUp: (() -> Void)? = nil
}

/// What a row compares our code with.
struct Reference {
    /// What kind of reference this is, shown in the table.
    enum Kind: String {
        /// Hand-written Swift doing the same work: the best one could hope for.
        case floor
        /// Another library doing the same job.
        case peer
        /// The straightforward way of doing the same job, to show what the design saves.
        case naive
        /// Our own code doing the same job without the feature the row measures (dispatch with
        /// recording off), to show what the feature costs.
        case baseline
    }

    var kind: Kind
    /// Shown in the table, such as "Swift closure" or "OpenCombine".
    var name: String
    var workload: Workload
}

/// The goal of a row.
enum Target: CustomStringConvertible {
    /// Our median time per operation is at most this multiple of the reference's.
    case ratioAtMost(Double)
    /// Our fastest trial is at most this multiple of the reference's fastest: for a ratio that
    /// only noise can raise (another process taking the processor or its caches), such as the
    /// cost of building twice as much, where the fastest trials come closest to the cost itself
    /// and the medians of a busy machine wander by more than the margin.
    case bestRatioAtMost(Double)
    /// Our median time per operation is below this many nanoseconds.
    case nanosecondsBelow(Double)
    /// Our median time per operation exceeds the reference's by at most this many nanoseconds:
    /// what a layer over the reference adds.
    case overheadAtMost(Double)
    /// Our median figure, in bytes per operation (a row whose `measurement` counts bytes), is
    /// below this.
    case bytesBelow(Double)
    /// A trial of `operations` operations takes less than this many seconds in all (our median
    /// time per operation times `operations`).
    case secondsBelow(Double, operations: Int)
    /// Our median time per operation allows at least this many operations per second.
    case perSecondAtLeast(Double)
    /// Our median figure, a factor (a row whose `measurement` is a ratio of two sizes), is
    /// below this.
    case factorBelow(Double)
    /// Every one of these targets.
    indirect case all([Target])
    /// Our median time per operation is at most `times` the reference's plus `plus` nanoseconds
    /// (a cost bound by a floor the reference measures, with a constant on top).
    case floorTimesPlus(times: Double, plus: Double)
    /// No target: the row reports a figure that explains another row's (its notes say why).
    case reported

    /// Whether the figures the target compares (`Samples.figure(for:)`) meet it; `ratio` is
    /// ours / reference.
    func isMet(nanoseconds: Double, ratio: Double?) -> Bool {
        switch self {
        case .ratioAtMost(let limit), .bestRatioAtMost(let limit): ratio.map { $0 <= limit } ?? false
        case .nanosecondsBelow(let limit), .bytesBelow(let limit): nanoseconds < limit
        case .overheadAtMost(let limit): ratio.map { nanoseconds - nanoseconds / $0 <= limit } ?? false
        case .secondsBelow(let limit, let operations): nanoseconds * Double(operations) / 1e9 < limit
        case .perSecondAtLeast(let limit): 1e9 / nanoseconds >= limit
        case .factorBelow(let limit): nanoseconds < limit
        case .all(let targets): targets.allSatisfy { $0.isMet(nanoseconds: nanoseconds, ratio: ratio) }
        case .floorTimesPlus(let times, let plus): ratio.map { nanoseconds <= times * nanoseconds / $0 + plus } ?? false
        case .reported: true
        }
    }

    var description: String {
        switch self {
        case .ratioAtMost(let limit): "ratio <= \(Self.shortest(limit))"
        case .bestRatioAtMost(let limit): "best/best <= \(Self.shortest(limit))"
        case .nanosecondsBelow(let limit): "< \(Self.shortest(limit)) ns"
        case .overheadAtMost(let limit): "+<= \(Self.shortest(limit)) ns"
        case .bytesBelow(let limit): "< \(Self.shortest(limit)) B"
        case .secondsBelow(let limit, _): "< \(Self.shortest(limit)) s in all"
        case .perSecondAtLeast(let limit): ">= \(Self.shortest(limit)) op/s"
        case .factorBelow(let limit): "< \(Self.shortest(limit))x"
        case .all(let targets): targets.map(\.description).joined(separator: " and ")
        case .floorTimesPlus(let times, let plus): "<= \(Self.shortest(times))x + \(Self.shortest(plus / 1_000)) µs"
        case .reported: "(reported)"
        }
    }

    /// `limit` with no more digits after the point than it needs, up to two: 10, 0.5, 0.25.
    private static func shortest(_ limit: Double) -> String {
        let digits = (0...1).first { Double(formatted(limit, digits: $0)) == limit } ?? 2
        return formatted(limit, digits: digits)
    }
}
