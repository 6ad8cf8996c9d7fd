/// Runs benchmark rows: the warm-up trials, then the timed ones, each trial timing our side and
/// then the reference, so that drift in the machine's speed affects both sides alike.
struct Runner {
    var options: Options

    func run(_ row: BenchmarkRow) -> RowResult {
        let referenceSide = row.reference.map { $0.kind.rawValue } ?? ""
        var side = "ours"
        do {
            var ours = Samples()
            var reference = row.reference.map { _ in Samples() }
            for trial in 0..<(options.warmUps + options.repetitions) {
                side = "ours"
                let oursTime = try measure(row.ours)
                side = referenceSide
                let referenceTime = try row.reference.map { reference in try measure(reference.workload) }
                guard trial >= options.warmUps else { continue }
                ours.append(oursTime)
                if let referenceTime { reference?.append(referenceTime) }
            }
            return RowResult(row: row, outcome: .measured(ours: ours, reference: reference))
        } catch let failure as CorrectnessFailure {
            return RowResult(row: row, outcome: .failed("\(side): \(failure.description)"))
        } catch {
            return RowResult(row: row, outcome: .failed("\(side) threw \(error)"))
        }
    }
}
