import Foundation

/// How much work a randomized test does: a small default that keeps CI quick, raised by hand
/// through an environment variable to run the same test much longer, for example
///
///     PATCHBAY_ORACLE_SEQUENCES=100000 swift test --skip-build --filter SessionOracle
///
/// Every randomized test also reads `PATCHBAY_SEED` (decimal or 0x-hex), so that a run printed by
/// a failure can be repeated, or a long run can try other inputs than CI does.
public enum TestBudget {
    /// The number in the environment variable `name`, or `default` when it is unset or not a
    /// positive number.
    public static func count(_ name: String, default defaultCount: Int) -> Int {
        guard let text = ProcessInfo.processInfo.environment[name], let count = Int(text), count > 0 else { return defaultCount }
        return count
    }

    /// The seed of the random inputs: `PATCHBAY_SEED`, or `default`.
    public static func seed(default defaultSeed: UInt64) -> UInt64 {
        guard let text = ProcessInfo.processInfo.environment["PATCHBAY_SEED"] else { return defaultSeed }
        if text.hasPrefix("0x") { return UInt64(text.dropFirst(2), radix: 16) ?? defaultSeed }
        return UInt64(text) ?? defaultSeed
    }
}

extension SplitMix64 {
    /// A number in `range`.
    public mutating func int(_ range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &self)
    }

    /// True with probability `percent` / 100.
    public mutating func chance(_ percent: Int) -> Bool {
        Int.random(in: 0..<100, using: &self) < percent
    }

    /// One of `choices`.
    public mutating func pick<T>(_ choices: [T]) -> T {
        choices[Int.random(in: 0..<choices.count, using: &self)]
    }

    /// The seed of the `index`-th of many independent runs derived from `seed`.
    public static func seed(_ seed: UInt64, run index: Int) -> UInt64 {
        var generator = SplitMix64(seed: seed ^ (UInt64(index) &* 0xD1B5_4A32_D192_ED03))
        return generator.next()
    }
}
