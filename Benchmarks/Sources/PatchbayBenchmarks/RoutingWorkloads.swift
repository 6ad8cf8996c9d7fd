/// The benchmarks' PRNG: SplitMix64, all arithmetic wrapping at 64 bits.
struct SplitMix64 {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `next() % bound`.
    mutating func next(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

/// The routes and URLs of a routing row, with what each URL must match: generated once per row
/// and shared by its sides, so that every side matches the same strings in the same order.
struct RoutingMix {
    /// The patterns in registration order, in JLRoutes syntax; a route's index is its payload.
    var patterns: [String]
    var urls: [String]
    /// The number of URLs that match a route.
    var matches: Int
    /// Σ(index + 1) over the routes the URLs match.
    var indexSum: Int

    /// What a routing trial returns: the match count and Σ(index + 1), combined so that both are
    /// checked (neither can reach 2^32 at these sizes).
    static func checksum(matches: Int, indexSum: Int) -> Int { matches << 32 | indexSum }

    var expectedChecksum: Int { Self.checksum(matches: matches, indexSum: indexSum) }

    /// Workload W4: the patterns `/section{i}/:id/item{j}` for i in 0..<100, j in 0..<10
    /// (route i·10+j), then `/files{k}/*` for k in 0..<10 (route 1000+k); `count` URLs from
    /// SplitMix64 seeded 0xC0FFEE: 85% hits of a section route, 5% hits of a files wildcard, 5%
    /// misses at the last segment (`/section{i}/{id}/other{j}`), 5% misses at the first
    /// (`/unknown{n}/x/y`).
    static func w4(urls count: Int) -> RoutingMix {
        var patterns: [String] = []
        for i in 0..<100 {
            for j in 0..<10 { patterns.append("/section\(i)/:id/item\(j)") }
        }
        for k in 0..<10 { patterns.append("/files\(k)/*") }
        var mix = RoutingMix(patterns: patterns, urls: [], matches: 0, indexSum: 0)
        mix.urls.reserveCapacity(count)
        var random = SplitMix64(seed: 0xC0FFEE)
        for _ in 0..<count {
            let r = random.next(100)
            if r < 85 {
                let i = random.next(100)
                let j = random.next(10)
                let id = random.next(1_000_000)
                mix.append("/section\(i)/\(id)/item\(j)", route: i * 10 + j)
            } else if r < 90 {
                let k = random.next(10)
                let a = random.next(1000)
                let b = random.next(1000)
                mix.append("/files\(k)/a\(a)/b\(b)", route: 1000 + k)
            } else if r < 95 {
                let i = random.next(100)
                let j = random.next(10)
                let id = random.next(1_000_000)
                mix.append("/section\(i)/\(id)/other\(j)", route: nil)
            } else {
                mix.append("/unknown\(random.next(1000))/x/y", route: nil)
            }
        }
        return mix
    }

    /// The known figures of the full W4 mix, checked on the generator itself.
    static let w4FullURLs = 1_000_000
    static let w4FullMatches = 900_371
    static let w4FullIndexSum = 476_147_147
    static let w4FirstURLs = ["/section97/305540/other1", "/section7/653759/item7", "/section26/769756/item7"]

    /// Throws unless the generated mix starts with `w4FirstURLs` and, at its full size, has
    /// its match count and checksum.
    func checkAgainstAnchors() throws {
        let first = Array(urls.prefix(Self.w4FirstURLs.count))
        guard first == Array(Self.w4FirstURLs.prefix(first.count)) else {
            throw CorrectnessFailure(description: "W4 mix starts \(first), expected \(Self.w4FirstURLs)")
        }
        if urls.count == Self.w4FullURLs, matches != Self.w4FullMatches || indexSum != Self.w4FullIndexSum {
            throw CorrectnessFailure(
                description: "W4 mix has \(matches) matches, checksum \(indexSum); expected \(Self.w4FullMatches), \(Self.w4FullIndexSum)")
        }
    }

    /// The W4 section routes alone at another size: `/section{1000+i}/:id/item{j}` for i in
    /// 0..<`sections` (at most 9000), j in 0..<10 (route i·10+j), and `count` URLs drawn like
    /// W4's (SplitMix64 seeded 0xC0FFEE, i from 0..<`sections`): 90% hits, 5% misses at the last
    /// segment, 5% at the first. Sizes differ only in how many sections there are: the URLs have
    /// the same shape, the same draws, and (sections being numbered from 1000) the same lengths,
    /// so that comparing sizes measures the table's size and nothing else.
    static func sections(_ sections: Int, urls count: Int) -> RoutingMix {
        var patterns: [String] = []
        precondition(sections <= 9000)
        for i in 0..<sections {
            for j in 0..<10 { patterns.append("/section\(1000 + i)/:id/item\(j)") }
        }
        var mix = RoutingMix(patterns: patterns, urls: [], matches: 0, indexSum: 0)
        mix.urls.reserveCapacity(count)
        var random = SplitMix64(seed: 0xC0FFEE)
        for _ in 0..<count {
            let r = random.next(100)
            if r < 95 {
                let i = random.next(sections)
                let j = random.next(10)
                let id = random.next(1_000_000)
                if r < 90 {
                    mix.append("/section\(1000 + i)/\(id)/item\(j)", route: i * 10 + j)
                } else {
                    mix.append("/section\(1000 + i)/\(id)/other\(j)", route: nil)
                }
            } else {
                mix.append("/unknown\(random.next(1000))/x/y", route: nil)
            }
        }
        return mix
    }

    private mutating func append(_ url: String, route: Int?) {
        urls.append(url)
        if let route {
            matches += 1
            indexSum += route + 1
        }
    }
}

/// A value computed on first use and then shared, so that the sides of a row, which prepare their
/// trials separately, use the same URLs without generating them once per trial.
final class Shared<Value> {
    private let make: () throws -> Value
    private var value: Value?

    init(_ make: @escaping () throws -> Value) { self.make = make }

    func get() throws -> Value {
        if let value { return value }
        let made = try make()
        value = made
        return made
    }
}
