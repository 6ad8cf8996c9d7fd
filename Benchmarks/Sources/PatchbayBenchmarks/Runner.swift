/// Runs benchmark rows: for each side of a row the warm-ups, then the timed trials, alternating
/// between our side and the reference so that drift in the machine's speed affects both alike.
struct Runner {
    var options: Options

    func run(_ row: BenchmarkRow) -> RowResult {
        do {
            var ours = Samples()
            var reference = row.reference.map { _ in Samples() }
            for _ in 0..<options.warmUps {
                _ = try measure(row.ours)
                if let workload = row.reference?.workload { _ = try measure(workload) }
            }
            for _ in 0..<options.repetitions {
                ours.append(try measure(row.ours))
                if let workload = row.reference?.workload { reference?.append(try measure(workload)) }
            }
            return RowResult(row: row, outcome: .measured(ours: ours, reference: reference))
        } catch let failure as CorrectnessFailure {
            return RowResult(row: row, outcome: .failed(failure.description))
        } catch {
            return RowResult(row: row, outcome: .failed("threw \(error)"))
        }
    }
}

/// What running one row gave.
struct RowResult {
    enum Outcome {
        /// Every trial was correct.
        case measured(ours: Samples, reference: Samples?)
        /// A trial computed a wrong result or threw.
        case failed(String)
    }

    var row: BenchmarkRow
    var outcome: Outcome

    /// Our median divided by the reference's median.
    var ratio: Double? {
        guard case .measured(let ours, let reference?) = outcome else { return nil }
        return ours.median / reference.median
    }

    var isCorrect: Bool {
        if case .failed = outcome { return false }
        return true
    }

    /// Whether the row was measured and met its target.
    var metTarget: Bool {
        guard case .measured(let ours, _) = outcome else { return false }
        return row.target.isMet(nanoseconds: ours.median, ratio: ratio)
    }

    static let columns = [
        "id", "workload", "ours ns/op", "ours min-max", "reference", "ref ns/op", "ref min-max", "ours/ref",
        "target", "result",
    ]

    /// The row's cells, in the order of `columns`.
    var cells: [String] {
        let referenceName = row.reference.map { "\($0.kind.rawValue): \($0.name)" } ?? "-"
        switch outcome {
        case .failed(let why):
            return [row.id, row.title, "-", "-", referenceName, "-", "-", "-", row.target.description, "FAIL: \(why)"]
        case .measured(let ours, let reference):
            return [
                row.id, row.title,
                formatted(ours.median, digits: 1), Self.range(ours),
                referenceName,
                reference.map { formatted($0.median, digits: 1) } ?? "-", reference.map(Self.range) ?? "-",
                ratio.map { formatted($0, digits: 2) } ?? "-",
                row.target.description, metTarget ? "PASS" : "MISS",
            ]
        }
    }

    private static func range(_ samples: Samples) -> String {
        "\(formatted(samples.min, digits: 1))-\(formatted(samples.max, digits: 1))"
    }
}
