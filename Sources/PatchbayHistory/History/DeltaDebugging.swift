/// Zeller's delta debugging (ddmin): shrinks a failing list of items (a history's actions, by
/// index) to a smallest sublist that still fails, then makes sure it is 1-minimal: removing any
/// one of its items makes it pass (`history minimize`).
///
/// A test runs a candidate sublist, in the order of the items given, and says whether it fails.
/// The empty list is taken to pass. Each test is counted against a budget; the candidates found
/// to pass are remembered, so that none runs twice.
@_spi(Shell)
public struct DeltaDebugging {
    /// What a minimization found.
    public struct Outcome: Sendable, Equatable {
        /// The smallest failing sublist found, in the order of the items given.
        public var kept: [Int]
        /// How many tests ran (the first, of every item, included).
        public var runs: Int
        /// Whether `kept` is 1-minimal: false when the budget ran out first.
        public var isMinimal: Bool
    }

    /// How many tests may run at most.
    public var budget: Int

    /// A minimization that runs at most `budget` tests (at least 1).
    public init(budget: Int) {
        self.budget = Swift.max(1, budget)
    }

    /// Why a minimization stopped before its end: the budget ran out, or the test threw.
    private enum Halt<Failure: Error>: Error {
        case budget
        case test(Failure)
    }

    /// Shrinks `items`, which `test` must find failing: when it finds them passing, nothing is
    /// searched and `kept` is empty.
    ///
    /// `test` returns `nil` when the candidate passes, or the part of it known to fail: the
    /// candidate itself, or a prefix of it (the actions up to the step that failed), which the
    /// search goes on from. What `test` throws (Ctrl-C) stops the search and is thrown.
    public func minimize<Failure: Error>(_ items: [Int], test: ([Int]) throws(Failure) -> [Int]?) throws(Failure) -> Outcome {
        var runs = 0
        var passing: Set<[Int]> = []
        var current = items
        // Runs `candidate` unless it is known to pass or the budget is spent.
        func fails(_ candidate: [Int]) throws(Halt<Failure>) -> [Int]? {
            if candidate.isEmpty || passing.contains(candidate) { return nil }
            guard runs < budget else { throw .budget }
            runs += 1
            let failing: [Int]?
            do throws(Failure) { failing = try test(candidate) } catch { throw .test(error) }
            if failing == nil { passing.insert(candidate) }
            return failing
        }
        do throws(Halt<Failure>) {
            guard let failing = try fails(items) else { return Outcome(kept: [], runs: runs, isMinimal: false) }
            current = failing
            try shrink(&current, fails)
            try checkOneMinimal(&current, fails)
            return Outcome(kept: current, runs: runs, isMinimal: true)
        } catch {
            switch error {
            case .budget: return Outcome(kept: current, runs: runs, isMinimal: false)
            case .test(let failure): throw failure
            }
        }
    }

    /// ddmin: tries each of `granularity` parts of the list, then each complement of one,
    /// keeping the first that fails; with none, splits finer, until the parts are single items.
    private func shrink<Failure: Error>(_ current: inout [Int], _ fails: ([Int]) throws(Halt<Failure>) -> [Int]?) throws(Halt<Failure>) {
        var granularity = 2
        while current.count >= 2 {
            let parts = Self.split(current, into: granularity)
            var reduced = false
            for part in parts {
                if let failing = try fails(part) {
                    current = failing
                    granularity = 2
                    reduced = true
                    break
                }
            }
            if !reduced, parts.count > 2 {
                for removed in parts.indices {
                    let complement = parts.indices.filter { $0 != removed }.flatMap { parts[$0] }
                    if let failing = try fails(complement) {
                        current = failing
                        granularity = Swift.max(granularity - 1, 2)
                        reduced = true
                        break
                    }
                }
            }
            if !reduced {
                guard granularity < current.count else { return }
                granularity = Swift.min(granularity * 2, current.count)
            }
        }
    }

    /// Removes items one at a time while that still fails, until removing any one passes. After
    /// `shrink` ends at single items, every such test is known to pass and none runs.
    private func checkOneMinimal<Failure: Error>(_ current: inout [Int], _ fails: ([Int]) throws(Halt<Failure>) -> [Int]?) throws(Halt<Failure>) {
        var position = 0
        while position < current.count {
            var without = current
            without.remove(at: position)
            if let failing = try fails(without) {
                current = failing
                position = 0
            } else {
                position += 1
            }
        }
    }

    /// `items` in `count` consecutive parts of sizes that differ by one at most.
    static func split(_ items: [Int], into count: Int) -> [[Int]] {
        let count = Swift.min(count, items.count)
        var parts: [[Int]] = []
        parts.reserveCapacity(count)
        var start = 0
        for part in 0..<count {
            let end = start + (items.count - start) / (count - part)
            parts.append(Array(items[start..<end]))
            start = end
        }
        return parts
    }
}
