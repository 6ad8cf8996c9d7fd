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
