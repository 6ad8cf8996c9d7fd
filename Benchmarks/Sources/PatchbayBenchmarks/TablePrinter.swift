/// Prints rows of cells as a Markdown table with aligned columns: text columns (the first two)
/// to the left, numbers to the right.
struct TablePrinter {
    var columns: [String]
    /// How many leading columns hold text rather than numbers.
    var textColumns = 2

    func print(_ rows: [[String]]) {
        var widths = columns.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = Swift.max(widths[index], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            let padded = cells.enumerated().map { index, cell in
                let padding = String(repeating: " ", count: widths[index] - cell.count)
                return index < textColumns ? cell + padding : padding + cell
            }
            return "| " + padded.joined(separator: " | ") + " |"
        }
        let rule = widths.enumerated().map { index, width in
            index < textColumns ? String(repeating: "-", count: width) : String(repeating: "-", count: width - 1) + ":"
        }
        Swift.print(line(columns))
        Swift.print("| " + rule.joined(separator: " | ") + " |")
        for row in rows { Swift.print(line(row)) }
    }
}

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
