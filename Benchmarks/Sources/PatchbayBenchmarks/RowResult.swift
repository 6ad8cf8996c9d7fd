/// What running one row gave.
struct RowResult {
    enum Outcome {
        /// Every trial was correct.
        case measured(ours: Samples, reference: Samples?, second: Samples?)
        /// A trial computed a wrong result or threw.
        case failed(String)
    }

    var row: BenchmarkRow
    var outcome: Outcome

    /// Our figure divided by the reference's: medians, or the fastest trials for
    /// `.bestRatioAtMost` (see `Samples.figure(for:)`).
    var ratio: Double? {
        guard case .measured(let ours, let reference?, _) = outcome else { return nil }
        return ours.figure(for: row.target) / reference.figure(for: row.target)
    }

    /// Our median divided by the second reference's median.
    var secondRatio: Double? {
        guard case .measured(let ours, _, let second?) = outcome else { return nil }
        return ours.median / second.median
    }

    var isCorrect: Bool {
        if case .failed = outcome { return false }
        return true
    }

    /// Whether the row was measured and met its target.
    var metTarget: Bool {
        guard case .measured(let ours, _, _) = outcome else { return false }
        return row.target.isMet(nanoseconds: ours.figure(for: row.target), ratio: ratio)
    }

    static let columns: [TablePrinter.Column] = [
        .text("id"), .text("workload"), .number("ours ns/op"), .number("ours min-max"), .text("reference"),
        .number("ref ns/op"), .number("ref min-max"), .number("ours/ref"), .text("2nd reference"),
        .number("2nd ns/op"), .number("ours/2nd"), .text("target"), .text("result"),
    ]

    /// The row's notes (`BenchmarkRow.notes`), each after the row's id; none unless measured.
    var notes: [String] {
        guard case .measured(let ours, let reference, let second) = outcome, let notes = row.notes else { return [] }
        let target = row.target
        return notes(ours.figure(for: target), reference?.figure(for: target), second?.figure(for: target)).map { "\(row.id): \($0)" }
    }

    /// The row's cells, in the order of `columns`.
    var cells: [String] {
        let referenceName = row.reference.map { "\($0.kind.rawValue): \($0.name)" } ?? "-"
        let secondName = row.secondReference.map { "\($0.kind.rawValue): \($0.name)" } ?? "-"
        switch outcome {
        case .failed(let why):
            return [
                row.id, row.title, "-", "-", referenceName, "-", "-", "-", secondName, "-", "-",
                row.target.description, "FAIL: \(why)",
            ]
        case .measured(let ours, let reference, let second):
            return [
                row.id, row.title,
                formatted(ours.median, digits: 1), Self.range(ours),
                referenceName,
                reference.map { formatted($0.median, digits: 1) } ?? "-", reference.map(Self.range) ?? "-",
                ratio.map(formattedRatio) ?? "-",
                secondName,
                second.map { formatted($0.median, digits: 1) } ?? "-",
                secondRatio.map(formattedRatio) ?? "-",
                row.target.description, Self.verdict(row.target, metTarget: metTarget),
            ]
        }
    }

    private static func verdict(_ target: Target, metTarget: Bool) -> String {
        if case .reported = target { return "-" }
        return metTarget ? "PASS" : "MISS"
    }

    private static func range(_ samples: Samples) -> String {
        "\(formatted(samples.min, digits: 1))-\(formatted(samples.max, digits: 1))"
    }
}
