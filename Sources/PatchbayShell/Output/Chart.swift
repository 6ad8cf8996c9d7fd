import Foundation
@_spi(Shell) import PatchbayCore

/// A terminal chart of numbers over steps, as `history --chart` draws it (the terminal's
/// Redux DevTools chart monitor): columns of Unicode blocks with the largest and smallest value
/// labelled on the left and the first and last step below, or a one-line sparkline where the
/// terminal is narrow.
struct Chart {
    /// The value at each step; `nil` where the path is missing or null (a gap).
    var points: [(index: Int, value: Double?)]
    /// How the largest and smallest values are written (integers without a fraction).
    var label: (Double) -> String
    /// The history's current step and its value as printed, when it is among the points:
    /// marked `▲` under its column and named in the legend.
    var current: (index: Int, text: String)?

    /// The eighths of a block, from one to eight.
    private static let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// Narrower than this, the chart is a sparkline.
    static let minimumWidth = 40

    private var values: [Double] { points.compactMap(\.value) }

    /// The columns: each the largest value of the steps it covers (`nil` when all are gaps),
    /// at most `count` of them.
    private func columns(_ count: Int) -> (values: [Double?], stepsPerColumn: Int) {
        let perColumn = Swift.max(1, (points.count + count - 1) / Swift.max(1, count))
        var columns: [Double?] = []
        var start = 0
        while start < points.count {
            let bucket = points[start..<Swift.min(points.count, start + perColumn)].compactMap(\.value)
            columns.append(bucket.max())
            start += perColumn
        }
        return (columns, perColumn)
    }

    /// How high `value` stands, in eighths of a row, out of `rows` rows: at least one eighth,
    /// so that the smallest value still shows.
    private func level(_ value: Double, rows: Int) -> Int {
        guard let low = values.min(), let high = values.max() else { return 0 }
        guard high > low else { return rows * 4 }
        return Swift.max(1, Int(((value - low) / (high - low) * Double(rows * 8)).rounded()))
    }

    /// One line of blocks, then where the extremes are.
    func sparkline(width: Int) -> [String] {
        let (columns, perColumn) = columns(Swift.max(8, width - 2))
        let line = String(columns.map { value in value.map { Self.blocks[Swift.min(7, Swift.max(0, (level($0, rows: 1) - 1)))] } ?? " " })
        var lines = [line]
        if let column = column(ofStep: current?.index, perColumn: perColumn, stretch: 1) {
            lines.append(String(repeating: " ", count: column) + "▲")
        }
        return lines + [extremes + (perColumn > 1 ? ", \(perColumn) steps a block" : "") + currentLegend]
    }

    /// The column (from 0) where step `index` is drawn, when it is one of the points.
    private func column(ofStep index: Int?, perColumn: Int, stretch: Int) -> Int? {
        guard let index, let position = points.firstIndex(where: { $0.index == index }) else { return nil }
        return position / perColumn * stretch
    }

    /// `; ▲ #20 (current): 20`, when the current step is charted.
    private var currentLegend: String {
        current.map { "; ▲ #\($0.index) (current): \($0.text)" } ?? ""
    }

