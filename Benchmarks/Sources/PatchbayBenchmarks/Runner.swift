/// Runs benchmark rows: the warm-up trials, then the timed ones, each trial timing our side and
/// then the references, so that drift in the machine's speed affects every side alike.
struct Runner {
    var options: Options

    func run(_ row: BenchmarkRow) -> RowResult {
        defer { row.cleanUp?() }
        var side = "ours"
        do {
            var ours = Samples()
            var reference = row.reference.map { _ in Samples() }
            var secondReference = row.secondReference.map { _ in Samples() }
            for trial in 0..<(options.warmUps + options.repetitions) {
                side = "ours"
                let oursTime = try measure(row.ours)
                side = row.reference.map { $0.kind.rawValue } ?? ""
                let referenceTime = try row.reference.map { reference in try measure(reference.workload) }
                side = row.secondReference.map { $0.kind.rawValue } ?? ""
                let secondTime = try row.secondReference.map { reference in try measure(reference.workload) }
                guard trial >= options.warmUps else { continue }
                ours.append(oursTime)
                if let referenceTime { reference?.append(referenceTime) }
                if let secondTime { secondReference?.append(secondTime) }
            }
            return RowResult(row: row, outcome: .measured(ours: ours, reference: reference, second: secondReference))
        } catch let failure as CorrectnessFailure {
            return RowResult(row: row, outcome: .failed("\(side): \(failure.description)"))
        } catch {
            return RowResult(row: row, outcome: .failed("\(side) threw \(error)"))
        }
    }
}
