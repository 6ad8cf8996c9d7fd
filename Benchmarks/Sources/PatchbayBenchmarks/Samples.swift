/// The times per operation of the timed trials of one workload, in nanoseconds.
struct Samples {
    private(set) var values: [Double] = []

    mutating func append(_ value: Double) {
        values.append(value)
    }

    /// The middle value; the mean of the two middle values for an even count.
    var median: Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    var min: Double { values.min() ?? .nan }

    /// The figure `target` compares: the fastest trial for `.bestRatioAtMost`, else the median.
    func figure(for target: Target) -> Double {
        if case .bestRatioAtMost = target { return min }
        return median
    }
    var max: Double { values.max() ?? .nan }
}