    /// The axis under `count` columns, with a tick `┬` under every `interval`th step and `▲`
    /// under the current one, and the line of their step numbers below it, each starting under
    /// its mark (a number that would touch another is left out; the current step's never is).
    private func axis(columns count: Int, perColumn: Int, stretch: Int, margin: Int) -> [String] {
        var axis = Array(repeating: Character("─"), count: count)
        var labels = Array(repeating: Character(" "), count: count + 8)
        var taken = Array(repeating: false, count: labels.count)
        func place(_ text: String, at column: Int) -> Bool {
            let span = column..<(column + text.count)
            guard span.upperBound <= labels.count,
                  !taken[Swift.max(0, column - 1)..<Swift.min(taken.count, span.upperBound + 1)].contains(true) else { return false }
            for (offset, character) in text.enumerated() { labels[column + offset] = character }
            for position in span { taken[position] = true }
            return true
        }
        if let current, let column = column(ofStep: current.index, perColumn: perColumn, stretch: stretch), column < count {
            axis[column] = "▲"
            _ = place("#\(current.index)", at: column)
        }
        // A step number takes up to 8 columns with its `#`: ticks at 1, 2 or 5 times a power of
        // ten steps, far enough apart for their numbers.
        let columnsPerStep = Double(stretch) / Double(perColumn)
        var interval = 1
        for scale in [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000] {
            guard let fit = [1, 2, 5].map({ $0 * scale }).first(where: { Double($0) * columnsPerStep >= Double("#\(points.last?.index ?? 0)".count + 2) }) else { continue }
            interval = fit
            break
        }
        for point in points where point.index % interval == 0 || point.index == points.first?.index || point.index == points.last?.index {
            guard let column = column(ofStep: point.index, perColumn: perColumn, stretch: stretch), column < count else { continue }
            let isTick = point.index % interval == 0
            if place("#\(point.index)", at: column), isTick, axis[column] == "─" { axis[column] = "┬" }
        }
        let indent = String(repeating: " ", count: margin)
        return [indent + "└" + String(axis), indent + " " + String(labels).trimmingTrailingBlanks]
    }

    /// The chart with axes: `rows` rows of blocks, max and min labelled on the left.
    func plot(width: Int, rows: Int = 8) -> [String] {
        guard let low = values.min(), let high = values.max() else { return [] }
        let top = label(high), bottom = label(low)
        let margin = Swift.max(top.count, bottom.count)
        let room = Swift.max(1, width - margin - 2)
        var (columns, perColumn) = columns(room)
        // A short history is drawn wider, up to three columns a step, so that it reads.
        let stretch = perColumn == 1 ? Swift.max(1, Swift.min(3, room / Swift.max(1, columns.count))) : 1
        columns = columns.flatMap { Array(repeating: $0, count: stretch) }
        let levels = columns.map { $0.map { level($0, rows: rows) } }
        var lines: [String] = []
        for row in (0..<rows).reversed() {
            let name = row == rows - 1 ? top : row == 0 ? bottom : ""
            let axis = row == rows - 1 || row == 0 ? "┤" : "│"
            let cells = levels.map { level -> Character in
                guard let level else { return " " }
                let filled = level - row * 8
                return filled >= 8 ? "█" : filled <= 0 ? " " : Self.blocks[filled - 1]
            }
            lines.append(String(repeating: " ", count: margin - name.count) + name + axis + String(cells))
        }
        lines += axis(columns: columns.count, perColumn: perColumn, stretch: stretch, margin: margin)
        lines.append(extremes + (perColumn > 1 ? ", \(perColumn) steps a column (the largest of them)" : "") + currentLegend)
        return lines
    }

    /// A number as a label: an integer as it is, a decimal to four significant digits.
    static func label(_ number: Double, integers: Bool) -> String {
        if integers && abs(number) < 1e15 { return String(Int(number)) }
        guard number != 0, number.isFinite else { return Value.decimalText(number) }
        let scale = pow(10, Double(Swift.max(0, 3 - Int(log10(abs(number)).rounded(.down)))))
        return Value.decimalText((number * scale).rounded() / scale)
    }

    /// `min 0 at #3, max 42 at #17`: the first step of each.
    private var extremes: String {
        guard let low = values.min(), let high = values.max() else { return "" }
        let lowAt = points.first { $0.value == low }?.index ?? 0
        let highAt = points.first { $0.value == high }?.index ?? 0
        return "min \(label(low)) at #\(lowAt), max \(label(high)) at #\(highAt)"
    }
}

extension String {
    /// The string without the blanks at its end.
    fileprivate var trimmingTrailingBlanks: String {
        String(reversed().drop { $0 == " " }.reversed())
    }
}
