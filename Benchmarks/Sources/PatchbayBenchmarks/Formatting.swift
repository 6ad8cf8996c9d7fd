/// `value` with `digits` digits after the point, rounded half away from zero; "-" when not finite.
func formatted(_ value: Double, digits: Int) -> String {
    guard value.isFinite else { return "-" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    guard scaled < 9e18 else { return "\(value)" }
    let units = Int(scaled)
    let divisor = Int(scale)
    let whole = "\(value < 0 && units != 0 ? "-" : "")\(units / divisor)"
    guard digits > 0 else { return whole }
    let fraction = String(units % divisor)
    return whole + "." + String(repeating: "0", count: digits - fraction.count) + fraction
}

/// `count` and `noun`, in the plural unless `count` is 1: "1 row", "2 rows".
func counted(_ count: Int, _ noun: String) -> String {
    count == 1 ? "1 \(noun)" : "\(count) \(noun)s"
}

/// A ratio with two digits after the point, or two significant digits when it is smaller than
/// 0.1 (a memory ratio of 0.00025 would otherwise print as 0.00).
func formattedRatio(_ value: Double) -> String {
    guard value.isFinite, value > 0, value < 0.1 else { return formatted(value, digits: 2) }
    var digits = 2
    var scaled = value * 100
    while scaled < 10, digits < 12 {
        scaled *= 10
        digits += 1
    }
    return formatted(value, digits: digits)
}
