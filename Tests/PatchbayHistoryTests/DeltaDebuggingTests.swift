@_spi(Shell) @testable import PatchbayHistory
import PatchbayTestSupport
import Testing

/// `DeltaDebugging` alone, on tests written as predicates over the items kept: what it finds is
/// checked against a brute-force search of every sublist on small sizes, and against the cause
/// planted among hundreds of items on large ones.
@Suite("Delta debugging")
struct DeltaDebuggingTests {
    /// Whether `candidate` fails: it holds every item of `cause`.
    private static func holdsAll(_ cause: Set<Int>) -> ([Int]) -> [Int]? {
        { candidate in cause.isSubset(of: candidate) ? candidate : nil }
    }

    /// Whether `candidate` fails: an `arm` item before a `fire` item, after a `disarm` item
    /// only if another `arm` follows it (an order that matters, unlike `holdsAll`).
    private static func armedFire(arms: Set<Int>, disarms: Set<Int>, fires: Set<Int>) -> ([Int]) -> [Int]? {
        { candidate in
            var armed = false
            for (position, item) in candidate.enumerated() {
                if arms.contains(item) { armed = true }
                if disarms.contains(item) { armed = false }
                if fires.contains(item), armed { return Array(candidate[...position]) }
            }
            return nil
        }
    }

    /// The smallest size of a failing sublist of `items`, trying every sublist.
    private static func smallestFailingSize(_ items: [Int], _ fails: ([Int]) -> [Int]?) -> Int? {
        var smallest: Int?
        for mask in 1..<(1 << items.count) {
            let candidate = items.indices.filter { mask & (1 << $0) != 0 }.map { items[$0] }
            if candidate.count < (smallest ?? .max), fails(candidate) != nil { smallest = candidate.count }
        }
        return smallest
    }

    @Test func itFindsThePlantedCauseOfThreeAmongHundreds() {
        var random = SplitMix64(seed: 0x5EED_0001)
        for _ in 0..<20 {
            let count = Int.random(in: 200...600, using: &random)
            let cause = Set((0..<count).shuffled(using: &random).prefix(3))
            let outcome = DeltaDebugging(budget: 2_000).minimize(Array(0..<count), test: Self.holdsAll(cause))
            #expect(Set(outcome.kept) == cause)
            #expect(outcome.kept == outcome.kept.sorted(), "in the order given")
            #expect(outcome.isMinimal)
            #expect(outcome.runs <= 2_000)
        }
    }

    @Test func itAgreesWithABruteForceSearchOnSmallSizes() {
        var random = SplitMix64(seed: 0x5EED_0002)
        for _ in 0..<60 {
            let count = Int.random(in: 1...11, using: &random)
            let items = Array(0..<count)
            var roles = items.map { _ in Int.random(in: 0..<4, using: &random) }
            roles[Int.random(in: 0..<count, using: &random)] = 2
            let fails = Self.armedFire(arms: Set(items.filter { roles[$0] == 0 }), disarms: Set(items.filter { roles[$0] == 1 }),
                                       fires: Set(items.filter { roles[$0] == 2 }))
            let outcome = DeltaDebugging(budget: 10_000).minimize(items, test: fails)
            // A list that passes is not searched (a sublist may fail: a disarm taken out).
            guard fails(items) != nil, let smallest = Self.smallestFailingSize(items, fails) else {
                #expect(outcome.kept.isEmpty, "nothing fails, nothing is kept")
                continue
            }
            #expect(outcome.kept.count == smallest, "roles \(roles)")
            #expect(fails(outcome.kept) != nil)
            for position in outcome.kept.indices {
                var without = outcome.kept
                without.remove(at: position)
                #expect(fails(without) == nil, "1-minimal: without \(outcome.kept[position]) it passes")
            }
        }
    }

    @Test func aBudgetStopsItWithTheSmallestFailingListFoundSoFar() {
        let cause: Set<Int> = [17, 250, 399]
        let outcome = DeltaDebugging(budget: 12).minimize(Array(0..<400), test: Self.holdsAll(cause))
        #expect(outcome.runs == 12)
        #expect(!outcome.isMinimal)
        #expect(cause.isSubset(of: outcome.kept))
        #expect(outcome.kept.count < 400)
    }

    @Test func whatTheTestThrowsStopsIt() {
        struct Stop: Error {}
        var runs = 0
        #expect(throws: Stop.self) {
            try DeltaDebugging(budget: 100).minimize(Array(0..<50)) { (candidate: [Int]) throws(Stop) -> [Int]? in
                runs += 1
                if runs == 3 { throw Stop() }
                return candidate.contains(7) ? candidate : nil
            }
        }
        #expect(runs == 3)
    }

    @Test func splitGivesPartsThatDifferByOneAtMost() {
        let parts = DeltaDebugging.split(Array(0..<10), into: 4)
        #expect(parts == [[0, 1], [2, 3], [4, 5, 6], [7, 8, 9]])
        #expect(DeltaDebugging.split([1, 2], into: 5) == [[1], [2]])
    }
}
